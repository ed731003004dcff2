import { AppError } from './app-error.js';
import type { RateLimiter } from './ports.js';

export interface PasswordPolicy {
  /** Guesses per protected thing and client in a window; ten times as many failures from everywhere close it. */
  attempts: number;
  windowSeconds: number;
}

/** The window in which a protected thing refuses every password: when it ends, how many failures closed it. */
export interface GuessingStopped {
  failures: number;
  lockedUntil: Date;
}

/**
 * Counts password guesses for one protected thing (a transfer, a request, an inbox) per client and from every
 * client together. Past the per-client count that client waits; past the total (ten times as many failures)
 * every attempt is refused, the right password too, until the window ends — otherwise guessing from many
 * addresses goes on and the lockout only changes the error. The failure that closes the window is told to
 * `stopped`, exactly once per window (the count is atomic in Redis), for its owner to hear about it.
 */
export class PasswordGuard {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly policy: PasswordPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** How many failures from everywhere close the window. */
  get cap(): number {
    return this.policy.attempts * 10;
  }

  async check(
    key: string,
    ip: string,
    verify: () => Promise<boolean>,
    stopped: (info: GuessingStopped) => Promise<void>,
  ): Promise<void> {
    const perAddress = `${key}:${ip}`;
    const hit = await this.limiter.hit(perAddress, this.policy.attempts, this.policy.windowSeconds);
    if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds);
    const closed = await this.limiter.peek(key);
    if (closed.count >= this.cap) throw rateLimited(closed.retryAfterSeconds);
    if (await verify()) {
      await this.limiter.reset(perAddress);
      return;
    }
    const all = await this.limiter.hit(key, this.cap, this.policy.windowSeconds);
    if (all.count === this.cap)
      await stopped({
        failures: all.count,
        lockedUntil: new Date(this.now().getTime() + all.retryAfterSeconds * 1000),
      });
    if (!all.allowed) throw rateLimited(all.retryAfterSeconds);
    throw new AppError('WRONG_PASSWORD', 'The password is not right.');
  }
}

function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', 'Too many attempts; wait before trying again.', {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
}
