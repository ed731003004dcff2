import type { Readable } from 'node:stream';

const KiB = 1024;

/**
 * How far ahead each open blob read buffers. One download alone reads 1 MiB at a time (fewer, larger disk reads:
 * the fastest single stream); as more are open at once the read-ahead shrinks so that together they stay near a
 * fixed budget. 500 concurrent downloads at 1 MiB each held ~500 MB of buffers; here, once many are open, each
 * reads 64 KiB at a time (Node's own default), ~32 MiB for 500 — and a chunk in flight to each socket besides.
 */
export class ReadAhead {
  private open = 0;

  constructor(
    private readonly budget = 32 * 1024 * KiB,
    private readonly min = 64 * KiB,
    private readonly max = 1024 * KiB,
  ) {}

  /** Streams open now (for tests and metrics). */
  get active(): number {
    return this.open;
  }

  /** The read-ahead for a stream about to open: the budget shared with those open, a power of two in [min, max]. */
  next(): number {
    const share = this.budget / (this.open + 1);
    let size = this.max;
    while (size > this.min && size > share) size /= 2;
    return size;
  }

  /** Counts `stream` as open until it closes (ends, fails or is destroyed). */
  track<T extends Readable>(stream: T): T {
    this.open++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.open--;
    };
    stream.once('close', release);
    return stream;
  }
}

/** The process's one budget, shared by every local blob store. */
export const readAhead = new ReadAhead();
