import type { BillingConfig } from './config.js';

export type PayPalSettings = NonNullable<BillingConfig['paypal']>;

/** A PayPal REST answer that was not 2xx: its status and PayPal's error name (UNPROCESSABLE_ENTITY, …). */
export class PayPalApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    readonly issue: string | null,
    message: string,
  ) {
    super(message);
  }
}

interface Link {
  href: string;
  rel: string;
  method?: string;
}

/** The href of a HATEOAS link (`approve`, `payer-action`…), or null. */
export function linkOf(body: { links?: Link[] } | null | undefined, ...rels: string[]): string | null {
  return body?.links?.find((l) => rels.includes(l.rel))?.href ?? null;
}

/**
 * PayPal's REST API over fetch: OAuth2 client credentials on PAYPAL_API_BASE (the token kept until shortly before it
 * expires), JSON in and out, PayPal-Request-Id for the calls that must not happen twice.
 */
export class PayPalClient {
  private token: { value: string; until: number } | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(
    private readonly settings: PayPalSettings,
    private readonly timeoutMs = 30_000,
  ) {}

  async request<T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    options: { requestId?: string; retryOnAuth?: boolean } = {},
  ): Promise<T> {
    const token = await this.accessToken();
    const response = await fetch(`${this.settings.apiBase}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(options.requestId ? { 'PayPal-Request-Id': options.requestId } : {}),
        Prefer: 'return=representation',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (response.status === 401 && options.retryOnAuth !== false) {
      this.token = null;
      return this.request(method, path, body, { ...options, retryOnAuth: false });
    }
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok)
      throw new PayPalApiError(
        response.status,
        json.name ?? 'ERROR',
        json.details?.[0]?.issue ?? null,
        `PayPal ${method} ${path}: ${response.status} ${json.name ?? ''} ${json.message ?? ''}`.trim(),
      );
    return json as T;
  }

  private accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return Promise.resolve(this.token.value);
    if (!this.pendingToken)
      this.pendingToken = this.fetchToken().finally(() => {
        this.pendingToken = null;
      });
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString('base64');
    const response = await fetch(`${this.settings.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const json = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!response.ok || !json.access_token)
      throw new PayPalApiError(
        response.status,
        'AUTHENTICATION_FAILURE',
        null,
        'PayPal refused the client credentials',
      );
    const seconds = json.expires_in ?? 300;
    this.token = { value: json.access_token, until: Date.now() + Math.max(30, seconds - 60) * 1000 };
    return json.access_token;
  }
}

/** Minor units → PayPal's decimal string (EUR, USD, GBP have two decimals). */
export const paypalAmount = (minor: number): string => (minor / 100).toFixed(2);

/** PayPal's decimal string → minor units. */
export const minorUnits = (value: string | number | undefined): number =>
  Math.round(Number(value ?? 0) * 100);
