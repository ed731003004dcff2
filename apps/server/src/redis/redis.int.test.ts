import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisLocker } from './redis-locker.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

// Redis runs on every development and CI machine; without it this suite fails rather than skips.
const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const clients: Redis[] = [];
const connect = () => {
  const c = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  clients.push(c);
  return c;
};
const prefix = `ferry-test-${process.pid}-${Date.now()}:`;

afterAll(async () => {
  const c = connect();
  const keys = await c.keys(`${prefix}*`);
  if (keys.length) await c.del(...keys);
  for (const client of clients) client.disconnect();
});

describe('RedisRateLimiter', () => {
  it('allows the limit, refuses the next with a retry time, and shares the count between instances', async () => {
    const a = new RedisRateLimiter(connect(), prefix);
    const b = new RedisRateLimiter(connect(), prefix);
    const results = [];
    for (let i = 0; i < 3; i++) results.push((await a.hit('k', 4, 60)).allowed);
    results.push((await b.hit('k', 4, 60)).allowed);
    const fifth = await b.hit('k', 4, 60);
    expect(results).toEqual([true, true, true, true]);
    expect(fifth.allowed).toBe(false);
    expect(fifth.retryAfterSeconds).toBeGreaterThan(50);
    await a.reset('k');
    expect((await b.hit('k', 4, 60)).allowed).toBe(true);
  });

  it('counts exactly under concurrency', async () => {
    const limiter = new RedisRateLimiter(connect(), prefix);
    const hits = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('race', 10, 60)));
    expect(hits.filter((h) => h.allowed)).toHaveLength(10);
  });
});

describe('RedisLocker', () => {
  it('gives a lock to one holder at a time across instances and asks the holder to release', async () => {
    const one = new RedisLocker(connect(), connect(), {}, prefix);
    const two = new RedisLocker(connect(), connect(), {}, prefix);
    const first = one.newLock('upload-1');
    let releaseAsked = 0;
    await first.lock(new AbortController().signal, () => {
      releaseAsked++;
      setTimeout(() => void first.unlock(), 50);
    });
    const second = two.newLock('upload-1');
    const started = Date.now();
    await second.lock(new AbortController().signal, () => undefined);
    expect(releaseAsked).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    await second.unlock();
  });

  it('takes over a lock whose holder died once its time to live runs out', async () => {
    // What an instance killed while holding the lock leaves behind: the key, with no one renewing it.
    await connect().set(`${prefix}lock:upload-2`, 'a-dead-instance', 'PX', 400);
    const heir = new RedisLocker(connect(), connect(), { ttlMs: 400 }, prefix).newLock('upload-2');
    await heir.lock(new AbortController().signal, () => undefined);
    await heir.unlock();
  });

  it('times out when the holder never lets go', async () => {
    const a = new RedisLocker(connect(), connect(), {}, prefix);
    const b = new RedisLocker(connect(), connect(), { acquireTimeoutMs: 300 }, prefix);
    const held = a.newLock('upload-3');
    await held.lock(new AbortController().signal, () => undefined);
    await expect(
      b.newLock('upload-3').lock(new AbortController().signal, () => undefined),
    ).rejects.toMatchObject({
      status_code: 500,
    });
    await held.unlock();
  });
});
