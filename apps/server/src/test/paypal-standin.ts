// @peculiar/x509's dependency injection needs the Reflect metadata API, loaded before it.
import 'reflect-metadata';
import { KeyObject, randomBytes, sign, webcrypto } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from '@node-rs/crc32';
import * as x509 from '@peculiar/x509';
import { HttpError, type Json, notFound, PayPalObjects } from './paypal-standin-objects.js';

/*
 * A stand-in for the part of PayPal's REST API Ferry uses: OAuth2 client credentials, catalog products, billing
 * plans, subscriptions (create, read, revise, suspend, activate, cancel, capture) and checkout orders (create,
 * read, capture), state in memory. It sends webhooks to `webhookUrl` signed as PayPal signs them: SHA256withRSA over
 * `<transmission id>|<time>|<webhook id>|<crc32 of the body>`, with a key pair and a self-signed certificate made at
 * start and served under /certs/ (Ferry's PAYPAL_CERT_URL_PREFIX). The buyer's side is a control:
 * approveSubscription(id), approveOrder(id); and renewNow(id), failNextRenewal().
 */

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

export class PayPalStandin extends PayPalObjects {
  readonly clientId = `standin-client-${randomBytes(6).toString('hex')}`;
  readonly clientSecret = randomBytes(16).toString('hex');
  readonly webhookId = `WH-ID-${randomBytes(6).toString('hex').toUpperCase()}`;
  webhookUrl: string | null = null;
  readonly events: Json[] = [];
  readonly deliveries: PayPalWebhookDelivery[] = [];
  /** How many times each token was asked (the client should keep its token). */
  tokenRequests = 0;
  private readonly tokens = new Set<string>();
  private readonly byRequestId = new Map<string, Json>();
  private queue: Promise<void> = Promise.resolve();
  private server!: Server;
  private certificate!: { pem: string; privateKey: KeyObject };

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

  // ---- webhooks -------------------------------------------------------------------------------------------------

  protected emit(type: string, resourceType: string, resource: Json): void {
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
