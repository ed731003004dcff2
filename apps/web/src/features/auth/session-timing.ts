import {
  EXPIRY_CHECK_FIRST_MS,
  EXPIRY_CHECK_INTERVAL_MS,
  PLAN_POLL_INTERVAL_MS,
  type PlanType,
  SIGN_BACK_IN_THRESHOLD_MS,
} from '@ferry/core';

/**
 * The session rules of spec §4 and §9 as pure functions: when the expiry is checked, what a check decides,
 * and the plan polling after a plan change. The AuthProvider only wires them to React state.
 */

/** A session that ends within this much time is removed at the check (spec §4: "within 2 min"). */
export const SESSION_REMOVE_THRESHOLD_MS = 2 * 60_000;

export type ExpiryDecision =
  /** Sign out now and become anonymous (it ends within 2 min, or no expiry is known). */
  | 'remove'
  /** It ends within 12 h: offer to sign back in. */
  | 'sign_back_in'
  | 'keep';

/**
 * What one expiry check does (spec §4): a session without an expiry timestamp is removed; one that ends
 * within 2 minutes is removed; within 12 hours a sign-back-in modal is shown; otherwise nothing.
 */
export function expiryDecision(sessionExpireTimestamp: number | null, now: number): ExpiryDecision {
  if (sessionExpireTimestamp === null || !Number.isFinite(sessionExpireTimestamp)) return 'remove';
  const left = sessionExpireTimestamp - now;
  if (left <= SESSION_REMOVE_THRESHOLD_MS) return 'remove';
  if (left <= SIGN_BACK_IN_THRESHOLD_MS) return 'sign_back_in';
  return 'keep';
}

/** Delay before the check number `index` (0-based): the first after 10 s, then every 2 min (spec §9). */
export function expiryCheckDelay(index: number): number {
  return index === 0 ? EXPIRY_CHECK_FIRST_MS : EXPIRY_CHECK_INTERVAL_MS;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/**
 * Runs `check` 10 s from now, then every 2 minutes, until the returned stop function is called (or `check`
 * returns 'stop', e.g. once the session was removed).
 */
export function scheduleExpiryChecks(
  check: () => 'continue' | 'stop',
  timers: Timers = globalTimers,
): () => void {
  let handle: unknown = null;
  let stopped = false;
  const plan = (index: number) => {
    handle = timers.setTimeout(() => {
      if (stopped) return;
      if (check() === 'stop') {
        stopped = true;
        return;
      }
      plan(index + 1);
    }, expiryCheckDelay(index));
  };
  plan(0);
  return () => {
    stopped = true;
    if (handle !== null) timers.clearTimeout(handle);
  };
}

export interface PlanPollOptions {
  /** Reads the plan type of a fresh token (GET /auth/auth/id-token). */
  fetchPlanType: () => Promise<PlanType>;
  expected: PlanType;
  intervalMs?: number;
  /** Gives up (rejects with the signal's reason) when aborted. */
  signal?: AbortSignal;
  /** Gives up after this many reads (rejects); unbounded when absent, as spec §4 says. */
  maxAttempts?: number;
}

/**
 * After a plan change (spec §4): reads the plan of a fresh token every 2 s until it is the expected one.
 * A failed read counts as "not yet". Resolves with the number of reads it took.
 */
export function pollUntilPlan({
  fetchPlanType,
  expected,
  intervalMs = PLAN_POLL_INTERVAL_MS,
  signal,
  maxAttempts,
}: PlanPollOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const abort = () => {
      if (timer !== null) clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    const attempt = async () => {
      attempts++;
      let plan: PlanType | null = null;
      try {
        plan = await fetchPlanType();
      } catch {
        plan = null;
      }
      if (signal?.aborted) return;
      if (plan === expected) {
        signal?.removeEventListener('abort', abort);
        return resolve(attempts);
      }
      if (maxAttempts !== undefined && attempts >= maxAttempts) {
        signal?.removeEventListener('abort', abort);
        return reject(new Error(`the plan is still not ${expected} after ${attempts} attempts`));
      }
      timer = setTimeout(() => void attempt(), intervalMs);
    };
    void attempt();
  });
}

/** The claims of a session or id token (spec §3), or an error for a token of the wrong shape (spec §5). */
export function readTokenClaims(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length < 3) throw new Error('unexpected token format');
  const payload = (parts[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
  try {
    const json = atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== 'object' || claims === null) throw new Error('not an object');
    return claims as Record<string, unknown>;
  } catch {
    throw new Error('unexpected token format');
  }
}
