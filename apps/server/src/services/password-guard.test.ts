import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../ratelimit/memory.js';
import { AppError } from './app-error.js';
import { type GuessingStopped, PasswordGuard } from './password-guard.js';

const RIGHT = 'right';

/** The outcome of one attempt: 'ok', or the error code it was refused with. */
async function attempt(guard: PasswordGuard, ip: string, password: string, stopped: GuessingStopped[]) {
  try {
    await guard.check(
      'pw:t1',
      ip,
      async () => password === RIGHT,
      async (info) => void stopped.push(info),
    );
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
}

describe('PasswordGuard (in-process counters)', () => {
  it('past the cap from many addresses refuses every password until the window ends, telling once', async () => {
    const guard = new PasswordGuard(new MemoryRateLimiter(), { attempts: 2, windowSeconds: 60 });
    const stopped: GuessingStopped[] = [];
    const outcomes: string[] = [];
    for (let i = 0; i < guard.cap; i++)
      outcomes.push(await attempt(guard, `10.0.0.${Math.floor(i / 2)}`, `guess-${i}`, stopped));
    expect(outcomes).toEqual(Array(guard.cap).fill('WRONG_PASSWORD'));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.failures).toBe(20);
    expect(stopped[0]!.lockedUntil.getTime()).toBeGreaterThan(Date.now());
    expect(await attempt(guard, '10.0.1.1', RIGHT, stopped)).toBe('RATE_LIMITED');
    expect(await attempt(guard, '10.0.1.2', 'another guess', stopped)).toBe('RATE_LIMITED');
    expect(stopped).toHaveLength(1);
  });

  it('below the cap lets the right password in and clears that address’s count', async () => {
    const guard = new PasswordGuard(new MemoryRateLimiter(), { attempts: 2, windowSeconds: 60 });
    const stopped: GuessingStopped[] = [];
    expect(await attempt(guard, '10.0.0.1', 'nope', stopped)).toBe('WRONG_PASSWORD');
    expect(await attempt(guard, '10.0.0.1', RIGHT, stopped)).toBe('ok');
    // Counted from zero again: two more guesses, then this address waits.
    expect(await attempt(guard, '10.0.0.1', 'nope', stopped)).toBe('WRONG_PASSWORD');
    expect(await attempt(guard, '10.0.0.1', 'nope', stopped)).toBe('WRONG_PASSWORD');
    expect(await attempt(guard, '10.0.0.1', RIGHT, stopped)).toBe('RATE_LIMITED');
    expect(stopped).toEqual([]);
  });
});
