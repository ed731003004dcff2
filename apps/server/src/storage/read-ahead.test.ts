import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ReadAhead } from './read-ahead.js';

const KiB = 1024;

describe('ReadAhead', () => {
  it('gives one stream 1 MiB, and shrinks by halves as more are open, never below the minimum', () => {
    const ahead = new ReadAhead(64 * 1024 * KiB, 128 * KiB, 1024 * KiB);
    expect(ahead.next()).toBe(1024 * KiB);
    const streams: PassThrough[] = [];
    const sizes = new Map<number, number>();
    for (let i = 0; i < 600; i++) {
      sizes.set(i, ahead.next());
      streams.push(ahead.track(new PassThrough()));
    }
    expect(sizes.get(0)).toBe(1024 * KiB);
    expect(sizes.get(63)).toBe(1024 * KiB); // 64 open share 64 MiB
    expect(sizes.get(64)).toBe(512 * KiB);
    expect(sizes.get(200)).toBe(256 * KiB);
    expect(sizes.get(599)).toBe(128 * KiB);
    // Each stream gets at most its share of the budget with those already open (or the minimum).
    for (const [open, size] of sizes)
      expect(size).toBeLessThanOrEqual(Math.max(128 * KiB, (64 * 1024 * KiB) / (open + 1)));
    expect(ahead.active).toBe(600);
    for (const s of streams) s.destroy();
  });

  it('by default: 1 MiB alone, 64 KiB (Node’s own default) each once hundreds are open', () => {
    const ahead = new ReadAhead();
    expect(ahead.next()).toBe(1024 * KiB);
    const streams = Array.from({ length: 500 }, () => ahead.track(new PassThrough()));
    expect(ahead.next()).toBe(64 * KiB);
    for (const s of streams) s.destroy();
  });

  it('forgets a stream once it closes, whether it ended, failed or was destroyed, and only once', async () => {
    const ahead = new ReadAhead();
    const ended = ahead.track(new PassThrough());
    const failed = ahead.track(new PassThrough());
    const destroyed = ahead.track(new PassThrough());
    expect(ahead.active).toBe(3);
    ended.resume();
    ended.end();
    failed.on('error', () => undefined);
    failed.destroy(new Error('disk went away'));
    destroyed.destroy();
    destroyed.destroy();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(ahead.active).toBe(0);
    expect(ahead.next()).toBe(1024 * KiB);
  });
});
