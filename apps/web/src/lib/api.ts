import type { AppErrorCode, LimitError } from '@ferry/core';
import { formatSize, formatWait } from './format';

/** Every call goes under this prefix (docs/api.md); the dev server proxies it to the API server. */
export const API_PREFIX = '/api';

/** What a failed call answered, in the three shapes of spec §8: limit, coded, or generic. */
export type ApiErrorKind = 'limit' | 'coded' | 'generic';

interface ApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  /** The reason phrase of the status (`error` in the body). */
  error?: string;
  message: string;
  codes?: string[];
  limitErrors?: LimitError[];
  details?: Record<string, unknown>;
  retryAfterSeconds?: number | null;
}

/** An HTTP error of the API, parsed from its body; branch on `codes`, never on `message`. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly error: string | undefined;
  readonly codes: readonly string[];
  readonly limitErrors: readonly LimitError[];
  readonly details: Record<string, unknown>;
  readonly retryAfterSeconds: number | null;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.error = init.error;
    this.codes = init.codes ?? [];
    this.limitErrors = init.limitErrors ?? [];
    this.details = init.details ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }

  hasCode(code: AppErrorCode): boolean {
    return this.codes.includes(code);
  }
}

/** The request never got an answer (offline, DNS, CORS, aborted). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('network error', { cause });
    this.name = 'NetworkError';
  }
}

export const UNEXPECTED_STATUS = 'unexpected return status';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isLimitError(value: unknown): value is LimitError {
  return isRecord(value) && typeof value.limit === 'string';
}

/**
 * Turns a failed response into an ApiError by spec §8: a body with `limitErrors` is a limit error, one with
 * `codes` a coded error, any other a generic error carrying `message`, `error` or the raw body; no body at all
 * gives 'unexpected return status'.
 */
export function parseApiError(status: number, bodyText: string, retryAfter: string | null = null): ApiError {
  const retryAfterSeconds = parseRetryAfter(retryAfter);
  if (bodyText.trim() === '') {
    return new ApiError({ kind: 'generic', status, message: UNEXPECTED_STATUS, retryAfterSeconds });
  }
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return new ApiError({ kind: 'generic', status, message: bodyText, retryAfterSeconds });
  }
  if (!isRecord(body)) return new ApiError({ kind: 'generic', status, message: bodyText, retryAfterSeconds });
  const error = typeof body.error === 'string' ? body.error : undefined;
  const message = typeof body.message === 'string' ? body.message : (error ?? bodyText);
  const codes = Array.isArray(body.codes) ? body.codes.filter((c): c is string => typeof c === 'string') : [];
  const details = isRecord(body.details) ? body.details : {};
  const common = { status, error, message, codes, details, retryAfterSeconds };
  if (Array.isArray(body.limitErrors)) {
    const limitErrors = body.limitErrors.filter(isLimitError);
    return new ApiError({ ...common, kind: 'limit', limitErrors });
  }
  if (Array.isArray(body.codes)) return new ApiError({ ...common, kind: 'coded' });
  return new ApiError({ ...common, kind: 'generic' });
}

/** A response the CDN's bot protection answered instead of the API (spec §8: the page reloads). */
export function isBotChallenge(response: Pick<Response, 'headers'>): boolean {
  return response.headers.get('cf-mitigated') === 'challenge';
}

export interface ApiRequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended as a query string; undefined, null and '' values are left out (spec §7 "only when set"). */
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Validates the success body (the zod schemas of @ferry/core); or loads the schema first, alongside the call
   * (`lazySchema` of ./schemas.ts): the calls a page makes as it loads do not make it load zod before it draws.
   */
  schema?: Schema<T> | (() => Promise<Schema<T>>);
  signal?: AbortSignal;
}

interface Schema<T> {
  parse(value: unknown): T;
}

export function buildQuery(query: ApiRequestOptions<unknown>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

let onBotChallenge: () => void = () => window.location.reload();

/** Tests replace the reload that a bot challenge triggers. */
export function setBotChallengeHandler(handler: () => void): void {
  onBotChallenge = handler;
}

/** Calls the API under /api and returns the parsed body, or throws ApiError / NetworkError. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  // A schema to load is fetched while the request is on its way.
  const schema = typeof options.schema === 'function' ? options.schema() : options.schema;
  if (schema instanceof Promise) schema.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${path}${buildQuery(options.query)}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    throw new NetworkError(cause);
  }
  if (isBotChallenge(response)) {
    onBotChallenge();
    throw new ApiError({ kind: 'generic', status: response.status, message: 'bot challenge' });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw parseApiError(response.status, text, response.headers.get('Retry-After'));
  let value: unknown = null;
  if (text !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError({ kind: 'generic', status: response.status, message: 'unreadable response body' });
    }
  }
  if (!schema) return value as T;
  let validator: Schema<T>;
  try {
    validator = await schema;
  } catch (cause) {
    // its chunk could not be fetched: as if the answer had not come
    throw new NetworkError(cause);
  }
  try {
    return validator.parse(value);
  } catch {
    throw new ApiError({ kind: 'generic', status: response.status, message: 'unexpected response body' });
  }
}

/** Limits whose numbers are byte counts, shown with formatSize. */
const BYTE_LIMITS: ReadonlySet<LimitError['limit']> = new Set([
  'uploadSize',
  'storage',
  'downloadedBytes7Days',
  'anonymousPendingBytes',
]);

/** The part of an i18next instance that error messages need. */
export interface Translator {
  t(key: string, options?: Record<string, unknown>): string;
  exists(key: string): boolean;
  /** The user's language (i18next's `language`), for numbers and durations; English when absent. */
  language?: string;
}

/** The user's message for one broken limit (`errors:limit.<name>`). */
export function describeLimit(
  limit: LimitError,
  { t, language }: Pick<Translator, 't' | 'language'>,
): string {
  const bytes = BYTE_LIMITS.has(limit.limit);
  const max = bytes ? formatSize(limit.max, language ?? 'en') : String(limit.max);
  const actual = bytes ? formatSize(limit.actual, language ?? 'en') : String(limit.actual);
  return t(`errors:limit.${limit.limit}`, { max, actual });
}

/** Codes whose notice the spec names in another namespace (spec §8). */
const SPEC_CODE_KEYS: Partial<Record<string, string>> = {
  TOO_MANY_DOWNLOADS: 'downloader:too_many_dowloads',
  TOO_MANY_PREVIEWS: 'downloader:notif_too_many_previews',
};

/** One sentence for any error thrown by apiRequest (or anything else), in the user's language. */
export function describeError(error: unknown, i18n: Translator): string {
  const { t } = i18n;
  if (error instanceof NetworkError) return t('errors:network');
  if (!(error instanceof ApiError)) return t('errors:unknown');
  if (error.kind === 'limit' && error.limitErrors.length > 0) {
    return error.limitErrors.map((limit) => describeLimit(limit, i18n)).join(' ');
  }
  for (const code of error.codes) {
    if (code === 'RATE_LIMITED' && error.retryAfterSeconds !== null) {
      return t('errors:rate_limited_wait', {
        time: formatWait(error.retryAfterSeconds, i18n.language ?? 'en'),
      });
    }
    const specKey = SPEC_CODE_KEYS[code];
    if (specKey) return t(specKey);
    const key = `errors:code.${code}`;
    if (i18n.exists(key)) return t(key);
  }
  if (error.status === 429) return t('errors:code.RATE_LIMITED');
  if (error.message === UNEXPECTED_STATUS) return t('errors:unexpected_status', { status: error.status });
  return t('errors:generic', { status: error.status });
}
