import { formatSize } from '@ferry/core';

/** "0:07", "12:34", "1:02:03"; "--:--" when unknown. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Shortens text to `max` characters with an ellipsis in the middle, keeping both ends readable. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 1) return chars.slice(0, max).join('');
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${tail > 0 ? chars.slice(-tail).join('') : ''}`;
}

/** What one progress line shows. */
export interface ProgressSnapshot {
  label: string;
  done: number;
  total: number;
  /** Measured throughput; null before there is enough to measure. */
  bytesPerSecond: number | null;
}

/**
 * One progress line, at most `columns` wide:
 * `label [#######-------]  42%  1.23 GB / 2.92 GB  12.3 MB/s  ETA 2:17`.
 */
export function formatProgressLine(snapshot: ProgressSnapshot, columns = 80): string {
  const { done, total, bytesPerSecond } = snapshot;
  const fraction = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  // Fixed-width fields, so the bar does not jump about as the numbers change.
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const bytes = `${formatSize(done).padStart(8)} / ${formatSize(total).padEnd(8)}`;
  const speed = (bytesPerSecond === null ? '' : `${formatSize(bytesPerSecond)}/s`).padStart(10);
  const eta =
    bytesPerSecond === null || bytesPerSecond <= 0
      ? 'ETA --:--'
      : `ETA ${formatDuration(Math.max(0, total - done) / bytesPerSecond)}`;
  const width = Math.max(20, columns - 1);
  let stats = `${percent}  ${bytes}  ${speed}  ${eta.padEnd(12)}`;
  if (stats.length > width) stats = `${percent}  ${formatSize(done)}/${formatSize(total)}  ${eta}`;
  let room = width - stats.length - 2;
  const barWidth = room >= 26 ? Math.min(30, room - 16) : room >= 12 ? 10 : 0;
  room -= barWidth > 0 ? barWidth + 3 : 0;
  const label = room >= 4 ? `${shorten(snapshot.label, room).padEnd(room)}  ` : '';
  const filled = Math.round(fraction * barWidth);
  const bar = barWidth > 0 ? `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ` : '';
  return `${label}${bar}${stats}`.slice(0, width);
}

/** Throughput over a sliding window, so the speed (and ETA) follows the current rate. */
export class SpeedMeter {
  private readonly samples: Array<{ at: number; bytes: number }> = [];
  private total = 0;

  constructor(
    private readonly windowMs = 5000,
    private readonly now: () => number = Date.now,
  ) {
    this.samples.push({ at: this.now(), bytes: 0 });
  }

  /** Counts bytes that really went over the network (not a resumed prefix). */
  add(bytes: number): void {
    if (bytes <= 0) return;
    this.total += bytes;
    const at = this.now();
    this.samples.push({ at, bytes: this.total });
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) < at - this.windowMs) this.samples.shift();
  }

  /** Bytes per second over the window; null until at least half a second has passed. */
  rate(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last) return null;
    const elapsed = Math.max(last.at, this.now()) - first.at;
    if (elapsed < 500) return null;
    return ((last.bytes - first.bytes) * 1000) / elapsed;
  }
}

/** Where progress and messages go: stderr, with a bar redrawn in place only on a terminal. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Progress of a run over several files: a bar on a TTY, redrawn at most every 100 ms; on anything else only the
 * concise lines given to {@link log}. Per-file positions are tracked so resumed prefixes and retries do not
 * distort the speed.
 */
export class ProgressReporter {
  private readonly meter: SpeedMeter;
  private readonly positions = new Map<string, number>();
  private done = 0;
  private label = '';
  private lastDraw = 0;
  private drawn = false;
  private total = 0;
  private readonly quiet: boolean;
  private readonly now: () => number;
  readonly live: boolean;

  constructor(
    private readonly out: ProgressOutput,
    options: { quiet?: boolean; now?: () => number } = {},
  ) {
    this.live = out.isTTY === true && !options.quiet;
    this.quiet = options.quiet === true;
    this.now = options.now ?? Date.now;
    this.meter = new SpeedMeter(5000, this.now);
  }

  /** Total bytes of the run. */
  setTotal(total: number): void {
    this.total = total;
  }

  setLabel(label: string): void {
    this.label = label;
    this.draw();
  }

  /**
   * Sets how far one file is. Its first position is taken as already there (a resumed prefix); later increases
   * count towards the speed; decreases (a retry going back to the server's offset) only lower the total.
   */
  update(fileKey: string, position: number): void {
    const previous = this.positions.get(fileKey);
    this.positions.set(fileKey, position);
    this.done += position - (previous ?? 0);
    if (previous !== undefined && position > previous) this.meter.add(position - previous);
    this.draw();
  }

  /** A concise line (on a TTY printed above the bar). Suppressed by --quiet. */
  log(line: string): void {
    if (this.quiet) return;
    this.warn(line);
  }

  /** A line that is shown even with --quiet (warnings). */
  warn(line: string): void {
    this.clear();
    this.out.write(`${line}\n`);
    this.draw(true);
  }

  /** Removes the bar until the next update, e.g. to ask a question on the terminal. */
  clearBar(): void {
    this.clear();
  }

  /** Removes the bar for good. */
  finish(): void {
    this.clear();
    this.lastDraw = Number.POSITIVE_INFINITY;
  }

  snapshot(): ProgressSnapshot {
    return { label: this.label, done: this.done, total: this.total, bytesPerSecond: this.meter.rate() };
  }

  private clear(): void {
    if (this.live && this.drawn) this.out.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(force = false): void {
    if (!this.live) return;
    const at = this.now();
    if (!force && at - this.lastDraw < 100) return;
    if (this.lastDraw === Number.POSITIVE_INFINITY) return;
    this.lastDraw = at;
    this.out.write(`\r\x1b[2K${formatProgressLine(this.snapshot(), this.out.columns || 80)}`);
    this.drawn = true;
  }
}
