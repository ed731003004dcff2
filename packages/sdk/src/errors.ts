import type { LimitError } from '@ferry/core';

/** The three error shapes of spec §8, told apart the way the spec's client tells them apart. */
export type FerryErrorKind = 'limit' | 'coded' | 'generic';

/** An error answered by the Ferry API (spec §8); branch on `codes`, never on `message`. */
export class FerryApiError extends Error {
  override readonly name = 'FerryApiError';
  readonly kind: FerryErrorKind;
  /** HTTP status of the answer. */
  readonly status: number;
  /** Machine codes (`AppErrorCode`), empty for a generic error. */
  readonly codes: readonly string[];
  /** Broken plan limits (code `LIMIT_EXCEEDED`), empty otherwise. */
  readonly limitErrors: readonly LimitError[];
  /** Extra data some codes carry (e.g. `CHECKSUM_MISMATCH` → `files`). */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  /** Seconds to wait, from a `Retry-After` header (429), when the server sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    kind: FerryErrorKind;
    status: number;
    message: string;
    codes?: readonly string[];
    limitErrors?: readonly LimitError[];
    details?: Record<string, unknown>;
    retryAfterSeconds?: number;
  }) {
    super(init.message);
    this.kind = init.kind;
    this.status = init.status;
    this.codes = init.codes ?? [];
    this.limitErrors = init.limitErrors ?? [];
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** True when the server answered with this machine code. */
  has(code: string): boolean {
    return this.codes.includes(code);
  }
}

const UNEXPECTED = 'unexpected return status';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseLimitErrors(value: unknown): LimitError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (e): e is LimitError =>
      isRecord(e) && typeof e.limit === 'string' && typeof e.max === 'number' && typeof e.actual === 'number',
  );
}

function describeLimits(limits: readonly LimitError[]): string {
  return `limit exceeded: ${limits.map((l) => `${l.limit} ${l.actual} > max ${l.max}`).join(', ')}`;
}

/** Parses a `Retry-After` header given in seconds or as an HTTP date. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Turns an error answer into a {@link FerryApiError} by spec §8: with `limitErrors` a limit error, with `codes`
 * a coded error, otherwise a generic error carrying `message`, `error` or the raw body; with no body
 * "unexpected return status".
 */
export function parseErrorBody(
  status: number,
  bodyText: string,
  headers?: { get(name: string): string | null },
): FerryApiError {
  const retryAfterSeconds = parseRetryAfter(headers?.get('retry-after'));
  const text = bodyText.trim();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const base = { status, retryAfterSeconds };
  if (isRecord(body)) {
    const message = typeof body.message === 'string' && body.message !== '' ? body.message : undefined;
    const reason = typeof body.error === 'string' && body.error !== '' ? body.error : undefined;
    const codes = Array.isArray(body.codes)
      ? body.codes.filter((c): c is string => typeof c === 'string')
      : [];
    const details = isRecord(body.details) ? body.details : undefined;
    const limitErrors = parseLimitErrors(body.limitErrors);
    if (Array.isArray(body.limitErrors)) {
      return new FerryApiError({
        ...base,
        kind: 'limit',
        message: message ?? describeLimits(limitErrors),
        codes: codes.length > 0 ? codes : ['LIMIT_EXCEEDED'],
        limitErrors,
        details,
      });
    }
    if (codes.length > 0) {
      return new FerryApiError({
        ...base,
        kind: 'coded',
        message: message ?? reason ?? codes.join(', '),
        codes,
        details,
      });
    }
    return new FerryApiError({ ...base, kind: 'generic', message: message ?? reason ?? text, details });
  }
  if (text !== '' && !text.startsWith('<')) {
    return new FerryApiError({ ...base, kind: 'generic', message: text.slice(0, 500) });
  }
  return new FerryApiError({ ...base, kind: 'generic', message: `${UNEXPECTED} ${status}` });
}

/** An answer that is not an error but does not match the API's schema either (a wrong server, a proxy page). */
export class FerryProtocolError extends Error {
  override readonly name = 'FerryProtocolError';
}

/** A file whose SHA-256 (or size) differs from what the other side computed. */
export class FerryIntegrityError extends Error {
  override readonly name = 'FerryIntegrityError';
  constructor(
    message: string,
    readonly path: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(message);
  }
}
