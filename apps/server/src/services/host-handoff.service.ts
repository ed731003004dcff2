import { CUSTOM_TOKEN_SECONDS, type SessionCookieResponse } from '@ferry/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { UserRecord } from '../db/account.repository.js';
import { randomToken } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Authenticated, AuthRequestContext } from './auth.service.js';
import type { HostOwner } from './host-ports.js';
import type { RateLimiter } from './ports.js';

/** What the hand-off needs of the rest: the owner's home host, single use, users and sessions. */
export interface HandoffDeps {
  homeHostOf(ownerId: string): Promise<string | null>;
  /** Records the token's id as redeemed; false when it already was. */
  redeemOnce(jti: string, expiresAt: Date, now: Date): Promise<boolean>;
  user(id: string): Promise<UserRecord | null>;
  startSession(
    user: UserRecord,
    provider: string,
    ctx: AuthRequestContext,
    options: { expiresInMinutes: number; deviceId?: string | undefined; generation?: number },
  ): Promise<SessionCookieResponse & { maxAgeSeconds: number }>;
  originOf(host: string): string;
  limiter: RateLimiter;
}

export interface Redirect {
  redirectDomain: string;
  redirectOrigin: string;
  customToken: string;
}

/**
 * The cross-domain sign-in of spec §4: a user who signs in on one host while their account or team is served at
 * another is given a custom token for that host. The token is a signed JWT (typ `handoff`) that lives 60 s, names
 * the one host that may redeem it, and is redeemed once (its id is recorded in host_handoffs); the session it
 * opens there is a new one of the same length, with the same sign-in generation (a password change meanwhile voids it).
 */
export class HostHandoffService {
  private readonly key: Uint8Array;

  constructor(
    private readonly deps: HandoffDeps,
    secret: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Where a user signing in at `served` (null: the main host) belongs instead, with the token to get there. */
  async redirectFor(
    auth: Authenticated,
    served: HostOwner | null,
    expiresInMinutes: number,
  ): Promise<Redirect | null> {
    if (auth.tokenId || !auth.session) return null;
    const home = await this.deps.homeHostOf(auth.user.managerId ?? auth.user.id);
    if (!home || home === served?.host) return null;
    const iat = Math.floor(this.now().getTime() / 1000);
    const customToken = await new SignJWT({
      typ: 'handoff',
      user_id: auth.user.id,
      host: home,
      minutes: expiresInMinutes,
      gen: auth.user.signInGeneration,
      sign_in_provider: auth.provider,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(randomToken(18))
      .setSubject(auth.user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + CUSTOM_TOKEN_SECONDS)
      .sign(this.key);
    return { redirectDomain: home, redirectOrigin: this.deps.originOf(home), customToken };
  }

  /** Redeems a custom token at the host it names: a session there, or 400 (invalid, expired, used, other host). */
  async redeem(
    token: string,
    served: HostOwner | null,
    ctx: AuthRequestContext,
    deviceId: string | undefined,
  ): Promise<SessionCookieResponse & { maxAgeSeconds: number }> {
    const hit = await this.deps.limiter.hit(`custom-token:${ctx.ip}`, 30, 300);
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many attempts; wait before trying again.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
    const claims = await this.verify(token);
    if (!served || claims.host !== served.host) throw refused('This sign-in link is for another address.');
    const now = this.now();
    if (!(await this.deps.redeemOnce(String(claims.jti), new Date(Number(claims.exp) * 1000), now)))
      throw refused('This sign-in link was already used.');
    const user = await this.deps.user(String(claims.user_id));
    if (!user?.emailVerifiedAt) throw new AppError('USER_NOT_FOUND', 'No account for this token.');
    return this.deps.startSession(user, String(claims.sign_in_provider ?? 'password'), ctx, {
      expiresInMinutes: Number(claims.minutes),
      deviceId,
      generation: Number(claims.gen ?? 0),
    });
  }

  private async verify(token: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      if (payload.typ !== 'handoff' || typeof payload.jti !== 'string' || typeof payload.host !== 'string')
        throw refused('Not a sign-in link token.');
      return payload;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired)
        throw refused('This sign-in link has expired: sign in again.');
      throw refused('Not a sign-in link token.');
    }
  }
}

/** The spec's client accepts 200 or 400 from the session calls: a refused hand-off is a 400. */
function refused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { details: { reason: 'INVALID_CUSTOM_TOKEN' } });
}
