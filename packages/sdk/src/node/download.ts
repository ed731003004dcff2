import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { FerryApiError, FerryIntegrityError, parseErrorBody } from '../errors.js';
import { backoffDelay, isNetworkError, sleep } from '../retry.js';
import { hashFileInto, sha256File } from './hash.js';

/** Options of {@link downloadToFile}. */
export interface DownloadOptions {
  /** Absolute URL of the bytes (a `DownloadLinkResponse.url`); it must support `Range`. */
  url: string;
  /** Where to write; a shorter file already there is resumed with `Range`, a complete one only verified. */
  dest: string;
  /** Expected size in bytes, when known. */
  size?: number | null;
  /** Expected lowercase hex SHA-256; on a mismatch the file is removed and a FerryIntegrityError thrown. */
  sha256?: string | null;
  fetch?: typeof fetch;
  /** How long (ms) to keep retrying after the connection breaks without progress. Default 60 s. */
  retryForMs?: number;
  /** Bytes on disk so far (starting with the resumed prefix) and the total when known. */
  onProgress?: (bytesDone: number, bytesTotal: number | null) => void;
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  signal?: AbortSignal;
}

/** What {@link downloadToFile} did. */
export interface DownloadResult {
  path: string;
  size: number;
  sha256: string;
  /** Bytes that were already on disk and kept. */
  resumedFrom: number;
  /** True when the file on disk was already complete and right: nothing was fetched. */
  alreadyComplete: boolean;
}

/** Parses `Content-Range: bytes start-end/total`. */
export function parseContentRange(
  header: string | null,
): { start: number; end: number; total: number | null } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header?.trim() ?? '');
  if (!match) return null;
  return {
    start: Number(match[1]),
    end: Number(match[2]),
    total: match[3] === '*' ? null : Number(match[3]),
  };
}

async function sizeOnDisk(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

class ShortBodyError extends Error {}

function isRetryable(error: unknown): boolean {
  if (error instanceof ShortBodyError) return true;
  if (error instanceof FerryApiError) return [502, 503, 504].includes(error.status);
  // undici ends a body cut off mid-way with `TypeError: terminated`.
  return isNetworkError(error) || (error instanceof Error && error.message === 'terminated');
}

interface State {
  offset: number;
  hash: Hash;
}

/** One request: writes what it gets after `state.offset`; throws to be retried, returns when complete. */
async function fetchOnce(options: DownloadOptions, state: State, fetchImpl: typeof fetch): Promise<void> {
  const expected = options.size ?? null;
  const headers: Record<string, string> = state.offset > 0 ? { range: `bytes=${state.offset}-` } : {};
  const response = await fetchImpl(options.url, { headers, signal: options.signal });
  const range = parseContentRange(response.headers.get('content-range'));
  const badRange = response.status === 416 || (response.status === 206 && range?.start !== state.offset);
  if (badRange && state.offset > 0) {
    // What is on disk does not fit the remote file: start again from zero.
    await response.body?.cancel();
    state.offset = 0;
    state.hash = createHash('sha256');
    return fetchOnce(options, state, fetchImpl);
  }
  if (!response.ok || !response.body) {
    throw parseErrorBody(response.status, await response.text(), response.headers);
  }
  const append = response.status === 206 && state.offset > 0;
  if (!append) {
    state.offset = 0;
    state.hash = createHash('sha256');
  }
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const total = expected ?? range?.total ?? (Number.isFinite(length) ? state.offset + length : null);
  options.onProgress?.(state.offset, total);
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      state.hash.update(chunk);
      state.offset += chunk.length;
      options.onProgress?.(state.offset, total);
      callback(null, chunk);
    },
  });
  const body = Readable.fromWeb(response.body as unknown as NodeReadableStream);
  await pipeline(body, meter, createWriteStream(options.dest, { flags: append ? 'a' : 'w' }), {
    signal: options.signal,
  });
  if (total !== null && state.offset < total)
    throw new ShortBodyError(`${total - state.offset} bytes missing`);
}

/**
 * Streams a URL to a file. A partial file already at `dest` is resumed with `Range` (its bytes are hashed
 * first, so the SHA-256 covers the whole file); a broken connection is retried from what reached the disk.
 */
export async function downloadToFile(options: DownloadOptions): Promise<DownloadResult> {
  const fetchImpl = options.fetch ?? fetch;
  const expected = options.size ?? null;
  const wanted = options.sha256?.toLowerCase() ?? null;
  await mkdir(dirname(options.dest), { recursive: true });
  const existing = await sizeOnDisk(options.dest);
  if (existing !== null && existing === expected) {
    const digest = await sha256File(options.dest, { signal: options.signal });
    if (wanted === null || digest === wanted) {
      options.onProgress?.(existing, expected);
      return {
        path: options.dest,
        size: existing,
        sha256: digest,
        resumedFrom: existing,
        alreadyComplete: true,
      };
    }
  }
  const state: State = { offset: 0, hash: createHash('sha256') };
  if (existing !== null && (expected === null || existing < expected)) {
    state.offset = await hashFileInto(state.hash, options.dest, { end: existing, signal: options.signal });
  }
  const resumedFrom = state.offset;
  const retryForMs = options.retryForMs ?? 60_000;
  let failingSince: number | null = null;
  let attempt = 0;
  for (;;) {
    const before = state.offset;
    try {
      await fetchOnce(options, state, fetchImpl);
      break;
    } catch (error) {
      if (options.signal?.aborted || !isRetryable(error)) throw error;
      const onDisk = (await sizeOnDisk(options.dest)) ?? 0;
      const now = Date.now();
      if (failingSince === null || onDisk > before) {
        failingSince = now;
        attempt = 0;
      }
      const delayMs = backoffDelay(attempt);
      if (now - failingSince + delayMs > retryForMs) throw error;
      options.onRetry?.({ attempt: ++attempt, delayMs, error });
      await sleep(delayMs, options.signal);
      // Bytes hashed but not yet written when the connection broke are re-read from disk.
      state.hash = createHash('sha256');
      const keep = expected === null ? onDisk : Math.min(onDisk, expected);
      state.offset = await hashFileInto(state.hash, options.dest, { end: keep, signal: options.signal });
    }
  }
  const digest = state.hash.digest('hex');
  if (expected !== null && state.offset !== expected) {
    await unlink(options.dest).catch(() => undefined);
    throw new FerryIntegrityError(
      `${options.dest}: got ${state.offset} bytes, expected ${expected}; the file was removed`,
      options.dest,
      String(expected),
      String(state.offset),
    );
  }
  if (wanted !== null && digest !== wanted) {
    await unlink(options.dest).catch(() => undefined);
    throw new FerryIntegrityError(
      `${options.dest}: SHA-256 mismatch (expected ${wanted}, got ${digest}); the file was removed`,
      options.dest,
      wanted,
      digest,
    );
  }
  return { path: options.dest, size: state.offset, sha256: digest, resumedFrom, alreadyComplete: false };
}
