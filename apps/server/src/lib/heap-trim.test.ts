import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeapTrimmer, loadMallocTrim } from './heap-trim.js';

describe('C heap trim', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('finds glibc malloc_trim on Linux with glibc, and calling it returns whether memory was released', async () => {
    const onGlibc = Boolean(
      (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
        ?.glibcVersionRuntime,
    );
    const trim = await loadMallocTrim();
    if (process.platform !== 'linux' || !onGlibc) {
      expect(trim).toBeNull();
      return;
    }
    expect(trim).toBeTypeOf('function');
    // Live memory around the call stays as it was.
    const blocks = Array.from({ length: 100 }, (_, i) => Buffer.allocUnsafeSlow(64 * 1024).fill(i));
    expect(typeof trim!()).toBe('boolean');
    expect(blocks.every((block, i) => block[0] === i && block[block.length - 1] === i)).toBe(true);
  });

  it('trims on every interval until stopped', () => {
    vi.useFakeTimers();
    const trim = vi.fn(() => true);
    const trimmer = new HeapTrimmer(trim, 5000);
    trimmer.start();
    trimmer.start(); // a second start keeps one timer
    vi.advanceTimersByTime(4999);
    expect(trim).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(trim).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(trim).toHaveBeenCalledTimes(3);
    trimmer.stop();
    vi.advanceTimersByTime(60_000);
    expect(trim).toHaveBeenCalledTimes(3);
  });

  it('skips the ticks at which bytes are streaming and trims at the next quiet one', () => {
    vi.useFakeTimers();
    const trim = vi.fn(() => true);
    let streaming = 2;
    const trimmer = new HeapTrimmer(trim, 5000, () => streaming > 0);
    trimmer.start();
    vi.advanceTimersByTime(15_000);
    expect(trim).toHaveBeenCalledTimes(0);
    streaming = 0;
    vi.advanceTimersByTime(5000);
    expect(trim).toHaveBeenCalledTimes(1);
    trimmer.stop();
  });

  it('refuses an interval that is not positive', () => {
    expect(() => new HeapTrimmer(() => false, 0)).toThrow(RangeError);
  });
});
