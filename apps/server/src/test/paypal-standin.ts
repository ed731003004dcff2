// @peculiar/x509's dependency injection needs the Reflect metadata API, loaded before it.
import 'reflect-metadata';
import { KeyObject, randomBytes, sign, webcrypto } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from '@node-rs/crc32';
import * as x509 from '@peculiar/x509';

/*
 * A stand-in for the part of PayPal's REST API Ferry uses: OAuth2 client credentials, catalog products, billing
 * plans, subscriptions (create, read, revise, suspend, activate, cancel, capture) and checkout orders (create,
 * read, capture), state in memory. It sends webhooks to `webhookUrl` signed as PayPal signs them: SHA256withRSA over
 * `<transmission id>|<time>|<webhook id>|<crc32 of the body>`, with a key pair and a self-signed certificate made at
 * start and served under /certs/ (Ferry's PAYPAL_CERT_URL_PREFIX). The buyer's side is a control:
 * approveSubscription(id), approveOrder(id); and renewNow(id), failNextRenewal().
 */

// biome-ignore lint/suspicious/noExplicitAny: the stand-in's objects are PayPal's JSON, loosely typed on purpose.
type Json = any;

export interface PayPalWebhookDelivery {
  eventId: string;
  type: string;
  status: number;
  body: string;
}

const ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

/** A key pair and a self-signed certificate, as PayPal's message-verification certificate stands. */
export async function makeSigningCertificate(commonName = 'messageverificationcerts.paypal.test') {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 30 * 86_400_000),
    signingAlgorithm: ALGORITHM,
    keys,
  });
  return { pem: certificate.toString('pem'), privateKey: KeyObject.from(keys.privateKey) };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

const unprocessable = (issue: string) =>
  new HttpError(422, {
    name: 'UNPROCESSABLE_ENTITY',
    message: 'The requested action could not be performed.',
    details: [{ issue }],
  });
const notFound = (id: string) =>
  new HttpError(404, {
    name: 'RESOURCE_NOT_FOUND',
    message: `The specified resource ${id} does not exist.`,
    details: [{ issue: 'INVALID_RESOURCE_ID' }],
  });

function addCycle(from: Date, frequency: { interval_unit: string; interval_count: number }): Date {
  const d = new Date(from);
  const n = frequency.interval_count;
  if (frequency.interval_unit === 'YEAR') d.setUTCFullYear(d.getUTCFullYear() + n);
  else if (frequency.interval_unit === 'MONTH') d.setUTCMonth(d.getUTCMonth() + n);
  else if (frequency.interval_unit === 'WEEK') d.setUTCDate(d.getUTCDate() + 7 * n);
  else d.setUTCDate(d.getUTCDate() + n);
  return d;
}

const money = (minor: number, currency: string) => ({
  value: (minor / 100).toFixed(2),
  currency_code: currency,
});

export class PayPalStandin {
  readonly clientId = `standin-client-${randomBytes(6).toString('hex')}`;
  readonly clientSecret = randomBytes(16).toString('hex');
  readonly webhookId = `WH-ID-${randomBytes(6).toString('hex').toUpperCase()}`;
  webhookUrl: string | null = null;
  readonly products = new Map<string, Json>();
  readonly plans = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly orders = new Map<string, Json>();
  readonly events: Json[] = [];
  readonly deliveries: PayPalWebhookDelivery[] = [];
  /** How many times each token was asked (the client should keep its token). */
  tokenRequests = 0;
  private failNext = false;
  private readonly tokens = new Set<string>();
  private readonly byRequestId = new Map<string, Json>();
  private queue: Promise<void> = Promise.resolve();
  private server!: Server;
  private certificate!: { pem: string; privateKey: KeyObject };
  url = '';

  static async start(): Promise<PayPalStandin> {
    const standin = new PayPalStandin();
    standin.certificate = await makeSigningCertificate();
    standin.server = createServer((req, res) => void standin.serve(req, res));
    await new Promise<void>((resolve) => standin.server.listen(0, '127.0.0.1', resolve));
    standin.url = `http://127.0.0.1:${(standin.server.address() as AddressInfo).port}`;
    return standin;
  }

  /** Where the certificate is served: under the prefix Ferry trusts. */
  get certUrl(): string {
    return `${this.url}/certs/paypal-standin.pem`;
  }

  /** The same certificate, served outside the trusted prefix. */
  get untrustedCertUrl(): string {
    return `${this.url}/elsewhere/paypal-standin.pem`;
  }

  env(): Record<string, string> {
    return {
      PAYMENT_PROVIDERS: 'PAYPAL',
      PAYPAL_CLIENT_ID: this.clientId,
      PAYPAL_CLIENT_SECRET: this.clientSecret,
      PAYPAL_WEBHOOK_ID: this.webhookId,
      PAYPAL_API_BASE: this.url,
      PAYPAL_CERT_URL_PREFIX: `${this.url}/certs/`,
    };
  }

  async close(): Promise<void> {
    await this.settle();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async settle(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.queue;
      await last;
    } while (last !== this.queue);
  }

  eventsOfType(type: string): Json[] {
    return this.events.filter((e) => e.event_type === type);
  }

  /** PayPal's signature headers for a body, as PayPal sends them (the cert URL may be changed by a test). */
  signatureHeaders(body: string, certUrl = this.certUrl): Record<string, string> {
    const transmissionId = randomBytes(16).toString('hex');
    const transmissionTime = new Date().toISOString();
    const signed = `${transmissionId}|${transmissionTime}|${this.webhookId}|${crc32(Buffer.from(body)) >>> 0}`;
    return {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': sign('sha256', Buffer.from(signed), this.certificate.privateKey).toString(
        'base64',
      ),
      'paypal-cert-url': certUrl,
      'paypal-auth-algo': 'SHA256withRSA',
    };
  }

  /** Sends an event again, freshly signed (PayPal's retry, or a replay). */
  redeliver(eventId: string): Promise<PayPalWebhookDelivery> {
    const event = this.events.find((e) => e.id === eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    return this.deliver(event);
  }

  // ---- the buyer and the clock ---------------------------------------------------------------------------------

  /** The buyer approves the subscription on PayPal: it starts, and the first cycle is charged unless a trial. */
  approveSubscription(id: string): Json {
    const sub = this.subscription(id);
    if (sub.status !== 'APPROVAL_PENDING') throw new Error(`subscription ${id} is ${sub.status}`);
    const plan = this.plans.get(sub.plan_id);
    const now = new Date();
    sub.status = 'ACTIVE';
    sub.start_time = now.toISOString();
    const trial = plan.billing_cycles.find((c: Json) => c.tenure_type === 'TRIAL');
    if (trial) {
      sub.billing_info.next_billing_time = addCycle(now, trial.frequency).toISOString();
      this.emit('BILLING.SUBSCRIPTION.ACTIVATED', 'subscription', this.view(sub));
    } else {
      sub.billing_info.next_billing_time = now.toISOString();
      this.emit('BILLING.SUBSCRIPTION.ACTIVATED', 'subscription', this.view(sub));
      this.renewNow(id);
    }
    return sub;
  }

  /** The next cycle is charged now (or fails, after failNextRenewal()). */
  renewNow(id: string): Json {
    const sub = this.subscription(id);
    const cycle = this.regularCycle(sub);
    const amount = this.cycleAmount(sub);
    const due = new Date(sub.billing_info.next_billing_time);
    const currency = cycle.pricing_scheme.fixed_price.currency_code;
    if (this.failNext) {
      this.failNext = false;
      sub.billing_info.failed_payments_count += 1;
      sub.billing_info.outstanding_balance = money(amount, currency);
      this.emit('BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'subscription', this.view(sub));
      return sub;
    }
    sub.billing_info.next_billing_time = addCycle(due, cycle.frequency).toISOString();
    this.sale(sub, amount, currency);
    return sub;
  }

  failNextRenewal(): void {
    this.failNext = true;
  }

  /** The buyer approves a checkout order on PayPal. */
  approveOrder(id: string): Json {
    const order = this.order(id);
    order.status = 'APPROVED';
    this.emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', structuredClone(order));
    return order;
  }

  // ---- HTTP -----------------------------------------------------------------------------------------------------

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const url = new URL(request.url ?? '/', this.url);
      if (request.method === 'GET' && /^\/(certs|elsewhere)\/paypal-standin\.pem$/.test(url.pathname)) {
        response.setHeader('Content-Type', 'application/x-pem-file');
        response.end(this.certificate.pem);
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.method === 'POST' && url.pathname === '/v1/oauth2/token') {
        const basic = Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64');
        if (
          request.headers.authorization !== `Basic ${basic}` ||
          !text.includes('grant_type=client_credentials')
        )
          throw new HttpError(401, {
            error: 'invalid_client',
            error_description: 'Client Authentication failed',
          });
        const token = `A21-${randomBytes(16).toString('hex')}`;
        this.tokens.add(token);
        this.tokenRequests += 1;
        this.send(response, 200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 32_400,
          app_id: 'APP-STANDIN',
        });
        return;
      }
      const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/, '');
      if (!this.tokens.has(token))
        throw new HttpError(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed' });
      const requestId = request.headers['paypal-request-id'];
      const key = typeof requestId === 'string' ? `${url.pathname} ${requestId}` : null;
      if (key && this.byRequestId.has(key)) {
        this.send(response, 200, this.byRequestId.get(key));
        return;
      }
      const body = text ? JSON.parse(text) : {};
      const [status, answer] = this.route(request.method ?? 'GET', url, body);
      if (key && status < 300) this.byRequestId.set(key, answer);
      this.send(response, status, answer);
    } catch (error) {
      if (error instanceof HttpError) this.send(response, error.status, error.body);
      else this.send(response, 500, { name: 'INTERNAL_SERVER_ERROR', message: String(error) });
    }
  }

  private send(response: ServerResponse, status: number, body: Json): void {
    response.statusCode = status;
    if (status === 204) {
      response.end();
      return;
    }
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify(body));
  }

  private route(method: string, url: URL, body: Json): [number, Json] {
    const path = url.pathname;
    const found = <T>(value: T | undefined, id: string): T => {
      if (value === undefined) throw notFound(id);
      return value;
    };
    type Route = [string, RegExp, (id: string, action: string) => [number, Json]];
    const routes: Route[] = [
      ['GET', /^\/v1\/catalogs\/products\/([^/]+)$/, (id) => [200, found(this.products.get(id), id)]],
      ['POST', /^\/v1\/catalogs\/products$/, () => [201, this.createProduct(body)]],
      [
        'GET',
        /^\/v1\/billing\/plans$/,
        () => [
          200,
          {
            plans: [...this.plans.values()].filter(
              (p) => p.product_id === url.searchParams.get('product_id'),
            ),
          },
        ],
      ],
      ['POST', /^\/v1\/billing\/plans$/, () => [201, this.createPlan(body)]],
      ['GET', /^\/v1\/billing\/plans\/([^/]+)$/, (id) => [200, found(this.plans.get(id), id)]],
      ['POST', /^\/v1\/billing\/subscriptions$/, () => [201, this.createSubscription(body)]],
      [
        'GET',
        /^\/v1\/billing\/subscriptions\/([^/]+)$/,
        (id) => [200, this.view(this.subscription(id), url.searchParams.get('fields')?.includes('plan'))],
      ],
      [
        'POST',
        /^\/v1\/billing\/subscriptions\/([^/]+)\/revise$/,
        (id) => [200, this.revise(this.subscription(id), body)],
      ],
      [
        'POST',
        /^\/v1\/billing\/subscriptions\/([^/]+)\/(suspend|activate|cancel)$/,
        (id, action) => {
          this.changeState(this.subscription(id), action, body.reason);
          return [204, null];
        },
      ],
      [
        'POST',
        /^\/v1\/billing\/subscriptions\/([^/]+)\/capture$/,
        (id) => [202, this.captureBalance(this.subscription(id))],
      ],
      ['POST', /^\/v2\/checkout\/orders$/, () => [201, this.createOrder(body)]],
      ['GET', /^\/v2\/checkout\/orders\/([^/]+)$/, (id) => [200, this.order(id)]],
      [
        'POST',
        /^\/v2\/checkout\/orders\/([^/]+)\/capture$/,
        (id) => [201, this.captureOrder(this.order(id))],
      ],
    ];
    for (const [verb, pattern, run] of routes) {
      const match = verb === method ? path.match(pattern) : null;
      if (match) return run(decodeURIComponent(match[1] ?? ''), match[2] ?? '');
    }
    throw new HttpError(404, { name: 'NOT_FOUND', message: `${method} ${path}` });
  }

  // ---- objects --------------------------------------------------------------------------------------------------

  private subscription(id: string): Json {
    const sub = this.subscriptions.get(id);
    if (!sub) throw notFound(id);
    return sub;
  }

  private order(id: string): Json {
    const order = this.orders.get(id);
    if (!order) throw notFound(id);
    return order;
  }

  private view(sub: Json, withPlan = false): Json {
    const out = structuredClone(sub);
    delete out._override;
    if (withPlan) out.plan = structuredClone(sub._override);
    return out;
  }

  private createProduct(body: Json): Json {
    const id = body.id ?? `PROD-${randomBytes(6).toString('hex').toUpperCase()}`;
    if (this.products.has(id)) throw unprocessable('DUPLICATE_RESOURCE_IDENTIFIER');
    const product = {
      id,
      name: body.name,
      type: body.type,
      category: body.category,
      create_time: new Date().toISOString(),
    };
    this.products.set(id, product);
    return product;
  }

  private createPlan(body: Json): Json {
    if (!this.products.has(body.product_id)) throw unprocessable('INVALID_PRODUCT_ID');
    const plan = {
      id: `P-${randomBytes(8).toString('hex').toUpperCase()}`,
      product_id: body.product_id,
      name: body.name,
      status: body.status ?? 'ACTIVE',
      billing_cycles: body.billing_cycles,
      payment_preferences: body.payment_preferences,
      taxes: body.taxes,
      create_time: new Date().toISOString(),
    };
    this.plans.set(plan.id, plan);
    return plan;
  }

  private createSubscription(body: Json): Json {
    const plan = this.plans.get(body.plan_id);
    if (!plan) throw unprocessable('INVALID_PLAN_ID');
    const id = `I-${randomBytes(6).toString('hex').toUpperCase()}`;
    const sub = {
      id,
      status: 'APPROVAL_PENDING',
      plan_id: plan.id,
      custom_id: body.custom_id,
      plan_overridden: !!body.plan,
      create_time: new Date().toISOString(),
      billing_info: { failed_payments_count: 0, outstanding_balance: money(0, this.currencyOf(plan)) },
      links: [
        {
          href: `${this.url}/webapps/billing/subscriptions?ba_token=BA-${id}`,
          rel: 'approve',
          method: 'GET',
        },
        { href: `${this.url}/v1/billing/subscriptions/${id}`, rel: 'self', method: 'GET' },
      ],
      _override: this.override(plan, body.plan),
    };
    this.subscriptions.set(id, sub);
    return this.view(sub);
  }

  /** The plan as this subscription has it: the plan's cycles with the override's prices, and its taxes. */
  private override(plan: Json, override: Json): Json {
    const cycles = plan.billing_cycles.map((cycle: Json) => {
      const own = override?.billing_cycles?.find((c: Json) => c.sequence === cycle.sequence);
      return { ...cycle, ...(own?.pricing_scheme ? { pricing_scheme: own.pricing_scheme } : {}) };
    });
    return {
      billing_cycles: cycles,
      taxes: override?.taxes ?? plan.taxes ?? { percentage: '0', inclusive: false },
    };
  }

  private currencyOf(plan: Json): string {
    return plan.billing_cycles.find((c: Json) => c.pricing_scheme)?.pricing_scheme.fixed_price.currency_code;
  }

  private regularCycle(sub: Json): Json {
    return sub._override.billing_cycles.find((c: Json) => c.tenure_type === 'REGULAR');
  }

  /** A cycle's price with its exclusive VAT. */
  cycleAmount(sub: Json): number {
    const net = Math.round(Number(this.regularCycle(sub).pricing_scheme.fixed_price.value) * 100);
    return net + Math.round((net * Number(sub._override.taxes?.percentage ?? 0)) / 100);
  }

  private revise(sub: Json, body: Json): Json {
    const plan = this.plans.get(body.plan_id);
    if (!plan) throw unprocessable('INVALID_PLAN_ID');
    const before = this.cycleAmount(sub);
    sub.plan_id = plan.id;
    sub._override = this.override(plan, body.plan);
    const higher = this.cycleAmount(sub) > before;
    this.emit('BILLING.SUBSCRIPTION.UPDATED', 'subscription', this.view(sub));
    return {
      plan_id: plan.id,
      plan_overridden: true,
      links: higher
        ? [
            {
              href: `${this.url}/webapps/billing/subscriptions/update?ba_token=BA-${sub.id}`,
              rel: 'approve',
              method: 'GET',
            },
          ]
        : [],
    };
  }

  private changeState(sub: Json, action: string, reason: string | undefined): void {
    const allowed: Record<string, string[]> = {
      suspend: ['ACTIVE'],
      activate: ['SUSPENDED'],
      cancel: ['ACTIVE', 'SUSPENDED', 'APPROVAL_PENDING', 'APPROVED'],
    };
    if (!allowed[action]?.includes(sub.status)) throw unprocessable('SUBSCRIPTION_STATUS_INVALID');
    sub.status = action === 'suspend' ? 'SUSPENDED' : action === 'activate' ? 'ACTIVE' : 'CANCELLED';
    sub.status_change_note = reason;
    const type =
      action === 'suspend'
        ? 'BILLING.SUBSCRIPTION.SUSPENDED'
        : action === 'activate'
          ? 'BILLING.SUBSCRIPTION.RE-ACTIVATED'
          : 'BILLING.SUBSCRIPTION.CANCELLED';
    this.emit(type, 'subscription', this.view(sub));
  }

  private captureBalance(sub: Json): Json {
    const balance = sub.billing_info.outstanding_balance;
    const amount = Math.round(Number(balance.value) * 100);
    if (amount === 0) throw unprocessable('ZERO_OUTSTANDING_BALANCE');
    if (this.failNext) {
      this.failNext = false;
      throw unprocessable('PAYMENT_DENIED');
    }
    sub.billing_info.outstanding_balance = money(0, balance.currency_code);
    sub.billing_info.failed_payments_count = 0;
    sub.billing_info.next_billing_time = addCycle(
      new Date(sub.billing_info.next_billing_time),
      this.regularCycle(sub).frequency,
    ).toISOString();
    const sale = this.sale(sub, amount, balance.currency_code);
    return { id: sale.id, status: 'COMPLETED', amount_with_breakdown: { gross_amount: balance } };
  }

  private sale(sub: Json, amount: number, currency: string): Json {
    const now = new Date().toISOString();
    sub.billing_info.last_payment = { amount: money(amount, currency), time: now };
    const sale = {
      id: `SALE-${randomBytes(6).toString('hex').toUpperCase()}`,
      state: 'completed',
      amount: { total: (amount / 100).toFixed(2), currency },
      billing_agreement_id: sub.id,
      custom: sub.custom_id,
      create_time: now,
    };
    this.emit('PAYMENT.SALE.COMPLETED', 'sale', sale);
    return sale;
  }

  private createOrder(body: Json): Json {
    const id = randomBytes(8).toString('hex').toUpperCase();
    const unit = body.purchase_units?.[0];
    const order = {
      id,
      intent: body.intent,
      status: 'PAYER_ACTION_REQUIRED',
      purchase_units: [{ custom_id: unit?.custom_id, description: unit?.description, amount: unit?.amount }],
      create_time: new Date().toISOString(),
      links: [
        { href: `${this.url}/checkoutnow?token=${id}`, rel: 'payer-action', method: 'GET' },
        { href: `${this.url}/v2/checkout/orders/${id}`, rel: 'self', method: 'GET' },
      ],
    };
    this.orders.set(id, order);
    return structuredClone(order);
  }

  private captureOrder(order: Json): Json {
    if (order.status === 'COMPLETED') throw unprocessable('ORDER_ALREADY_CAPTURED');
    if (order.status !== 'APPROVED') throw unprocessable('ORDER_NOT_APPROVED');
    order.status = 'COMPLETED';
    const unit = order.purchase_units[0];
    const capture = {
      id: `CAP-${randomBytes(6).toString('hex').toUpperCase()}`,
      status: 'COMPLETED',
      amount: unit.amount,
      custom_id: unit.custom_id,
      supplementary_data: { related_ids: { order_id: order.id } },
    };
    unit.payments = { captures: [{ id: capture.id, status: 'COMPLETED', amount: unit.amount }] };
    this.emit('PAYMENT.CAPTURE.COMPLETED', 'capture', capture);
    return structuredClone(order);
  }

  // ---- webhooks -------------------------------------------------------------------------------------------------

  private emit(type: string, resourceType: string, resource: Json): void {
    const event = {
      id: `WH-${randomBytes(8).toString('hex').toUpperCase()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      event_type: type,
      summary: type,
      resource: structuredClone(resource),
    };
    this.events.push(event);
    void this.deliver(event);
  }

  private deliver(event: Json): Promise<PayPalWebhookDelivery> {
    const result = this.queue.then(async () => {
      const body = JSON.stringify(event);
      const delivery: PayPalWebhookDelivery = {
        eventId: event.id,
        type: event.event_type,
        status: 0,
        body: '',
      };
      if (!this.webhookUrl) return delivery;
      try {
        const response = await fetch(this.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...this.signatureHeaders(body) },
          body,
        });
        delivery.status = response.status;
        delivery.body = await response.text();
      } catch (error) {
        delivery.body = String(error);
      }
      this.deliveries.push(delivery);
      return delivery;
    });
    this.queue = result.then(() => undefined);
    return result;
  }
}
