/**
 * Upload speed smoothed by an exponential moving average over time, so the number shown does not jump with
 * every chunk, and a stall pulls it down instead of freezing it. Samples closer together than
 * `minIntervalMs` are merged into the next one.
 */
export class SpeedEstimator {
  private last: { at: number; bytes: number } | null = null;
  private rate: number | null = null;

  constructor(
    private readonly halfLifeMs = 3000,
    private readonly minIntervalMs = 500,
  ) {}

  /** Records the total bytes sent so far at time `at` (ms). */
  sample(bytes: number, at: number): void {
    if (this.last === null) {
      this.last = { at, bytes };
      return;
    }
    const elapsed = at - this.last.at;
    if (elapsed < this.minIntervalMs) return;
    // Bytes going down means a file restarted from an earlier offset: count no progress, start again from here.
    const instant = Math.max(0, bytes - this.last.bytes) / (elapsed / 1000);
    const weight = 1 - 0.5 ** (elapsed / this.halfLifeMs);
    this.rate = this.rate === null ? instant : this.rate + weight * (instant - this.rate);
    this.last = { at, bytes };
  }

  /** Forgets history, e.g. on pause, so the paused time does not drag the speed down after resuming. */
  reset(): void {
    this.last = null;
    this.rate = null;
  }

  /** Smoothed bytes per second, or null before two samples. */
  bytesPerSecond(): number | null {
    return this.rate;
  }

  /** Seconds to send `remainingBytes` at the smoothed speed; null while unknown or stalled. */
  secondsLeft(remainingBytes: number): number | null {
    if (remainingBytes <= 0) return 0;
    if (this.rate === null || this.rate < 1) return null;
    return remainingBytes / this.rate;
  }
}
