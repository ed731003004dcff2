import { describe, expect, it } from 'vitest';
import { formatDuration, formatProgressLine, ProgressReporter, SpeedMeter, shorten } from './progress.js';

describe('formatDuration', () => {
  it('formats m:ss and h:mm:ss, and --:-- when unknown', () => {
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('--:--');
    expect(formatDuration(-1)).toBe('--:--');
  });
});

describe('shorten', () => {
  it('cuts in the middle with an ellipsis', () => {
    expect(shorten('photos/2024/holiday/beach.jpg', 15)).toBe('photos/…ach.jpg');
    expect(shorten('short.txt', 15)).toBe('short.txt');
  });
});

describe('formatProgressLine', () => {
  it('shows percent, bytes, speed and ETA', () => {
    const line = formatProgressLine(
      { label: 'big.bin', done: 500_000_000, total: 2_000_000_000, bytesPerSecond: 50_000_000 },
      100,
    );
    expect(line).toContain(' 25%');
    expect(line).toContain('500 MB / 2.00 GB');
    expect(line).toContain('50.0 MB/s');
    expect(line).toContain('ETA 0:30');
    expect(line).toMatch(/^big\.bin\s+\[#+-+\]/);
    expect(line.length).toBeLessThanOrEqual(99);
  });

  it('shows an unknown ETA before the speed is known, and fits a narrow terminal', () => {
    const line = formatProgressLine(
      { label: 'a-very-long-file-name.bin', done: 0, total: 10, bytesPerSecond: null },
      40,
    );
    expect(line).toContain('ETA --:--');
    expect(line).toContain('  0%');
    expect(line.length).toBeLessThanOrEqual(39);
  });

  it('shows 100% for an empty total', () => {
    expect(formatProgressLine({ label: '', done: 0, total: 0, bytesPerSecond: null }, 80)).toContain('100%');
  });
});

describe('SpeedMeter', () => {
  it('measures over a sliding window', () => {
    let now = 0;
    const meter = new SpeedMeter(5000, () => now);
    expect(meter.rate()).toBeNull();
    for (let i = 0; i < 10; i++) {
      now += 1000;
      meter.add(1_000_000);
    }
    expect(meter.rate()).toBeCloseTo(1_000_000, -3);
    for (let i = 0; i < 10; i++) {
      now += 1000;
      meter.add(4_000_000);
    }
    expect(meter.rate()).toBeCloseTo(4_000_000, -4);
  });
});

describe('ProgressReporter', () => {
  const capture = (isTTY: boolean) => {
    const chunks: string[] = [];
    return { chunks, out: { isTTY, columns: 80, write: (s: string) => chunks.push(s) } };
  };

  it('does not count a resumed prefix as speed', () => {
    let now = 0;
    const { out } = capture(true);
    const ui = new ProgressReporter(out, { now: () => now });
    ui.setTotal(1000);
    ui.update('f', 600); // where the server already was
    now = 1000;
    ui.update('f', 700);
    expect(ui.snapshot().done).toBe(700);
    expect(ui.snapshot().bytesPerSecond).toBeCloseTo(100);
  });

  it('goes back on a retry without counting a negative speed', () => {
    const { out } = capture(false);
    const ui = new ProgressReporter(out);
    ui.setTotal(100);
    ui.update('f', 0);
    ui.update('f', 80);
    ui.update('f', 50);
    expect(ui.snapshot().done).toBe(50);
  });

  it('redraws one line in place on a TTY and clears it before a message', () => {
    const { chunks, out } = capture(true);
    const ui = new ProgressReporter(out);
    ui.setTotal(100);
    ui.update('f', 10);
    ui.log('hello');
    ui.finish();
    const text = chunks.join('');
    expect(text).toContain('\r\x1b[2K');
    expect(text).toContain('hello\n');
    expect(text.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('prints only the given lines when not a TTY, and nothing but warnings when quiet', () => {
    const plain = capture(false);
    const ui = new ProgressReporter(plain.out);
    ui.setTotal(100);
    ui.update('f', 50);
    ui.log('uploaded f');
    expect(plain.chunks).toEqual(['uploaded f\n']);
    const quiet = capture(true);
    const q = new ProgressReporter(quiet.out, { quiet: true });
    q.update('f', 50);
    q.log('info');
    q.warn('warning');
    expect(quiet.chunks).toEqual(['warning\n']);
  });
});
