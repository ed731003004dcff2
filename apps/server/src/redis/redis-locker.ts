import { randomUUID } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Redis } from 'ioredis';

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisLockerOptions {
  /** How long a lock outlives a holder that died without unlocking (renewed while held). */
  ttlMs?: number;
  /** How long a request waits for a lock before tus answers 500 ERR_LOCK_TIMEOUT. */
  acquireTimeoutMs?: number;
}

/**
 * The tus upload lock across instances: one Redis key per upload (SET NX PX, renewed while held) and a pub/sub
 * channel to ask the current holder — maybe on another instance — to let go, as tus requires of a locker when a
 * client resumes on a new connection while its old request still hangs.
 */
export class RedisLocker implements Locker {
  private readonly releaseHandlers = new Map<string, Set<RequestRelease>>();
  private subscribed: Promise<unknown> | null = null;
  readonly ttlMs: number;
  readonly acquireTimeoutMs: number;

  constructor(
    readonly redis: Redis,
    private readonly subscriber: Redis,
    options: RedisLockerOptions = {},
    readonly prefix = 'ferry:tus:',
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
  }

  newLock(id: string): Lock {
    return new RedisLock(id, this);
  }

  /** Listens for release requests on every upload channel once, and routes them to the local holder. */
  ensureSubscribed(): Promise<unknown> {
    if (!this.subscribed) {
      this.subscriber.on('pmessage', (_pattern: string, channel: string) => {
        const id = channel.slice(`${this.prefix}release:`.length);
        for (const release of this.releaseHandlers.get(id) ?? [])
          void Promise.resolve(release()).catch(() => undefined);
      });
      this.subscribed = this.subscriber.psubscribe(`${this.prefix}release:*`);
    }
    return this.subscribed;
  }

  addReleaseHandler(id: string, handler: RequestRelease): void {
    const set = this.releaseHandlers.get(id) ?? new Set();
    set.add(handler);
    this.releaseHandlers.set(id, set);
  }

  removeReleaseHandler(id: string, handler: RequestRelease): void {
    const set = this.releaseHandlers.get(id);
    set?.delete(handler);
    if (set?.size === 0) this.releaseHandlers.delete(id);
  }
}

class RedisLock implements Lock {
  private readonly token = randomUUID();
  private renewTimer: NodeJS.Timeout | null = null;
  private release: RequestRelease | null = null;

  constructor(
    private readonly id: string,
    private readonly locker: RedisLocker,
  ) {}

  private get key(): string {
    return `${this.locker.prefix}lock:${this.id}`;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.locker.ensureSubscribed();
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    let asked = false;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      const ok = await this.locker.redis.set(this.key, this.token, 'PX', this.locker.ttlMs, 'NX');
      if (ok === 'OK') break;
      if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      if (!asked) {
        await this.locker.redis.publish(`${this.locker.prefix}release:${this.id}`, this.token);
        asked = true;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
    this.release = requestRelease;
    this.locker.addReleaseHandler(this.id, requestRelease);
    this.renewTimer = setInterval(
      () => {
        void this.locker.redis
          .eval(RENEW, 1, this.key, this.token, String(this.locker.ttlMs))
          .catch(() => undefined);
      },
      Math.floor(this.locker.ttlMs / 3),
    );
    this.renewTimer.unref();
  }

  async unlock(): Promise<void> {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    if (this.release) this.locker.removeReleaseHandler(this.id, this.release);
    this.release = null;
    await this.locker.redis.eval(RELEASE, 1, this.key, this.token);
  }
}
