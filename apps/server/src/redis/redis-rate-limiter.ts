import type { Redis } from 'ioredis';
import type { RateLimiter } from '../services/ports.js';

// INCR and set the window's expiry on the first hit, atomically; returns the count and the time left.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

// The count and the time left, read together (a key that expires between two reads is never half-seen).
const PEEK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then count = 0; ttl = 0 end
return {count, ttl}
`;

/** Fixed-window counters in Redis, shared by every instance of a scaled-out deployment. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ferry:rl:',
  ) {}

  async hit(key: string, limit: number, windowSeconds: number) {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.prefix + key, String(windowSeconds * 1000))) as [
      number,
      number,
    ];
    return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)), count };
  }

  async peek(key: string) {
    const [count, ttl] = (await this.redis.eval(PEEK, 1, this.prefix + key)) as [number, number];
    return { count, retryAfterSeconds: count > 0 ? Math.max(1, Math.ceil(ttl / 1000)) : 0 };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
