import { STATUS_CODES } from 'node:http';
import { APP_ERROR_STATUS } from '@ferry/core';

export {
  api,
  createTransfer,
  fetchBytes,
  randomFile,
  sendTransfer,
  sha256,
  signedInAccount,
} from '../../apps/server/src/test/flows.js';
export { TusTestClient } from '../../apps/server/src/test/tus-client.js';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

/** One HTTP call with full control over method, headers and raw body. */
export async function raw(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: typeof init.body === 'string' || init.body === undefined ? init.body : new Uint8Array(init.body),
    redirect: 'manual',
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const LIMIT_NAMES = new Set([
  'files',
  'fileValidityInDays',
  'messageLength',
  'recipients',
  'uploadSize',
  'storage',
  'downloadedBytes7Days',
]);

/**
 * What is wrong with an error body against spec §8 / docs/api.md (the coded shape Ferry always answers):
 * `{ status, error, message, codes: [AppErrorCode…], limitErrors?, details? }`, `status` the HTTP status,
 * `error` its reason phrase, every code one whose catalogue status is that status. Null when it is right.
 */
export function errorShapeProblem(body: unknown, httpStatus: number): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body is not a JSON object';
  const b = body as Record<string, unknown>;
  const extra = Object.keys(b).filter(
    (k) => !['status', 'error', 'message', 'codes', 'limitErrors', 'details'].includes(k),
  );
  if (extra.length > 0) return `unexpected keys ${extra.join(', ')}`;
  if (b.status !== httpStatus) return `status ${String(b.status)} in the body, ${httpStatus} on the wire`;
  if (b.error !== STATUS_CODES[httpStatus])
    return `error ${JSON.stringify(b.error)} is not the reason phrase`;
  if (typeof b.message !== 'string' || b.message === '') return 'message is not a non-empty string';
  if (!Array.isArray(b.codes) || b.codes.length === 0) return 'codes is not a non-empty array';
  for (const code of b.codes) {
    const status = APP_ERROR_STATUS[code as keyof typeof APP_ERROR_STATUS];
    if (status === undefined) return `unknown code ${JSON.stringify(code)}`;
    if (status !== httpStatus) return `code ${String(code)} belongs to status ${status}, not ${httpStatus}`;
  }
  if (b.limitErrors !== undefined) {
    if (!Array.isArray(b.limitErrors) || b.limitErrors.length === 0)
      return 'limitErrors is not a non-empty array';
    for (const l of b.limitErrors as Array<Record<string, unknown>>) {
      if (!LIMIT_NAMES.has(String(l?.limit)) || typeof l?.max !== 'number' || typeof l?.actual !== 'number')
        return `bad limit error ${JSON.stringify(l)}`;
    }
    if (!(b.codes as string[]).includes('LIMIT_EXCEEDED')) return 'limitErrors without code LIMIT_EXCEEDED';
  }
  if (
    b.details !== undefined &&
    (typeof b.details !== 'object' || b.details === null || Array.isArray(b.details))
  )
    return 'details is not an object';
  return null;
}

/** Asserts a coded error: the status, the single code, the §8 shape, and a JSON content type. */
export function codedErrorProblem(
  res: { status: number; headers: Headers; body?: unknown; json?: unknown },
  status: number,
  code: string,
) {
  const body = res.body !== undefined ? res.body : res.json;
  if (res.status !== status) return `status ${res.status}, expected ${status}: ${JSON.stringify(body)}`;
  const shape = errorShapeProblem(body, status);
  if (shape) return `${shape}: ${JSON.stringify(body)}`;
  const codes = (body as { codes: string[] }).codes;
  if (codes.length !== 1 || codes[0] !== code) return `codes ${JSON.stringify(codes)}, expected [${code}]`;
  return null;
}

/** Runs `task` over `items` with at most `concurrency` at a time; results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}

/** Counts of each value, for readable assertions over many answers. */
export function tally(values: Iterable<string | number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
