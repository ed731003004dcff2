// The test file: random bytes written in 1 MiB chunks (never held whole in memory), hashed on the way —
// whole and per part, so the parallel-parts uploads can be verified too.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { MiB } from './util.mjs';

/**
 * @typedef {object} Part
 * @property {number} index
 * @property {number} start first byte, inclusive
 * @property {number} end last byte, inclusive
 * @property {number} size
 * @property {string} sha256
 */

/**
 * Byte ranges of `parts` nearly equal parts (the last one takes the remainder).
 * @param {number} size
 * @param {number} parts
 * @returns {Array<Omit<Part, 'sha256'>>}
 */
export function splitRanges(size, parts) {
  const partSize = Math.floor(size / parts);
  return Array.from({ length: parts }, (_, index) => {
    const start = index * partSize;
    const end = index === parts - 1 ? size - 1 : start + partSize - 1;
    return { index, start, end, size: end - start + 1 };
  });
}

/**
 * Writes `size` random bytes to `file`.
 * @param {string} file
 * @param {number} size
 * @param {number} parts
 * @returns {Promise<{ file: string, size: number, sha256: string, parts: Part[] }>}
 */
export async function createTestFile(file, size, parts) {
  const ranges = splitRanges(size, parts);
  const whole = createHash('sha256');
  const partHashes = ranges.map(() => createHash('sha256'));
  const out = createWriteStream(file, { highWaterMark: 4 * MiB });
  const failed = new Promise((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  let written = 0;
  let part = 0;
  while (written < size) {
    const chunk = randomBytes(Math.min(MiB, size - written));
    whole.update(chunk);
    // a chunk may straddle a part boundary
    let offset = 0;
    while (offset < chunk.length) {
      const range = /** @type {Omit<Part, 'sha256'>} */ (ranges[part]);
      const take = Math.min(chunk.length - offset, range.end + 1 - (written + offset));
      partHashes[part]?.update(chunk.subarray(offset, offset + take));
      offset += take;
      if (written + offset > range.end) part++;
    }
    written += chunk.length;
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'close'), failed]);
  return {
    file,
    size,
    sha256: whole.digest('hex'),
    parts: ranges.map((range, i) => ({ ...range, sha256: partHashes[i]?.digest('hex') ?? '' })),
  };
}
