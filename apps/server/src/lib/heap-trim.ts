/**
 * Hands the C heap's free memory back to the operating system now and then, with glibc's `malloc_trim(0)`.
 *
 * Every body chunk of an upload is a fresh allocation of up to 64 KiB (Node's HTTP parser copies each one), and V8
 * frees them only when it next collects its young generation: during a large upload 30–45 MB of them pile up in
 * glibc's main heap between two collections. Once freed, glibc gives memory back only from the top of that heap,
 * and one long-lived allocation above the pile keeps all of it: the process stayed 30–45 MB larger after its
 * first large transfer (docs/benchmarks.md). `malloc_trim` releases free pages wherever they are in the heap; the
 * call takes microseconds when there is nothing to release. It waits while bytes stream: pages released then would
 * be faulted in again by the next body chunks.
 *
 * Linux with glibc only (musl and other systems have no such call); elsewhere nothing is trimmed.
 */

/** Releases free C heap memory; true when some was released. */
export type TrimFunction = () => boolean;

/** glibc's malloc_trim through koffi (prebuilt, no compiler needed), or null where there is none. */
export async function loadMallocTrim(): Promise<TrimFunction | null> {
  if (process.platform !== 'linux') return null;
  try {
    // glibc's soname: on musl there is no libc.so.6 and the load throws.
    const { default: koffi } = await import('koffi');
    const libc = koffi.load('libc.so.6');
    const trim = libc.func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => trim(0) === 1;
  } catch {
    return null;
  }
}

/**
 * Calls a trim function every `intervalMs` until stopped, skipping the ticks at which `busy()` says an upload or a
 * download is streaming; the timer never keeps the process alive.
 */
export class HeapTrimmer {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly trim: TrimFunction,
    private readonly intervalMs: number,
    private readonly busy: () => boolean = () => false,
  ) {
    if (!(intervalMs > 0)) throw new RangeError(`trim interval must be positive, got ${intervalMs}`);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.busy()) this.trim();
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
