import { Readable } from 'node:stream';
import type { ZipLayout } from './zip-layout.js';

/** Opens the inclusive byte range [start, end] of a blob; the stream must yield exactly those bytes. */
export type ZipBlobOpener = (
  key: string,
  start: number,
  end: number,
) => Promise<NodeJS.ReadableStream | Readable>;

/** A piece of the requested range: header bytes ready to send, or an inclusive range of one blob. */
type RangePart = { kind: 'bytes'; data: Buffer } | { kind: 'blob'; key: string; start: number; end: number };

/** Shared between the byte generator and the output's destroy hook. */
interface OpenBlobState {
  blob: Readable | null;
  closed: boolean;
}

/**
 * Streams bytes [start, end] (inclusive, as in an HTTP Range header) of a laid-out archive. Blobs are opened one
 * at a time and only for the part of them inside the range, and read with backpressure, so no blob is ever held
 * whole in memory. A blob that fails, or yields more or fewer bytes than asked, errors the output; destroying
 * the output (e.g. the client went away) destroys the blob stream being read.
 *
 * @param start first byte to send, 0 by default.
 * @param end last byte to send, inclusive; the archive's last byte by default.
 * @throws {RangeError} when the range is empty or not inside the archive.
 */
export function streamZipRange(
  layout: ZipLayout,
  openBlob: ZipBlobOpener,
  start = 0,
  end: number = layout.totalSize - 1,
): Readable {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || start > end) {
    throw new RangeError(`invalid ZIP byte range ${start}-${end}`);
  }
  if (end >= layout.totalSize) {
    throw new RangeError(`ZIP byte range ${start}-${end} exceeds archive size ${layout.totalSize}`);
  }
  const state: OpenBlobState = { blob: null, closed: false };
  const chunks = rangeChunks(planRange(layout, start, end), openBlob, state);
  let pulling = false;

  // Readable.from() would do for the happy path, but its destroy waits for the generator to reach a yield,
  // which never happens if a blob stalls; this driver can destroy the blob first to unblock it.
  return new Readable({
    read() {
      if (pulling) return;
      pulling = true;
      void pump(this);
    },
    destroy(error, callback) {
      state.closed = true;
      state.blob?.destroy();
      chunks.return(undefined).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });

  async function pump(output: Readable): Promise<void> {
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) {
          output.push(null);
          return;
        }
        if (!output.push(next.value)) return; // read() is called again once the consumer drains
      }
    } catch (error) {
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    } finally {
      pulling = false;
    }
  }
}

/** Which parts of which segments cover [start, end], with offsets relative to each segment. */
function* planRange(layout: ZipLayout, start: number, end: number): Generator<RangePart> {
  let segmentStart = 0;
  for (const segment of layout.segments) {
    const size = segment.kind === 'bytes' ? segment.data.length : segment.size;
    const segmentEnd = segmentStart + size - 1;
    if (segmentStart > end) return;
    if (size > 0 && segmentEnd >= start) {
      const from = Math.max(start, segmentStart) - segmentStart;
      const to = Math.min(end, segmentEnd) - segmentStart;
      if (segment.kind === 'bytes') yield { kind: 'bytes', data: segment.data.subarray(from, to + 1) };
      else yield { kind: 'blob', key: segment.key, start: from, end: to };
    }
    segmentStart += size;
  }
  if (segmentStart <= end) throw new RangeError('ZIP layout segments are shorter than its totalSize');
}

async function* rangeChunks(
  parts: Iterable<RangePart>,
  openBlob: ZipBlobOpener,
  state: OpenBlobState,
): AsyncGenerator<Buffer, void, undefined> {
  for (const part of parts) {
    if (part.kind === 'bytes') {
      yield part.data;
      continue;
    }
    const opened = await openBlob(part.key, part.start, part.end);
    const blob = opened instanceof Readable ? opened : new Readable().wrap(opened);
    state.blob = blob;
    try {
      // The output may have been destroyed while the blob was being opened.
      if (state.closed) return;
      const expected = part.end - part.start + 1;
      let received = 0;
      for await (const chunk of blob) {
        const data = toBuffer(chunk, part.key);
        received += data.length;
        if (received > expected) {
          throw new Error(`blob ${part.key} yielded more than the ${expected} bytes asked`);
        }
        yield data;
      }
      if (received < expected) {
        throw new Error(`blob ${part.key} ended after ${received} of ${expected} bytes`);
      }
    } finally {
      state.blob = null;
      blob.destroy();
    }
  }
}

function toBuffer(chunk: unknown, key: string): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  // A string chunk means the blob stream was given an encoding, which would already have mangled binary data.
  throw new TypeError(`blob ${key} yielded a non-binary chunk`);
}
