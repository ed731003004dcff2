import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cors,
  invalidRequest,
  type Json,
  luhnValid,
  missing,
  parseStripeForm,
  readBody,
  StripeHttpError,
  sendJson,
  stripeSignature,
} from './stripe-standin-http.js';

/*
 * A stand-in for the part of Stripe's API that Ferry uses (customers, products, subscriptions with inline prices,
 * invoices, payment and setup intents, payment methods), its state in memory, plus the Stripe.js stand-in served at
 * /v3/ and the calls that script makes with the publishable key. It sends webhooks to `webhookUrl`, signed as
 * Stripe signs them. Test cards behave as Stripe's test cards do:
 *   4242424242424242 succeeds; 4000002500003155 needs authentication (3D Secure) when the customer is on the page,
 *   renewals go through; 4000000000000341 is attached but every charge is declined.
 * Controls: failNextRenewal(), renewNow(subscriptionId), advanceClock(seconds), redeliver(eventId), settle().
 */

export { stripeSignature } from './stripe-standin-http.js';

const STRIPE_JS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stripe-js-standin.js');
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  requiresAuthentication: '4000002500003155',
  chargeDeclined: '4000000000000341',
} as const;

type CardBehaviour = 'ok' | 'sca' | 'decline';
const behaviourOf = (number: string): CardBehaviour =>
  number === TEST_CARDS.requiresAuthentication
    ? 'sca'
    : number === TEST_CARDS.chargeDeclined
      ? 'decline'
      : 'ok';

export interface StripeStandinOptions {
  secretKey?: string;
  publishableKey?: string;
  webhookSecret?: string;
  /** Where webhooks go; settable later (Ferry's port is known once it listens). */
  webhookUrl?: string | null;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  status: number;
  body: string;
}

const API_VERSION = '2026-10-28.endive';
const DECLINED = {
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
};
const AUTH_FAILED = {
  type: 'card_error',
  code: 'payment_intent_authentication_failure',
  message:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

function addInterval(start: number, recurring: { interval: string; interval_count: number }): number {
  const d = new Date(start * 1000);
  if (recurring.interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + recurring.interval_count);
  else if (recurring.interval === 'month') d.setUTCMonth(d.getUTCMonth() + recurring.interval_count);
  else if (recurring.interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * recurring.interval_count);
  else d.setUTCDate(d.getUTCDate() + recurring.interval_count);
  return Math.floor(d.getTime() / 1000);
}

export class StripeStandin {
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  webhookUrl: string | null;
  /** Every object by id (cus_, prod_, price_, sub_, si_, in_, il_, pi_, seti_, pm_). */
  readonly objects = new Map<string, Json>();
  readonly events: Json[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  private clockOffset = 0;
  private failNext = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly idempotent = new Map<string, { status: number; body: Json }>();
  private server!: Server;
  url = '';

  private constructor(options: StripeStandinOptions) {
    this.secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
    this.publishableKey = options.publishableKey ?? `pk_test_${randomBytes(12).toString('hex')}`;
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
    this.webhookUrl = options.webhookUrl ?? null;
  }

  static async start(options: StripeStandinOptions = {}): Promise<StripeStandin> {
    const standin = new StripeStandin(options);
    standin.server = createServer((req, res) => void standin.serve(req, res));
    await new Promise<void>((resolve) => standin.server.listen(0, '127.0.0.1', resolve));
    standin.url = `http://127.0.0.1:${(standin.server.address() as AddressInfo).port}`;
    return standin;
  }

  /** Ferry's settings that point at this stand-in. */
  env(): Record<string, string> {
    return {
      PAYMENT_PROVIDERS: 'STRIPE',
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_PUBLISHABLE_KEY: this.publishableKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_BASE: this.url,
      STRIPE_JS_URL: `${this.url}/v3/`,
    };
  }

  async close(): Promise<void> {
    await this.settle();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffset;
  }

  get<T = Json>(id: string): T {
    const object = this.objects.get(id);
    if (!object) throw missing(id);
    return object as T;
  }

  /** Waits until every webhook sent so far has been answered. */
  async settle(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.queue;
      await last;
    } while (last !== this.queue);
  }

  eventsOfType(type: string): Json[] {
    return this.events.filter((e) => e.type === type);
  }

  /** Sends an event again, freshly signed (a provider's retry, or a replay). */
  redeliver(eventId: string): Promise<WebhookDelivery> {
    const event = this.events.find((e) => e.id === eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    return this.deliver(event);
  }

  /**
   * What the Stripe.js stand-in does when the page confirms a payment or setup intent with a typed card: the same
   * HTTP call, with the publishable key and the client secret. Resolves to the intent as Stripe.js sees it.
   */
  async confirmAsPage(clientSecret: string, cardNumber: string = TEST_CARDS.succeeds): Promise<Json> {
    const id = clientSecret.split('_secret_')[0];
    const kind = id?.startsWith('seti_') ? 'setup_intents' : 'payment_intents';
    const response = await fetch(`${this.url}/v1/${kind}/${id}/confirm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key: this.publishableKey,
        client_secret: clientSecret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': cardNumber,
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': String(new Date().getUTCFullYear() + 3),
        'payment_method_data[card][cvc]': '123',
      }),
    });
    return response.json();
  }

  /** The buttons of the Stripe.js stand-in's 3D Secure dialog: "Complete authentication" or "Fail authentication". */
  async authenticateAsPage(clientSecret: string, passed: boolean): Promise<Json> {
    const id = clientSecret.split('_secret_')[0];
    const response = await fetch(`${this.url}/standin/3ds/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key: this.publishableKey,
        client_secret: clientSecret,
        outcome: passed ? 'complete' : 'fail',
      }),
    });
    return response.json();
  }

  // ---- test controls ------------------------------------------------------------------------------------------

  /** The next charge made without the customer (a renewal, a retry) is declined. */
  failNextRenewal(): void {
    this.failNext = true;
  }

  /** Moves the clock on and renews every subscription whose period (or trial) has ended. */
  advanceClock(seconds: number): void {
    this.clockOffset += seconds;
    for (const sub of [...this.objects.values()].filter((o) => o.object === 'subscription'))
      if (
        ['active', 'trialing', 'past_due'].includes(sub.status) &&
        sub.items.data[0].current_period_end <= this.now()
      )
        this.renewNow(sub.id);
  }

  /** Ends the current period (or trial) of a subscription now: Stripe invoices the next one and charges it. */
  renewNow(subscriptionId: string): Json {
    const sub = this.get(subscriptionId);
    const item = sub.items.data[0];
    const start = item.current_period_end;
    this.clockOffset = Math.max(this.clockOffset, start - Math.floor(Date.now() / 1000));
    if (sub.cancel_at_period_end) {
      this.cancel(sub);
      return sub;
    }
    item.current_period_start = start;
    item.current_period_end = addInterval(start, item.price.recurring);
    const wasTrial = sub.status === 'trialing';
    const invoice = this.createInvoice(sub, 'subscription_cycle', [
      { amount: item.price.unit_amount, description: sub.description, start, end: item.current_period_end },
    ]);
    if (wasTrial) sub.status = 'active';
    this.payOffSession(invoice);
    if (invoice.status !== 'paid') sub.status = 'past_due';
    this.emit('customer.subscription.updated', sub);
    return invoice;
  }

  // ---- HTTP -----------------------------------------------------------------------------------------------------

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    cors(response);
    try {
      if (request.method === 'OPTIONS') {
        response.statusCode = 204;
        response.end();
        return;
      }
      const url = new URL(request.url ?? '/', this.url);
      if (request.method === 'GET' && (url.pathname === '/v3' || url.pathname === '/v3/')) {
        response.setHeader('Content-Type', 'application/javascript; charset=utf-8');
        response.end(readFileSync(STRIPE_JS));
        return;
      }
      const text = request.method === 'GET' ? url.search.slice(1) : await readBody(request);
      const params = parseStripeForm(text);
      const key = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '') || params.key;
      const publicCall = key === this.publishableKey;
      if (key !== this.secretKey && !publicCall)
        throw new StripeHttpError(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      const idempotencyKey = request.headers['idempotency-key'];
      const cacheKey =
        typeof idempotencyKey === 'string' ? `${request.method} ${url.pathname} ${idempotencyKey}` : null;
      const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
      if (cached) {
        sendJson(response, cached.status, cached.body);
        return;
      }
      const body = this.route(request.method ?? 'GET', url.pathname, params, publicCall);
      if (cacheKey) this.idempotent.set(cacheKey, { status: 200, body });
      sendJson(response, 200, body);
    } catch (error) {
      if (error instanceof StripeHttpError) sendJson(response, error.status, error.body);
      else sendJson(response, 500, { error: { type: 'api_error', message: String(error) } });
    }
  }

  private route(method: string, path: string, p: Json, publicCall: boolean): Json {
    const expand: string[] = p.expand ?? [];
    type Route = [string, RegExp, (m: RegExpMatchArray) => Json];
    // Stripe.js's calls: confirming an intent, its 3D Secure step, reading it back; each needs the client secret.
    const publicRoutes: Route[] = [
      [
        'POST',
        /^\/v1\/(?:payment|setup)_intents\/([^/]+)\/confirm$/,
        (m) => this.publicView(this.confirmFromPage(this.withSecret(m[1]!, p.client_secret), p)),
      ],
      [
        'POST',
        /^\/standin\/3ds\/([^/]+)$/,
        (m) =>
          this.publicView(
            this.authenticate(this.withSecret(m[1]!, p.client_secret), p.outcome === 'complete'),
          ),
      ],
      [
        'GET',
        /^\/v1\/(?:payment|setup)_intents\/([^/]+)$/,
        (m) => this.publicView(this.withSecret(m[1]!, p.client_secret)),
      ],
    ];
    const secretRoutes: Route[] = [
      ['POST', /^\/v1\/customers$/, () => this.createCustomer(p)],
      [
        'GET',
        /^\/v1\/(?:customers|invoices|payment_intents|setup_intents|payment_methods|products)\/([^/]+)$/,
        (m) => this.render(this.get(m[1]!), expand),
      ],
      ['POST', /^\/v1\/products$/, () => this.createProduct(p)],
      ['POST', /^\/v1\/subscriptions$/, () => this.render(this.createSubscription(p), expand)],
      ['GET', /^\/v1\/subscriptions$/, () => this.listSubscriptions(p)],
      ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (m) => this.render(this.get(m[1]!), expand)],
      [
        'POST',
        /^\/v1\/subscriptions\/([^/]+)$/,
        (m) => this.render(this.updateSubscription(this.get(m[1]!), p), expand),
      ],
      ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (m) => this.render(this.cancel(this.get(m[1]!)), expand)],
      [
        'POST',
        /^\/v1\/invoices\/([^/]+)\/pay$/,
        (m) => this.render(this.payInvoice(this.get(m[1]!), p), expand),
      ],
      ['POST', /^\/v1\/payment_intents$/, () => this.render(this.createPaymentIntent(p), expand)],
    ];
    for (const [verb, pattern, run] of publicCall ? publicRoutes : secretRoutes) {
      const match = verb === method ? path.match(pattern) : null;
      if (match) return run(match);
    }
    if (publicCall)
      throw new StripeHttpError(401, {
        error: { type: 'invalid_request_error', message: 'This call needs a secret key' },
      });
    throw new StripeHttpError(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` },
    });
  }

  // ---- objects --------------------------------------------------------------------------------------------------

  private id(prefix: string): string {
    return `${prefix}_${randomBytes(10).toString('hex')}`;
  }

  private put<T extends Json>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  /** An object as the API shows it: internal fields (`_x`) dropped, includable fields only when expanded. */
  private view(object: Json, include: string[] = []): Json {
    const out: Json = {};
    for (const [key, value] of Object.entries(object))
      if (!key.startsWith('_')) out[key] = structuredClone(value);
    if (object.object === 'invoice') {
      const intent = object._paymentIntent ? this.objects.get(object._paymentIntent) : null;
      if (include.includes('payments'))
        out.payments = {
          object: 'list',
          data: intent
            ? [
                {
                  object: 'invoice_payment',
                  status: intent.status === 'succeeded' ? 'paid' : 'open',
                  payment: { type: 'payment_intent', payment_intent: intent.id },
                },
              ]
            : [],
        };
      if (include.includes('confirmation_secret'))
        out.confirmation_secret = intent
          ? { type: 'payment_intent', client_secret: intent.client_secret }
          : null;
    }
    return out;
  }

  private render(object: Json, expand: string[]): Json {
    const top = expand.filter((e) => !e.includes('.'));
    const out = this.view(object, top);
    for (const path of expand) this.expandPath(out, path.split('.'));
    return out;
  }

  private expandPath(node: Json, parts: string[]): void {
    if (!node || typeof node !== 'object' || parts.length === 0) return;
    const [head, ...rest] = parts as [string, ...string[]];
    if (head === 'data' && Array.isArray(node.data)) {
      for (const entry of node.data) this.expandPath(entry, rest);
      return;
    }
    let value = node[head];
    if (typeof value === 'string' && this.objects.has(value)) {
      value = this.view(this.objects.get(value));
      node[head] = value;
    }
    const [next] = rest;
    if (next && value?.object === 'invoice' && value[next] === undefined && this.objects.has(value.id))
      value[next] = this.view(this.objects.get(value.id), [next])[next];
    if (rest.length) this.expandPath(value, rest);
  }

  private publicView(intent: Json): Json {
    const out = this.view(intent);
    delete out.customer;
    delete out.metadata;
    return out;
  }

  private withSecret(id: string, clientSecret: unknown): Json {
    const intent = this.objects.get(id);
    if (!intent || intent.client_secret !== clientSecret)
      throw invalidRequest(
        'The client_secret provided does not match any associated PaymentIntent',
        'resource_missing',
      );
    return intent;
  }

  private createCustomer(p: Json): Json {
    return this.put({
      id: this.id('cus'),
      object: 'customer',
      created: this.now(),
      email: p.email ?? null,
      name: p.name ?? null,
      address: p.address ?? null,
      metadata: p.metadata || {},
      invoice_settings: { default_payment_method: null },
      livemode: false,
    });
  }

  private createProduct(p: Json): Json {
    const id = p.id ?? this.id('prod');
    if (this.objects.has(id)) throw invalidRequest(`Product already exists.`, 'resource_already_exists');
    return this.put({
      id,
      object: 'product',
      name: p.name,
      active: true,
      created: this.now(),
      metadata: p.metadata || {},
    });
  }

  private createPrice(data: Json): Json {
    if (!data?.product || !this.objects.has(data.product)) throw missing(String(data?.product));
    return this.put({
      id: this.id('price'),
      object: 'price',
      currency: data.currency,
      unit_amount: Number(data.unit_amount),
      product: data.product,
      type: 'recurring',
      recurring: {
        interval: data.recurring.interval,
        interval_count: Number(data.recurring.interval_count ?? 1),
      },
    });
  }

  private createSubscription(p: Json): Json {
    const customer = this.get(p.customer);
    const price = this.createPrice(p.items?.[0]?.price_data);
    const now = this.now();
    const trialDays = Number(p.trial_period_days ?? 0);
    const trialEnd = trialDays > 0 ? now + trialDays * 86_400 : null;
    const sub = this.put({
      id: this.id('sub'),
      object: 'subscription',
      created: now,
      customer: customer.id,
      description: p.description ?? null,
      status: trialEnd ? 'trialing' : 'incomplete',
      metadata: p.metadata || {},
      items: {
        object: 'list',
        data: [
          {
            id: this.id('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            current_period_start: now,
            current_period_end: trialEnd ?? addInterval(now, price.recurring),
          },
        ],
      },
      cancel_at_period_end: false,
      canceled_at: null,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      default_payment_method: null,
      pending_setup_intent: null,
      latest_invoice: null,
      payment_settings: p.payment_settings ?? null,
    });
    const item = sub.items.data[0];
    const invoice = this.createInvoice(sub, 'subscription_create', [
      {
        amount: trialEnd ? 0 : price.unit_amount,
        description: sub.description,
        start: now,
        end: item.current_period_end,
      },
    ]);
    this.emit('customer.subscription.created', sub);
    if (trialEnd) {
      this.markPaid(invoice, null);
      sub.pending_setup_intent = this.put({
        id: this.id('seti'),
        object: 'setup_intent',
        status: 'requires_payment_method',
        customer: customer.id,
        payment_method: null,
        usage: 'off_session',
        last_setup_error: null,
        next_action: null,
        _subscription: sub.id,
      }).id;
      const setup = this.get(sub.pending_setup_intent);
      setup.client_secret = `${setup.id}_secret_${randomBytes(12).toString('hex')}`;
    }
    return sub;
  }

  private listSubscriptions(p: Json): Json {
    const all = [...this.objects.values()]
      .filter((o) => o.object === 'subscription' && (!p.customer || o.customer === p.customer))
      .filter((o) => !p.status || p.status === 'all' || o.status === p.status)
      .reverse()
      .slice(0, Number(p.limit ?? 10));
    return this.render(
      { object: 'list', data: all.map((s) => this.view(s)), has_more: false },
      p.expand ?? [],
    );
  }

  private updateSubscription(sub: Json, p: Json): Json {
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
    if (p.metadata && typeof p.metadata === 'object')
      for (const [k, v] of Object.entries(p.metadata)) {
        if (v === '') delete sub.metadata[k];
        else sub.metadata[k] = v;
      }
    const change = p.items?.[0];
    if (change?.price_data) {
      const item = sub.items.data.find((i: Json) => i.id === change.id) ?? sub.items.data[0];
      const old = item.price;
      const price = this.createPrice(change.price_data);
      const now = this.now();
      const sameCycle =
        old.recurring.interval === price.recurring.interval &&
        old.recurring.interval_count === price.recurring.interval_count;
      const unused =
        Math.max(0, item.current_period_end - now) / (item.current_period_end - item.current_period_start);
      item.price = price;
      const lines: Json[] = [];
      if (sameCycle) {
        if (p.proration_behavior === 'always_invoice')
          lines.push({
            amount: Math.round((price.unit_amount - old.unit_amount) * unused),
            description: `Remaining time on ${sub.description ?? 'the new plan'}`,
            start: now,
            end: item.current_period_end,
          });
      } else {
        // A new interval starts a new cycle now: the new price in full, less the unused time when prorating.
        item.current_period_start = now;
        item.current_period_end = addInterval(now, price.recurring);
        lines.push({
          amount: price.unit_amount,
          description: sub.description,
          start: now,
          end: item.current_period_end,
        });
        if (p.proration_behavior !== 'none')
          lines.push({
            amount: -Math.round(old.unit_amount * unused),
            description: 'Unused time',
            start: now,
            end: now,
          });
      }
      if (lines.length && sub.status !== 'trialing') {
        const invoice = this.createInvoice(sub, 'subscription_update', lines);
        if (invoice.amount_due > 0) this.payOffSession(invoice);
        else this.markPaid(invoice, null);
      }
    }
    this.emit('customer.subscription.updated', sub);
    return sub;
  }

  private cancel(sub: Json): Json {
    sub.status = 'canceled';
    sub.canceled_at = this.now();
    this.emit('customer.subscription.deleted', sub);
    return sub;
  }

  private createInvoice(
    sub: Json,
    reason: string,
    lines: { amount: number; description: string | null; start: number; end: number }[],
  ): Json {
    const price = sub.items.data[0].price;
    const total = Math.max(
      0,
      lines.reduce((sum, l) => sum + l.amount, 0),
    );
    const invoice = this.put({
      id: this.id('in'),
      object: 'invoice',
      created: this.now(),
      customer: sub.customer,
      currency: price.currency,
      status: 'open',
      billing_reason: reason,
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      period_start: Math.min(...lines.map((l) => l.start)),
      period_end: Math.max(...lines.map((l) => l.end)),
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      lines: {
        object: 'list',
        has_more: false,
        data: lines.map((l) => ({
          id: this.id('il'),
          object: 'line_item',
          amount: l.amount,
          currency: price.currency,
          description: l.description,
          period: { start: l.start, end: l.end },
        })),
      },
      _paymentIntent: null,
    });
    sub.latest_invoice = invoice.id;
    if (total > 0) {
      const customer = this.get(sub.customer);
      invoice._paymentIntent = this.createPaymentIntent({
        amount: String(total),
        currency: price.currency,
        customer: sub.customer,
        description: `Invoice ${invoice.id}`,
        payment_method:
          sub.default_payment_method ?? customer.invoice_settings.default_payment_method ?? undefined,
      }).id;
      this.get(invoice._paymentIntent)._invoice = invoice.id;
    }
    return invoice;
  }

  private createPaymentIntent(p: Json): Json {
    const id = this.id('pi');
    return this.put({
      id,
      object: 'payment_intent',
      created: this.now(),
      amount: Number(p.amount),
      currency: String(p.currency).toLowerCase(),
      customer: p.customer ?? null,
      description: p.description ?? null,
      receipt_email: p.receipt_email ?? null,
      metadata: p.metadata || {},
      confirmation_method: p.confirmation_method ?? 'automatic',
      payment_method: p.payment_method ?? null,
      status: p.payment_method ? 'requires_confirmation' : 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      last_payment_error: null,
      next_action: null,
      _invoice: null,
      _authenticated: false,
    });
  }

  // ---- paying ---------------------------------------------------------------------------------------------------

  /** The card the page sent (as Stripe.js sends payment_method_data), checked as Stripe checks it. */
  private paymentMethodFrom(p: Json, customer: string | null): Json {
    if (typeof p.payment_method === 'string') return this.get(p.payment_method);
    const card = p.payment_method_data?.card ?? {};
    const number = String(card.number ?? '').replace(/\s+/g, '');
    if (!luhnValid(number))
      throw new StripeHttpError(402, {
        error: {
          type: 'card_error',
          code: 'incorrect_number',
          message: 'Your card number is incorrect.',
          param: 'number',
        },
      });
    const month = Number(card.exp_month);
    let year = Number(card.exp_year);
    if (year < 100) year += 2000;
    const now = new Date(this.now() * 1000);
    if (
      !(month >= 1 && month <= 12) ||
      year < now.getUTCFullYear() ||
      (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
    )
      throw new StripeHttpError(402, {
        error: {
          type: 'card_error',
          code: 'expired_card',
          message: 'Your card has expired.',
          param: 'exp_month',
        },
      });
    if (!/^\d{3,4}$/.test(String(card.cvc ?? '')))
      throw new StripeHttpError(402, {
        error: {
          type: 'card_error',
          code: 'incorrect_cvc',
          message: "Your card's security code is incorrect.",
          param: 'cvc',
        },
      });
    return this.put({
      id: this.id('pm'),
      object: 'payment_method',
      type: 'card',
      created: this.now(),
      customer,
      billing_details: p.payment_method_data?.billing_details ?? {},
      card: {
        brand: number.startsWith('4')
          ? 'visa'
          : number.startsWith('5')
            ? 'mastercard'
            : number.startsWith('3')
              ? 'amex'
              : 'unknown',
        last4: number.slice(-4),
        exp_month: month,
        exp_year: year,
        funding: 'credit',
        country: 'US',
      },
      _behaviour: behaviourOf(number),
    });
  }

  private confirmFromPage(intent: Json, p: Json): Json {
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw invalidRequest(
        `This ${intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'} has already ${intent.status}.`,
        `${intent.object}_unexpected_state`,
      );
    const method = this.paymentMethodFrom(p, intent.customer);
    intent.payment_method = method.id;
    if (intent.object === 'setup_intent') {
      if (method._behaviour === 'sca') return this.needsAction(intent);
      return this.setupSucceeded(intent);
    }
    if (method._behaviour === 'sca' && !intent._authenticated) return this.needsAction(intent);
    return this.charge(intent);
  }

  private needsAction(intent: Json): Json {
    intent.status = 'requires_action';
    intent.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${this.url}/standin/3ds/${intent.id}` },
    };
    if (intent._invoice) this.emit('invoice.payment_action_required', this.get(intent._invoice));
    return intent;
  }

  private authenticate(intent: Json, passed: boolean): Json {
    if (intent.status !== 'requires_action')
      throw invalidRequest('Nothing to authenticate', `${intent.object}_unexpected_state`);
    intent.next_action = null;
    if (!passed) {
      intent.status = 'requires_payment_method';
      if (intent.object === 'setup_intent') intent.last_setup_error = AUTH_FAILED;
      else return this.failed(intent, AUTH_FAILED);
      return intent;
    }
    intent._authenticated = true;
    return intent.object === 'setup_intent' ? this.setupSucceeded(intent) : this.charge(intent);
  }

  private setupSucceeded(setup: Json): Json {
    setup.status = 'succeeded';
    setup.next_action = null;
    setup.last_setup_error = null;
    this.emit('setup_intent.succeeded', setup);
    if (setup._subscription) {
      const sub = this.get(setup._subscription);
      sub.default_payment_method = setup.payment_method;
      sub.pending_setup_intent = null;
      this.emit('customer.subscription.updated', sub);
    }
    return setup;
  }

  /** Charges an intent's card; the customer is on the page (SCA was done or not needed) or away (offSession). */
  private charge(intent: Json, offSession = false): Json {
    const method = intent.payment_method ? this.get(intent.payment_method) : null;
    if (!method) {
      intent.status = 'requires_payment_method';
      return intent;
    }
    const declined = method._behaviour === 'decline' || (offSession && this.failNext);
    if (offSession) this.failNext = false;
    if (declined) return this.failed(intent, { ...DECLINED, payment_method: this.view(method) });
    intent.status = 'succeeded';
    intent.last_payment_error = null;
    intent.next_action = null;
    this.emit('payment_intent.succeeded', intent);
    if (intent._invoice) this.markPaid(this.get(intent._invoice), method.id);
    return intent;
  }

  private failed(intent: Json, error: Json): Json {
    intent.status = 'requires_payment_method';
    intent.last_payment_error = error;
    this.emit('payment_intent.payment_failed', intent);
    if (intent._invoice) {
      const invoice = this.get(intent._invoice);
      const sub = this.get(invoice.parent.subscription_details.subscription);
      if (sub.status === 'active' && invoice.billing_reason !== 'subscription_create') {
        sub.status = 'past_due';
        this.emit('customer.subscription.updated', sub);
      }
      this.emit('invoice.payment_failed', invoice);
    }
    return intent;
  }

  private markPaid(invoice: Json, paymentMethod: string | null): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    const sub = this.get(invoice.parent.subscription_details.subscription);
    if (paymentMethod && sub.payment_settings?.save_default_payment_method === 'on_subscription')
      sub.default_payment_method = paymentMethod;
    this.emit('invoice.paid', invoice);
    if (sub.status === 'incomplete' || sub.status === 'past_due') {
      sub.status = 'active';
      this.emit('customer.subscription.updated', sub);
    }
  }

  /** A charge without the customer: renewals, prorations, invoices.pay. */
  private payOffSession(invoice: Json, paymentMethod?: string): Json {
    const intent = this.get(invoice._paymentIntent);
    const sub = this.get(invoice.parent.subscription_details.subscription);
    const customer = this.get(invoice.customer);
    intent.payment_method =
      paymentMethod ??
      intent.payment_method ??
      sub.default_payment_method ??
      customer.invoice_settings.default_payment_method;
    if (!intent.payment_method)
      return this.failed(intent, {
        type: 'invalid_request_error',
        code: 'payment_method_required',
        message: 'No payment method',
      });
    return this.charge(intent, true);
  }

  private payInvoice(invoice: Json, p: Json): Json {
    if (invoice.status !== 'open') throw invalidRequest('Invoice is already paid', 'invoice_not_open');
    const intent = this.payOffSession(invoice, p.payment_method);
    if (intent.status !== 'succeeded')
      throw new StripeHttpError(402, {
        error: { ...(intent.last_payment_error ?? DECLINED), payment_intent: this.view(intent) },
      });
    return invoice;
  }

  // ---- webhooks -------------------------------------------------------------------------------------------------

  private emit(type: string, object: Json): void {
    const event = {
      id: this.id('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: this.view(object) },
    };
    this.events.push(event);
    void this.deliver(event);
  }

  private deliver(event: Json): Promise<WebhookDelivery> {
    const result = this.queue.then(async () => {
      const payload = JSON.stringify(event, null, 2);
      const delivery: WebhookDelivery = { eventId: event.id, type: event.type, status: 0, body: '' };
      if (!this.webhookUrl) return delivery;
      try {
        const response = await fetch(this.webhookUrl, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'Stripe-Signature': stripeSignature(this.webhookSecret, payload, Math.floor(Date.now() / 1000)),
          },
          body: payload,
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
