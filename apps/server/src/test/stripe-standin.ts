import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cors,
  type Json,
  parseStripeForm,
  readBody,
  StripeHttpError,
  sendJson,
  stripeSignature,
} from './stripe-standin-http.js';
import { TEST_CARDS } from './stripe-standin-payments.js';
import { StripeSubscriptions } from './stripe-standin-subscriptions.js';

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
export { TEST_CARDS } from './stripe-standin-payments.js';

const STRIPE_JS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stripe-js-standin.js');
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

export class StripeStandin extends StripeSubscriptions {
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  webhookUrl: string | null;
  readonly events: Json[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly idempotent = new Map<string, { status: number; body: Json }>();
  private server!: Server;

  private constructor(options: StripeStandinOptions) {
    super();
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

  // ---- paying ---------------------------------------------------------------------------------------------------

  // ---- webhooks -------------------------------------------------------------------------------------------------

  protected emit(type: string, object: Json): void {
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
