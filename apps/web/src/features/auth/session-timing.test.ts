import {
  EXPIRY_CHECK_FIRST_MS,
  EXPIRY_CHECK_INTERVAL_MS,
  PLAN_POLL_INTERVAL_MS,
  type PlanType,
  SIGN_BACK_IN_THRESHOLD_MS,
} from '@ferry/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from '../../test/fixtures';
import {
  expiryCheckDelay,
  expiryDecision,
  pollUntilPlan,
  readTokenClaims,
  SESSION_REMOVE_THRESHOLD_MS,
  scheduleExpiryChecks,
} from './session-timing';

const MIN = 60_000;
const HOUR = 3600_000;
const NOW = Date.UTC(2030, 0, 1, 12);

describe('expiry decision (spec §4)', () => {
  it('uses the spec §9 constants', () => {
    expect(EXPIRY_CHECK_FIRST_MS).toBe(10_000);
    expect(EXPIRY_CHECK_INTERVAL_MS).toBe(2 * MIN);
    expect(SIGN_BACK_IN_THRESHOLD_MS).toBe(12 * HOUR);
    expect(SESSION_REMOVE_THRESHOLD_MS).toBe(2 * MIN);
  });

  it('removes a session without an expiry timestamp', () => {
    expect(expiryDecision(null, NOW)).toBe('remove');
    expect(expiryDecision(Number.NaN, NOW)).toBe('remove');
  });

  it('removes a session that ends within 2 minutes, or has ended', () => {
    expect(expiryDecision(NOW - 1, NOW)).toBe('remove');
    expect(expiryDecision(NOW, NOW)).toBe('remove');
    expect(expiryDecision(NOW + 2 * MIN, NOW)).toBe('remove');
  });

  it('asks to sign back in when it ends within 12 hours (but after 2 minutes)', () => {
    expect(expiryDecision(NOW + 2 * MIN + 1, NOW)).toBe('sign_back_in');
    expect(expiryDecision(NOW + 6 * HOUR, NOW)).toBe('sign_back_in');
    expect(expiryDecision(NOW + 12 * HOUR, NOW)).toBe('sign_back_in');
  });

  it('keeps a session that ends later than 12 hours from now', () => {
    expect(expiryDecision(NOW + 12 * HOUR + 1, NOW)).toBe('keep');
    expect(expiryDecision(NOW + 14 * 24 * HOUR, NOW)).toBe('keep');
  });
});

describe('expiry check schedule (spec §9: first after 10 s, then every 2 min)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the delays', () => {
    expect(expiryCheckDelay(0)).toBe(10_000);
    expect(expiryCheckDelay(1)).toBe(120_000);
    expect(expiryCheckDelay(7)).toBe(120_000);
  });

  it('checks at 10 s, 2 min 10 s, 4 min 10 s…, and never after stop', () => {
    const check = vi.fn(() => 'continue' as const);
    const stop = scheduleExpiryChecks(check);
    vi.advanceTimersByTime(9_999);
    expect(check).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2 * MIN - 1);
    expect(check).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(2 * MIN);
    expect(check).toHaveBeenCalledTimes(3);
    stop();
    vi.advanceTimersByTime(60 * MIN);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('stops by itself once a check says so (the session was removed)', () => {
    const check = vi.fn().mockReturnValueOnce('continue').mockReturnValueOnce('stop');
    scheduleExpiryChecks(check);
    vi.advanceTimersByTime(60 * MIN);
    expect(check).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('drives the decision: a 1-day session is kept, then offered a sign back in, then removed', () => {
    vi.setSystemTime(NOW);
    const expiresAt = NOW + 12 * HOUR + MIN;
    const seen: string[] = [];
    let removedAt = 0;
    scheduleExpiryChecks(() => {
      const decision = expiryDecision(expiresAt, Date.now());
      seen.push(decision);
      if (decision !== 'remove') return 'continue';
      removedAt = Date.now();
      return 'stop';
    });
    vi.advanceTimersByTime(10_000); // 12 h 50 s left
    expect(seen).toEqual(['keep']);
    vi.advanceTimersByTime(2 * MIN); // 11 h 58 min 50 s left
    expect(seen.at(-1)).toBe('sign_back_in');
    vi.advanceTimersByTime(12 * HOUR);
    expect(seen.at(-1)).toBe('remove');
    expect(expiresAt - removedAt).toBeLessThanOrEqual(2 * MIN);
    expect(expiresAt - removedAt).toBeGreaterThan(0);
  });
});

describe('plan polling after a plan change (spec §4: every 2 s until it matches)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads at once, then every 2 s, and resolves with the number of reads once the plan matches', async () => {
    const plans: PlanType[] = ['NONE', 'NONE', 'PREMIUM'];
    const fetchPlanType = vi.fn(async () => plans.shift() ?? 'PREMIUM');
    const done = vi.fn();
    void pollUntilPlan({ fetchPlanType, expected: 'PREMIUM' }).then(done);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchPlanType).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PLAN_POLL_INTERVAL_MS - 1);
    expect(fetchPlanType).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchPlanType).toHaveBeenCalledTimes(2);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchPlanType).toHaveBeenCalledTimes(3);
    expect(done).toHaveBeenCalledWith(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchPlanType).toHaveBeenCalledTimes(3);
  });

  it('counts a failed read as "not yet"', async () => {
    const fetchPlanType = vi
      .fn<() => Promise<PlanType>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue('TEAM');
    const result = pollUntilPlan({ fetchPlanType, expected: 'TEAM' });
    await vi.advanceTimersByTimeAsync(2000);
    await expect(result).resolves.toBe(2);
  });

  it('stops when aborted, and after maxAttempts', async () => {
    const controller = new AbortController();
    const fetchPlanType = vi.fn(async (): Promise<PlanType> => 'NONE');
    const aborted = pollUntilPlan({ fetchPlanType, expected: 'PREMIUM', signal: controller.signal });
    const caught = aborted.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(4000);
    controller.abort(new Error('left the page'));
    expect(await caught).toEqual(new Error('left the page'));
    const reads = fetchPlanType.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchPlanType).toHaveBeenCalledTimes(reads);

    const limited = pollUntilPlan({ fetchPlanType, expected: 'PREMIUM', maxAttempts: 3 }).catch(
      (e: Error) => e,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(String(await limited)).toContain('after 3 attempts');
  });
});

describe('readTokenClaims (spec §5)', () => {
  it('reads the claims of a three-part token', () => {
    const token = fakeJwt({ user_id: 'u_1', plan_type: 'PREMIUM', name: 'Zoë' });
    expect(readTokenClaims(token)).toMatchObject({ user_id: 'u_1', plan_type: 'PREMIUM', name: 'Zoë' });
  });

  it('refuses a token with fewer than three parts, or an unreadable payload', () => {
    expect(() => readTokenClaims('abc.def')).toThrow('unexpected token format');
    expect(() => readTokenClaims('a.!!!.c')).toThrow('unexpected token format');
  });
});
