import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

const READ_CHUNK = 1024 * 1024;

/** Feeds bytes [0, end) of a file (the whole file without `end`) into a hash, streaming. */
export async function hashFileInto(
  hash: Hash,
  path: string,
  options: { end?: number; signal?: AbortSignal; onBytes?: (bytes: number) => void } = {},
): Promise<number> {
  if (options.end === 0) return 0;
  const stream = createReadStream(path, {
    highWaterMark: READ_CHUNK,
    end: options.end === undefined ? undefined : options.end - 1,
    signal: options.signal,
  });
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
    options.onBytes?.((chunk as Buffer).length);
  }
  return bytes;
}

/** The lowercase hex SHA-256 of a file, computed by streaming it (never held in memory). */
export async function sha256File(
  path: string,
  options: { signal?: AbortSignal; onBytes?: (bytes: number) => void } = {},
): Promise<string> {
  const hash = createHash('sha256');
  await hashFileInto(hash, path, options);
  return hash.digest('hex');
}
