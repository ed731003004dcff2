/** Network error codes after which the server may come back (a restart, a dropped connection). */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Every `code` found on an error, its cause chain and, for an AggregateError, its members. */
export function errorCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 5) return [];
  const codes: string[] = [];
  const e = error as { code?: unknown; cause?: unknown; causingError?: unknown; errors?: unknown };
  if (typeof e.code === 'string') codes.push(e.code);
  codes.push(...errorCodes(e.cause, depth + 1));
  // tus-js-client's DetailedError keeps the underlying error in `causingError`.
  codes.push(...errorCodes(e.causingError, depth + 1));
  if (Array.isArray(e.errors)) for (const inner of e.errors) codes.push(...errorCodes(inner, depth + 1));
  return codes;
}

/** True for a failure of the connection itself, as opposed to an answer from the server. */
export function isNetworkError(error: unknown): boolean {
  if (errorCodes(error).some((c) => TRANSIENT_CODES.has(c))) return true;
  // undici reports every connection failure as `TypeError: fetch failed` with the reason in `cause`.
  return error instanceof TypeError && error.message === 'fetch failed';
}

/** True when the request certainly never reached the server, so even a non-idempotent one may be re-sent. */
export function isConnectionRefused(error: unknown): boolean {
  return errorCodes(error).includes('ECONNREFUSED');
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Delay before retry number `attempt` (0-based): 0.5 s doubling up to 5 s. */
export function backoffDelay(attempt: number): number {
  return Math.min(5000, 500 * 2 ** attempt);
}

/**
 * Delays (ms) for tus-js-client's `retryDelays`: about `totalMs` of waiting in all, growing to 5 s steps, so an
 * upload outlives a server restart. tus resets its attempt counter whenever the upload makes progress.
 */
export function retryDelaysFor(totalMs: number): number[] {
  const delays: number[] = [];
  let sum = 0;
  for (let attempt = 0; sum < totalMs; attempt++) {
    const delay = attempt === 0 ? 0 : backoffDelay(attempt - 1);
    delays.push(delay);
    sum += delay;
  }
  return delays;
}
