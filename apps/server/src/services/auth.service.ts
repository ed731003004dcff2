import {
  type ApiTokenCreated,
  type ApiTokenInfo,
  type ApiTokenScope,
  type AuthState,
  ChangePasswordRequest,
  type ChosenPlan,
  DEFAULT_API_TOKEN_DAILY_QUOTA,
  DEFAULT_API_TOKEN_SCOPES,
  Email,
  ForgotPasswordRequest,
  type IdTokenResponse,
  isPayingPlan,
  type PlanType,
  type RecoveryCodesResponse,
  RegisterRequest,
  ResetPasswordRequest,
  SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
  type SessionClaims,
  SessionCookieQuery,
  type SessionCookieResponse,
  type SessionInfo,
  SignInRequest,
  type SignOutResponse,
  type TotpSetupResponse,
  type TotpStatus,
  teamLicences,
} from '@ferry/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Logger } from 'pino';
import type {
  ApiTokenRecord,
  PgAccountRepository,
  SessionRecord,
  SignUpChoice,
  UserRecord,
} from '../db/account.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import { emailVerification, passwordChanged, passwordReset } from '../mail/templates/index.js';
import { hashRecoveryCode, type SecondFactor } from '../security/second-factor.js';
import { randomToken, sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import { planOf } from './effective-plan.js';
import type { MailQueue } from './notification.service.js';
import type { PasswordHasher, RateLimiter } from './ports.js';
import type { SecurityEvent, SecurityLog } from './security-log.js';
import { checkSignInAllowed, secondFactorRequired } from './team-policy.js';
import { permissionsOf } from './user.service.js';

/** Who made a request, once its credential checked out. */
export interface Authenticated {
  user: UserRecord;
  /** The plan that holds for the user: their team's (the manager's) for a team member (spec §4, §6). */
  planType: PlanType;
  /** The session behind a session token; null for an API token. */
  session: SessionRecord | null;
  tokenId: string | null;
  /** What an API token may do (null: a session, which may do everything its account may). */
  scopes: readonly ApiTokenScope[] | null;
  provider: string;
}

/** Who an OpenID Connect provider says signed in (auth/oidc.ts). */
export interface ExternalIdentity {
  /** The provider's name in OIDC_PROVIDERS. */
  provider: string;
  /** The provider's `sub`: stable for this person at this provider. */
  subject: string;
  email: string | null;
  /** The provider vouches that the person controls `email`. */
  emailVerified: boolean;
  firstname: string | null;
  locale: string | null;
}

/** Why an OpenID Connect sign-in was not let in (the codes of /signin?error=…, docs/api.md). */
export type IdentityRefusal =
  | 'email_missing'
  | 'email_not_verified'
  | 'max_licences'
  | 'account_suspended'
  /** The member's team does not allow this provider (its authentication policy). */
  | 'method_not_allowed';

export interface AuthRequestContext {
  ip: string;
  userAgent?: string;
  /** Origin of the links mailed: PUBLIC_URL, else http://localhost:PORT (never a request header). */
  origin: string;
}

const ID_TOKEN_SECONDS = 3600;
/** How long a member whose team requires a second factor has to set one up after signing in with a password. */
const SETUP_TOKEN_SECONDS = 900;
const VERIFY_LINK_HOURS = 24;
const RESET_LINK_HOURS = 1;
const API_TOKEN_PREFIX = 'fry_';
/** Attempts before a pause: sign-ins per address (the lockout) and per client, mails per address. */
const LIMITS = {
  signInPerAddress: { limit: 10, windowSeconds: 900 },
  signInPerClient: { limit: 50, windowSeconds: 900 },
  mailsPerAddress: { limit: 5, windowSeconds: 3600 },
  registrationsPerClient: { limit: 20, windowSeconds: 3600 },
  linksPerClient: { limit: 30, windowSeconds: 900 },
  lookupsPerClient: { limit: 60, windowSeconds: 900 },
} as const;

function invalidToken(message = 'This token is not valid.'): AppError {
  return new AppError('INVALID_TOKEN', message);
}

/**
 * A suspended account does not sign in, and none of its credentials (sessions, API tokens) act for it, until an
 * operator lifts the suspension. Checked where every sign-in and every credential passes: here.
 */
function refuseSuspended(user: UserRecord): void {
  if (user.suspendedAt)
    throw new AppError(
      'ACCOUNT_SUSPENDED',
      'This account is suspended: contact the operators of this service.',
    );
  if (user.teamDisabledAt)
    throw new AppError('MEMBER_DISABLED', "Your team's manager has disabled this account.");
}

/**
 * Accounts and sessions: sign-up with a verified address, sign-in with lockout, password reset, the spec's
 * session calls (id token → session token with a server-side record), API tokens, and who a credential is.
 */
export class AuthService {
  private readonly key: Uint8Array;
  /** Verified against when the address is unknown, so that both cases cost the same. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly repo: PgAccountRepository,
    private readonly passwords: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly mail: MailQueue,
    private readonly secondFactor: SecondFactor,
    jwtSecret: string,
    private readonly productName: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
    private readonly apiTokens: { dailyQuota: number; securityLog?: SecurityLog } = {
      dailyQuota: DEFAULT_API_TOKEN_DAILY_QUOTA,
    },
  ) {
    this.key = new TextEncoder().encode(jwtSecret);
  }

  private security: SecurityLog | null = null;

  /** The team security log every sign-in, failure, second-factor, password and session change is written to. */
  recordSecurity(log: SecurityLog): void {
    this.security = log;
  }

  private async logSecurity(event: SecurityEvent): Promise<void> {
    await this.security?.record(event);
  }

  // --- sign-up -------------------------------------------------------------------------------------------

  async register(input: RegisterRequest, ctx: AuthRequestContext): Promise<{ sentTo: string }> {
    const request = RegisterRequest.parse(input);
    await this.limit(`reg-ip:${ctx.ip}`, LIMITS.registrationsPerClient);
    const signUp: SignUpChoice = {
      passwordHash: await this.passwords.hash(request.password),
      firstname: request.firstname || null,
      locale: request.locale ?? null,
      chosenPlan: request.plan ?? null,
    };
    let user = await this.repo.createUser({ id: randomAlphanumeric(20), email: request.email, ...signUp });
    if (!user) {
      const existing = (await this.repo.userByEmail(request.email))!;
      // A verified account is left alone (its owner can reset the password); the answer is the same, so the
      // form tells nobody which addresses have accounts.
      if (existing.emailVerifiedAt) {
        this.logger.info({ userId: existing.id }, 'sign-up for an existing account ignored');
        return { sentTo: request.email };
      }
      // A sign-up again before verifying changes nothing now: its own link carries its password, and only
      // following that link (which only the address's owner can) activates it.
      user = existing;
    }
    await this.sendLink(user, 'verify_email', ctx, signUp);
    return { sentTo: request.email };
  }

  /** Each link activates the sign-up it was mailed for; the first one followed voids the others. */
  async verifyEmail(token: string, ctx: AuthRequestContext): Promise<IdTokenResponse> {
    await this.limit(`link-ip:${ctx.ip}`, LIMITS.linksPerClient);
    const userId = await this.repo.verifySignUp(sha256Hex(token));
    if (!userId) throw invalidToken('This link is not valid any more: it was used, or it expired.');
    return this.idToken((await this.repo.user(userId))!, 'password');
  }

  // --- sign-in -------------------------------------------------------------------------------------------

  async signIn(input: SignInRequest, ctx: AuthRequestContext): Promise<IdTokenResponse> {
    const request = SignInRequest.parse(input);
    const address = request.email.toLowerCase();
    await this.limit(`signin:${address}`, LIMITS.signInPerAddress);
    await this.limit(`signin-ip:${ctx.ip}`, LIMITS.signInPerClient);
    const user = await this.repo.userByEmail(address);
    const hash = user?.passwordHash ?? (await this.dummy());
    const ok = (await this.passwords.verify(hash, request.password)) && user?.passwordHash != null;
    if (user && !ok)
      await this.logSecurity({
        userId: user.id,
        action: 'sign-in-failed',
        actorLabel: user.email,
        ip: ctx.ip,
        userAgent: ctx.userAgent ?? null,
        details: { method: 'password', reason: 'password' },
      });
    if (!ok || !user)
      throw new AppError('INVALID_CREDENTIALS', 'The e-mail address or the password is not right.');
    if (!user.emailVerifiedAt) {
      await this.sendLink(user, 'verify_email', ctx).catch((err) => {
        if (!(err instanceof AppError)) throw err; // rate limited: the earlier link still works
      });
      throw new AppError('EMAIL_NOT_VERIFIED', 'Confirm your e-mail address first: we sent you a new link.');
    }
    refuseSuspended(user);
    if (user.totpEnabledAt) {
      if (!request.totp)
        throw new AppError('SECOND_FACTOR_REQUIRED', 'Enter the code from your authenticator app.');
      if (!(await this.secondFactorAccepts(user, request.totp))) {
        await this.logSecurity({
          userId: user.id,
          action: 'sign-in-failed',
          actorLabel: user.email,
          ip: ctx.ip,
          userAgent: ctx.userAgent ?? null,
          details: { method: 'password', reason: 'second-factor' },
        });
        throw new AppError('SECOND_FACTOR_REQUIRED', 'This code is not right.', {
          details: { wrongCode: true },
        });
      }
    } else {
      await this.refuseWithoutSecondFactor(user, 'password');
    }
    await this.limiter.reset(`signin:${address}`);
    return this.idToken(user, 'password');
  }

  async forgotPassword(input: ForgotPasswordRequest, ctx: AuthRequestContext): Promise<void> {
    const request = ForgotPasswordRequest.parse(input);
    await this.limit(`link-ip:${ctx.ip}`, LIMITS.linksPerClient);
    const user = await this.repo.userByEmail(request.email);
    if (!user) return; // the same answer either way
    await this.sendLink(user, 'reset_password', ctx).catch((err) => {
      if (!(err instanceof AppError)) throw err;
    });
  }

  /**
   * A new password from a mailed link. An account with a second factor gives its code (or a recovery code)
   * first: the link stays usable until then, and the mailbox alone neither changes the password nor signs in.
   */
  async resetPassword(input: ResetPasswordRequest, ctx: AuthRequestContext): Promise<IdTokenResponse> {
    const request = ResetPasswordRequest.parse(input);
    await this.limit(`link-ip:${ctx.ip}`, LIMITS.linksPerClient);
    const tokenHash = sha256Hex(request.token);
    const linked = await this.repo.linkUser(tokenHash, 'reset_password');
    const owner = linked ? await this.repo.user(linked) : null;
    if (!owner) throw invalidToken('This link is not valid any more: it was used, or it expired.');
    if (owner.totpEnabledAt) {
      if (!request.totp)
        throw new AppError('SECOND_FACTOR_REQUIRED', 'Enter the code from your authenticator app.');
      await this.limit(`totp:${owner.id}`, LIMITS.signInPerAddress);
      if (!(await this.secondFactorAccepts(owner, request.totp)))
        throw new AppError('SECOND_FACTOR_REQUIRED', 'This code is not right.', {
          details: { wrongCode: true },
        });
    }
    const userId = await this.repo.consumeLink(tokenHash, 'reset_password');
    if (userId !== owner.id)
      throw invalidToken('This link is not valid any more: it was used, or it expired.');
    await this.repo.setPassword(userId, await this.passwords.hash(request.password));
    // Whoever knew the old password is signed out, id tokens included; following the link proves the address.
    await this.endSignIns(userId, null);
    await this.repo.markVerified(userId);
    await this.logSecurity({
      userId,
      action: 'password-reset',
      actorUserId: userId,
      ip: ctx.ip,
      userAgent: ctx.userAgent ?? null,
    });
    await this.limiter.reset(`signin:${(await this.repo.user(userId))!.email.toLowerCase()}`);
    return this.idToken((await this.repo.user(userId))!, 'password');
  }

  /**
   * POST /auth/password/change: the current password again (checked like a sign-in, and counted against the
   * same lockout), then the new one; every other session ends, and the owner is told by mail.
   */
  async changePassword(
    auth: Authenticated,
    input: ChangePasswordRequest,
    ctx: AuthRequestContext,
  ): Promise<SignOutResponse> {
    const request = ChangePasswordRequest.parse(input);
    const { user } = auth;
    if (!user.passwordHash)
      throw new AppError(
        'CONFLICT',
        'This account signs in with a provider and has no password: choose one with "Forgot password".',
        { details: { reason: 'NO_PASSWORD' } },
      );
    const address = user.email.toLowerCase();
    await this.limit(`signin:${address}`, LIMITS.signInPerAddress);
    if (!(await this.passwords.verify(user.passwordHash, request.currentPassword)))
      throw new AppError('INVALID_CREDENTIALS', 'The current password is not right.');
    const hash = await this.passwords.hash(request.newPassword);
    if (!(await this.repo.replacePassword(user.id, user.passwordHash, hash)))
      throw new AppError('CONFLICT', 'The password was changed meanwhile: sign in again.');
    const revoked = await this.endSignIns(user.id, auth.session?.id ?? null);
    await this.logSecurity({
      userId: user.id,
      action: 'password-changed',
      actorUserId: user.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent ?? null,
      details: { sessionsEnded: revoked },
    });
    await this.limiter.reset(`signin:${address}`);
    const changedAt = this.now();
    const rendered = await passwordChanged(
      { locale: user.locale, productName: this.productName },
      { email: user.email, changedAt, ip: ctx.ip, resetUrl: `${ctx.origin}/forgot-password` },
    );
    await this.mail.enqueue({
      to: [user.email],
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      idempotencyKey: `password-changed-${user.id}-${randomAlphanumeric(16)}`,
    });
    this.logger.info({ userId: user.id, revoked }, 'password changed');
    return { revoked };
  }

  // --- the spec's session calls --------------------------------------------------------------------------

  /** GET /auth/auth/session-cookie: an id token becomes a session (record + signed session token). */
  async sessionCookie(
    idToken: string | undefined,
    rawQuery: unknown,
    ctx: AuthRequestContext,
  ): Promise<SessionCookieResponse & { maxAgeSeconds: number }> {
    const query = SessionCookieQuery.parse(rawQuery);
    await this.limit(`session-ip:${ctx.ip}`, LIMITS.lookupsPerClient);
    return this.sessionFromIdToken(idToken, query, ctx).catch((error: unknown) => {
      // The spec's client accepts 200 or 400 here (§7): a malformed, tampered, expired or voided id token is a 400.
      if (error instanceof AppError && error.code === 'INVALID_TOKEN')
        throw new AppError('VALIDATION_FAILED', error.message, { details: { reason: 'INVALID_TOKEN' } });
      throw error;
    });
  }

  private async sessionFromIdToken(
    idToken: string | undefined,
    query: { expiresInMinutes: number; deviceId?: string | undefined },
    ctx: AuthRequestContext,
  ): Promise<SessionCookieResponse & { maxAgeSeconds: number }> {
    const claims = await this.verifyJwt(idToken, 'id');
    // A token that carries an api marker is not a person signing in (spec §5).
    if (claims.api) throw new AppError('USER_NOT_FOUND', 'No account for this token.');
    const user = typeof claims.user_id === 'string' ? await this.repo.user(claims.user_id) : null;
    if (!user?.emailVerifiedAt) throw new AppError('USER_NOT_FOUND', 'No account for this token.');
    const provider = typeof claims.sign_in_provider === 'string' ? claims.sign_in_provider : 'password';
    // Minted before a password change, a reset or "sign out everywhere": void (tokens from before the claim
    // existed count as the first generation).
    const generation = typeof claims.gen === 'number' ? claims.gen : 0;
    if (generation !== user.signInGeneration)
      throw invalidToken('This id token is not valid any more: sign in again.');
    return this.startSession(user, provider, ctx, { ...query, generation });
  }

  /**
   * A new session (record + signed session token) for a user who proved who they are: with an id token
   * (session-cookie above) or at an OpenID Connect provider. `provider` becomes the sign_in_provider claim.
   */
  async startSession(
    user: UserRecord,
    provider: string,
    ctx: AuthRequestContext,
    options: { expiresInMinutes: number; deviceId?: string | undefined; generation?: number },
  ): Promise<SessionCookieResponse & { maxAgeSeconds: number }> {
    refuseSuspended(user);
    await this.checkLicence(user);
    await this.checkTeamPolicy(user, provider);
    const issuedAt = this.now();
    const expiresAt = new Date(issuedAt.getTime() + options.expiresInMinutes * 60_000);
    const session: Omit<SessionRecord, 'createdAt' | 'lastUsedAt' | 'revokedAt'> = {
      id: randomToken(18),
      userId: user.id,
      deviceId: options.deviceId ?? null,
      userAgent: ctx.userAgent?.slice(0, 500) ?? null,
      ip: ctx.ip,
      provider,
      expiresAt,
    };
    // `generation`: the id token's, which a password change, a reset or "sign out everywhere" may void meanwhile.
    if (!(await this.repo.createSession(session, options.generation ?? null)))
      throw invalidToken('This id token is not valid any more: sign in again.');
    await this.repo.recordSignIn(user.id, provider);
    await this.logSecurity({
      userId: user.id,
      action: 'sign-in',
      actorUserId: user.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent ?? null,
      details: { method: provider, sessionId: session.id },
    });
    return {
      sessionCookie: await this.sessionToken(user, session.id, provider, issuedAt, expiresAt),
      sessionExpireTimestamp: expiresAt.getTime(),
      maxAgeSeconds: options.expiresInMinutes * 60,
    };
  }

  /**
   * Signs in the person an OpenID Connect provider vouched for (see userForIdentity) in a new session, which
   * replaces the one this browser had (`current`); or says why not. The plan picked on /register becomes the
   * account's chosen plan unless it has one already (as a password sign-up of a new account keeps it).
   */
  async signInWithIdentity(
    identity: ExternalIdentity,
    ctx: AuthRequestContext,
    options: { staySignedIn: boolean; deviceId: string | null; plan?: ChosenPlan | null },
    current: Authenticated | null,
  ): Promise<(SessionCookieResponse & { maxAgeSeconds: number }) | { refused: IdentityRefusal }> {
    const found = await this.userForIdentity(identity);
    if ('refused' in found) return found;
    const { expiresInMinutes } = SessionCookieQuery.parse({
      expiresInMinutes: options.staySignedIn ? SESSION_COOKIE_STAY_SIGNED_IN_MINUTES : undefined,
    });
    const session = await this.startSession(found.user, identity.provider, ctx, {
      expiresInMinutes,
      deviceId: options.deviceId ?? undefined,
    }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'MAX_LICENCES_REACHED') return 'max_licences' as const;
      if (error instanceof AppError && error.code === 'ACCOUNT_SUSPENDED')
        return 'account_suspended' as const;
      if (error instanceof AppError && error.code === 'SIGN_IN_METHOD_NOT_ALLOWED')
        return 'method_not_allowed' as const;
      throw error;
    });
    if (typeof session === 'string') return { refused: session };
    if (options.plan && !found.user.chosenPlan)
      await this.repo.setChosenPlanIfNone(found.user.id, options.plan);
    if (current?.session) await this.signOut(current, { revokeAllSessions: false });
    return session;
  }

  /**
   * The user an OpenID Connect sign-in is: the one its (provider, subject) was linked to; else, when the
   * provider vouches for the address, that address's account (linked now) or a new account. An address the
   * provider does not vouch for neither links to nor creates an account: anyone able to give an address they
   * do not own at some provider could otherwise sign in as its owner, or send transfers in their name.
   */
  private async userForIdentity(
    identity: ExternalIdentity,
  ): Promise<{ user: UserRecord; created: boolean } | { refused: IdentityRefusal }> {
    const { provider, subject } = identity;
    const linked = await this.repo.userByIdentity(provider, subject);
    if (linked) return { user: linked, created: false };
    const email = Email.safeParse(identity.email ?? '');
    if (!email.success) return { refused: 'email_missing' };
    if (!identity.emailVerified) return { refused: 'email_not_verified' };
    let created = false;
    // Twice at most: a concurrent sign-up may take the address between the look-up and the insert.
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await this.repo.userByEmail(email.data);
      if (existing) {
        // A pending sign-up: the provider proves the address, so the account is its owner's now.
        if (!existing.emailVerifiedAt && (await this.repo.claimUnverified(existing.id)))
          this.logger.info({ userId: existing.id, provider }, 'pending sign-up verified by a provider');
        await this.repo.linkIdentity({ provider, subject, userId: existing.id, email: email.data });
        break;
      }
      const user = await this.repo.createVerifiedUser({
        id: randomAlphanumeric(20),
        email: email.data,
        firstname: identity.firstname?.trim().slice(0, 200) || null,
        locale: identity.locale?.slice(0, 35) || null,
      });
      if (user) {
        created = true;
        await this.repo.linkIdentity({ provider, subject, userId: user.id, email: email.data });
        break;
      }
    }
    // The link that holds: a concurrent first sign-in of the same subject may have made it first.
    const user = await this.repo.userByIdentity(provider, subject);
    if (!user) throw new AppError('CONFLICT', 'The account changed meanwhile: sign in again.');
    this.logger.info({ userId: user.id, provider, created }, 'provider identity linked');
    return { user, created };
  }

  /** GET /auth/auth/set-session: a session token handed over from another domain becomes this domain's cookie. */
  async setSession(
    sessionToken: string | undefined,
  ): Promise<SessionCookieResponse & { maxAgeSeconds: number }> {
    const auth = await this.authenticate(sessionToken);
    if (!auth.session) throw invalidToken('Not a session token.');
    const expires = auth.session.expiresAt.getTime();
    return {
      sessionCookie: sessionToken!,
      sessionExpireTimestamp: expires,
      maxAgeSeconds: Math.max(1, Math.floor((expires - this.now().getTime()) / 1000)),
    };
  }

  async signOut(
    auth: Authenticated | null,
    options: { revokeAllSessions: boolean },
    ctx?: Pick<AuthRequestContext, 'ip' | 'userAgent'>,
  ): Promise<{ revoked: number }> {
    if (!auth) return { revoked: 0 };
    if (options.revokeAllSessions) {
      const revoked = await this.endSignIns(auth.user.id, null);
      await this.logSecurity({
        userId: auth.user.id,
        action: 'sessions-revoked',
        actorUserId: auth.user.id,
        ip: ctx?.ip ?? null,
        userAgent: ctx?.userAgent ?? null,
        details: { scope: 'all', revoked },
      });
      return { revoked };
    }
    if (!auth.session) return { revoked: 0 }; // an API token is revoked from /account/integrations
    return { revoked: (await this.repo.revokeSession(auth.user.id, auth.session.id)) ? 1 : 0 };
  }

  /**
   * GET /auth/auth/id-token: a fresh id token for the signed-in user (claims as they are now). Not for a
   * personal API token: an id token makes a browser session.
   */
  async idTokenFor(auth: Authenticated | null): Promise<IdTokenResponse> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    notByApiToken(auth);
    return this.idToken(auth.user, auth.provider);
  }

  /**
   * Voids every id token of the account and ends its sessions but `keepSessionId` (null: all of them); API
   * tokens stay (they are revoked one by one). The bump comes first: see createSession.
   */
  private async endSignIns(userId: string, keepSessionId: string | null): Promise<number> {
    await this.repo.bumpSignInGeneration(userId);
    return keepSessionId === null
      ? this.repo.revokeAllSessions(userId)
      : this.repo.revokeOtherSessions(userId, keepSessionId);
  }

  /** Who a session token or API token belongs to; INVALID_TOKEN when malformed, tampered, expired or revoked. */
  async authenticate(credential: string | undefined): Promise<Authenticated> {
    if (!credential) throw invalidToken('No credential.');
    if (credential.startsWith(API_TOKEN_PREFIX)) {
      const token = await this.repo.liveToken(sha256Hex(credential));
      const user = token ? await this.repo.user(token.userId) : null;
      if (!token || !user) throw invalidToken('This API token is not valid (revoked?).');
      refuseSuspended(user);
      await this.countTokenCall(token);
      return {
        user,
        planType: await this.planOf(user),
        session: null,
        tokenId: token.id,
        scopes: token.scopes,
        provider: 'api_token',
      };
    }
    const claims = await this.verifyJwt(credential, 'session');
    const session = typeof claims.sid === 'string' ? await this.repo.liveSession(claims.sid) : null;
    if (!session || session.userId !== claims.user_id)
      throw invalidToken('This session has ended: sign in again.');
    const user = await this.repo.user(session.userId);
    if (!user) throw invalidToken('This session has ended: sign in again.');
    refuseSuspended(user);
    return {
      user,
      planType: await this.planOf(user),
      session,
      tokenId: null,
      scopes: null,
      provider: session.provider,
    };
  }

  /**
   * Counts a call of an API token against its daily quota (per UTC day, through the shared rate limiter so that
   * it holds across instances): past it, 429 with Retry-After up to the next midnight UTC. The first call of a
   * day is logged (api-key-used).
   */
  private async countTokenCall(token: ApiTokenRecord): Promise<void> {
    const now = this.now();
    const day = now.toISOString().slice(0, 10);
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const secondsLeft = Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
    const hit = await this.limiter.hit(
      `api-token:${token.id}:${day}`,
      this.apiTokens.dailyQuota,
      secondsLeft,
    );
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'This API token made all its calls for today (UTC).', {
        retryAfterSeconds: secondsLeft,
        details: { reason: 'API_TOKEN_DAILY_QUOTA', quota: this.apiTokens.dailyQuota },
      });
    if (hit.count === 1)
      await this.apiTokens.securityLog?.record({
        userId: token.userId,
        action: 'api-key-used',
        actorUserId: token.userId,
        actorLabel: token.name,
        tokenId: token.id,
        target: token.prefix,
      });
  }

  /**
   * A team signs in as many accounts as its plan has seats (core teamLicences): the manager and the members who
   * joined first. The others are answered MAX_LICENCES_REACHED (spec §8), until a seat is freed or bought.
   */
  private async checkLicence(user: UserRecord): Promise<void> {
    if (!user.managerId) return;
    const manager = await this.repo.user(user.managerId);
    if (!manager) return;
    const licences = teamLicences(manager.planCode, manager.limitSettings.licences);
    if (licences === null) return;
    const seat = await this.repo.teamSeat(user.id, manager.id);
    if (seat !== null && seat > licences)
      throw new AppError('MAX_LICENCES_REACHED', 'Every seat of your team is taken: ask your team manager.', {
        details: { licences },
      });
  }

  /**
   * The team's authentication policy (services/team-policy.ts): the sign-in method must be allowed, and a
   * password sign-in needs a second factor when the team requires one (also for an id token from a reset or a
   * verification link, which never asked for one).
   */
  private async checkTeamPolicy(user: UserRecord, provider: string): Promise<void> {
    if (!user.managerId) return;
    const manager = await this.repo.user(user.managerId);
    checkSignInAllowed(user, manager, provider);
    if (provider === 'password' && !user.totpEnabledAt) await this.refuseWithoutSecondFactor(user, provider);
  }

  /** 403 SECOND_FACTOR_SETUP_REQUIRED with a setup token, when the member's team requires a second factor. */
  private async refuseWithoutSecondFactor(user: UserRecord, provider: string): Promise<void> {
    if (!user.managerId || user.totpEnabledAt) return;
    const manager = await this.repo.user(user.managerId);
    checkSignInAllowed(user, manager, provider);
    if (!secondFactorRequired(user, manager)) return;
    const iat = Math.floor(this.now().getTime() / 1000);
    const setupToken = await new SignJWT({ typ: 'totp-setup', user_id: user.id, gen: user.signInGeneration })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + SETUP_TOKEN_SECONDS)
      .sign(this.key);
    throw new AppError(
      'SECOND_FACTOR_SETUP_REQUIRED',
      'Your team requires a second factor: set up an authenticator app to sign in.',
      { details: { setupToken, expiresInSeconds: SETUP_TOKEN_SECONDS } },
    );
  }

  /** The member a setup token (from SECOND_FACTOR_SETUP_REQUIRED) was given to, while it still needs one. */
  private async setupTokenUser(setupToken: string): Promise<UserRecord> {
    const claims = await this.verifyJwt(setupToken, 'totp-setup');
    const user = await this.repo.user(String(claims.sub));
    if (!user || user.signInGeneration !== claims.gen)
      throw invalidToken('This set-up has ended: sign in again.');
    refuseSuspended(user);
    if (user.totpEnabledAt) throw new AppError('CONFLICT', 'The second factor is on already: sign in.');
    return user;
  }

  /** POST /auth/second-factor-setup/start: a new secret to scan, for a member whose team requires one. */
  async startRequiredSecondFactor(setupToken: string): Promise<TotpSetupResponse> {
    const user = await this.setupTokenUser(setupToken);
    const secret = this.secondFactor.newSecret();
    if (!(await this.repo.setPendingTotp(user.id, this.secondFactor.encrypt(secret))))
      throw new AppError('CONFLICT', 'The second factor is on already.');
    return { secret, otpauthUrl: this.secondFactor.otpauthUrl(secret, user.email) };
  }

  /** POST /auth/second-factor-setup/finish: the first code turns the factor on; answers recovery codes and an id token. */
  async finishRequiredSecondFactor(
    setupToken: string,
    code: string,
  ): Promise<RecoveryCodesResponse & IdTokenResponse> {
    const user = await this.setupTokenUser(setupToken);
    const auth: Authenticated = {
      user,
      planType: 'NONE',
      session: null,
      tokenId: null,
      scopes: null,
      provider: 'password',
    };
    const { recoveryCodes } = await this.enableTotp(auth, code);
    return { recoveryCodes, ...(await this.idToken((await this.repo.user(user.id))!, 'password')) };
  }

  /** A team member's plan is their team's: the manager's (spec §4: limits and plan follow the manager). */
  private async planOf(user: UserRecord): Promise<PlanType> {
    const team = user.managerId ? ((await this.repo.user(user.managerId)) ?? user) : user;
    return planOf(team, this.now());
  }

  /** The spec §3 auth state of a request. */
  state(auth: Authenticated | null): AuthState {
    if (!auth)
      return {
        user: null,
        planType: 'NONE',
        payingUser: false,
        managerId: null,
        lastLogin: null,
        currentSignInProvider: null,
        authorization: { managerId: null, permissions: [] },
        sessionExpireTimestamp: null,
        chosenPlan: null,
      };
    const { user } = auth;
    return {
      user: { uid: user.id, email: user.email, displayName: user.firstname, locale: user.locale },
      planType: auth.planType,
      payingUser: isPayingPlan(auth.planType),
      managerId: user.managerId,
      lastLogin: user.lastLoginAt?.toISOString() ?? null,
      currentSignInProvider: auth.provider,
      authorization: { managerId: user.managerId, permissions: permissionsOf(user) },
      sessionExpireTimestamp: auth.session?.expiresAt.getTime() ?? null,
      chosenPlan: user.chosenPlan,
    };
  }

  // --- sessions and tokens of the signed-in user ---------------------------------------------------------

  async sessions(auth: Authenticated): Promise<SessionInfo[]> {
    return (await this.repo.sessions(auth.user.id)).map((s) => ({
      id: s.id,
      deviceId: s.deviceId,
      userAgent: s.userAgent,
      ip: s.ip,
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastUsedAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      current: s.id === auth.session?.id,
    }));
  }

  async revokeSession(
    auth: Authenticated,
    id: string,
    ctx?: Pick<AuthRequestContext, 'ip' | 'userAgent'>,
  ): Promise<void> {
    if (!(await this.repo.revokeSession(auth.user.id, id)))
      throw new AppError('NOT_FOUND', 'No such session (it may have ended already).');
    await this.logSecurity({
      userId: auth.user.id,
      action: 'sessions-revoked',
      actorUserId: auth.user.id,
      ip: ctx?.ip ?? null,
      userAgent: ctx?.userAgent ?? null,
      target: id,
      details: { scope: 'one', revoked: 1 },
    });
  }

  async tokens(auth: Authenticated): Promise<ApiTokenInfo[]> {
    return (await this.repo.tokens(auth.user.id)).map(tokenInfo);
  }

  async createToken(
    auth: Authenticated,
    name: string,
    scopes: readonly ApiTokenScope[] = DEFAULT_API_TOKEN_SCOPES,
    ip: string | null = null,
  ): Promise<ApiTokenCreated> {
    notByApiToken(auth);
    const { token, ...minted } = mintApiToken();
    const record = await this.repo.createToken({ ...minted, userId: auth.user.id, name, scopes });
    await this.apiTokens.securityLog?.record({
      userId: auth.user.id,
      action: 'api-key-created',
      actorUserId: auth.user.id,
      ip,
      target: name,
      details: { tokenId: record.id, scopes: record.scopes },
    });
    return { ...tokenInfo(record), token };
  }

  async revokeToken(auth: Authenticated, id: string, ip: string | null = null): Promise<void> {
    const token = (await this.repo.tokens(auth.user.id)).find((t) => t.id === id);
    if (!token || !(await this.repo.revokeToken(auth.user.id, id)))
      throw new AppError('NOT_FOUND', 'No such token.');
    await this.apiTokens.securityLog?.record({
      userId: auth.user.id,
      action: 'api-key-revoked',
      actorUserId: auth.user.id,
      tokenId: auth.tokenId,
      ip,
      target: token.name,
      details: { tokenId: id },
    });
  }

  // --- second factor -----------------------------------------------------------------------------------

  totpStatus(auth: Authenticated): TotpStatus {
    return { enabled: auth.user.totpEnabledAt !== null, recoveryCodesLeft: auth.user.recoveryCodesLeft };
  }

  /** A new secret to scan; it becomes active once a code from it is confirmed. */
  async setupTotp(auth: Authenticated): Promise<TotpSetupResponse> {
    notByApiToken(auth);
    if (auth.user.totpEnabledAt) throw new AppError('CONFLICT', 'The second factor is on already.');
    const secret = this.secondFactor.newSecret();
    if (!(await this.repo.setPendingTotp(auth.user.id, this.secondFactor.encrypt(secret))))
      throw new AppError('CONFLICT', 'The second factor is on already.');
    return { secret, otpauthUrl: this.secondFactor.otpauthUrl(secret, auth.user.email) };
  }

  async enableTotp(
    auth: Authenticated,
    code: string,
    ctx?: Pick<AuthRequestContext, 'ip' | 'userAgent'>,
  ): Promise<RecoveryCodesResponse> {
    notByApiToken(auth);
    const user = (await this.repo.user(auth.user.id))!;
    if (user.totpEnabledAt) throw new AppError('CONFLICT', 'The second factor is on already.');
    if (!user.totpSecret) throw new AppError('CONFLICT', 'Start the set-up first.');
    await this.limit(`totp:${user.id}`, LIMITS.signInPerAddress);
    const step = this.secondFactor.check(this.secondFactor.decrypt(user.totpSecret), code);
    if (step === null)
      throw new AppError('SECOND_FACTOR_REQUIRED', 'This code is not right.', {
        details: { wrongCode: true },
      });
    const { codes, hashes } = this.secondFactor.recoveryCodes();
    if (!(await this.repo.enableTotp(user.id, step, hashes)))
      throw new AppError('CONFLICT', 'The second factor is on already.');
    await this.logSecurity({
      userId: user.id,
      action: 'second-factor-enabled',
      actorUserId: user.id,
      ip: ctx?.ip ?? null,
      userAgent: ctx?.userAgent ?? null,
    });
    return { recoveryCodes: codes };
  }

  async disableTotp(
    auth: Authenticated,
    password: string,
    ctx?: Pick<AuthRequestContext, 'ip' | 'userAgent'>,
  ): Promise<void> {
    notByApiToken(auth);
    await this.limit(`signin:${auth.user.email.toLowerCase()}`, LIMITS.signInPerAddress);
    if (!auth.user.passwordHash || !(await this.passwords.verify(auth.user.passwordHash, password)))
      throw new AppError('INVALID_CREDENTIALS', 'The password is not right.');
    await this.repo.disableTotp(auth.user.id);
    await this.logSecurity({
      userId: auth.user.id,
      action: 'second-factor-disabled',
      actorUserId: auth.user.id,
      ip: ctx?.ip ?? null,
      userAgent: ctx?.userAgent ?? null,
    });
  }

  async newRecoveryCodes(auth: Authenticated, code: string): Promise<RecoveryCodesResponse> {
    notByApiToken(auth);
    if (!auth.user.totpEnabledAt) throw new AppError('CONFLICT', 'The second factor is off.');
    await this.limit(`totp:${auth.user.id}`, LIMITS.signInPerAddress);
    if (!/^\d{6}$/.test(code) || !(await this.secondFactorAccepts(auth.user, code)))
      throw new AppError('SECOND_FACTOR_REQUIRED', 'This code is not right.', {
        details: { wrongCode: true },
      });
    const { codes, hashes } = this.secondFactor.recoveryCodes();
    await this.repo.setRecoveryCodes(auth.user.id, hashes);
    return { recoveryCodes: codes };
  }

  /** A TOTP code (each time step once) or an unused recovery code. */
  private async secondFactorAccepts(user: UserRecord, code: string): Promise<boolean> {
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed)) {
      if (!user.totpSecret) return false;
      const step = this.secondFactor.check(this.secondFactor.decrypt(user.totpSecret), trimmed);
      return step !== null && (await this.repo.acceptTotpStep(user.id, step));
    }
    return this.repo.consumeRecoveryCode(user.id, hashRecoveryCode(trimmed));
  }

  // --- lookups -------------------------------------------------------------------------------------------

  /** GET /user/auth/has-active-account/{email}: a boolean only (spec §5). */
  async hasActiveAccount(email: string, ctx: AuthRequestContext): Promise<boolean> {
    await this.limit(`lookup-ip:${ctx.ip}`, LIMITS.lookupsPerClient);
    return Boolean((await this.repo.userByEmail(email))?.emailVerifiedAt);
  }

  async providersByEmail(email: string, ctx: AuthRequestContext): Promise<string[]> {
    await this.limit(`lookup-ip:${ctx.ip}`, LIMITS.lookupsPerClient);
    const user = await this.repo.userByEmail(email);
    if (!user?.emailVerifiedAt) return [];
    const linked = await this.repo.identityProviders(user.id);
    return user.passwordHash ? ['password', ...linked] : linked;
  }

  // --- internals -----------------------------------------------------------------------------------------

  /** An id token for an account another service has just proven (a team invitation accepted). */
  async idTokenForAccount(user: UserRecord): Promise<IdTokenResponse> {
    refuseSuspended(user);
    return this.idToken(user, 'password');
  }

  private async idToken(user: UserRecord, provider: string): Promise<IdTokenResponse> {
    const iat = Math.floor(this.now().getTime() / 1000);
    const exp = iat + ID_TOKEN_SECONDS;
    const idToken = await new SignJWT({
      typ: 'id',
      user_id: user.id,
      email: user.email,
      sign_in_provider: provider,
      gen: user.signInGeneration,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { idToken, expiresAt: new Date(exp * 1000).toISOString() };
  }

  private async sessionToken(
    user: UserRecord,
    sid: string,
    provider: string,
    issuedAt: Date,
    expiresAt: Date,
  ): Promise<string> {
    const claims: Omit<SessionClaims, 'iat' | 'exp'> & { typ: 'session' } = {
      typ: 'session',
      user_id: user.id,
      email: user.email,
      name: user.firstname,
      plan_type: await this.planOf(user),
      manager_id: user.managerId,
      authorization: { manager_id: user.managerId, permissions: permissionsOf(user) },
      sid,
      sign_in_provider: provider,
    };
    // iat and exp from the one instant the session began (jose's own clock is read later, maybe a second on)
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  private async verifyJwt(
    token: string | undefined,
    typ: 'id' | 'session' | 'totp-setup',
  ): Promise<Record<string, unknown>> {
    // Spec §5: a session or id token has at least three dot-separated parts.
    if (!token || token.split('.').length < 3) throw invalidToken('Unexpected token format.');
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      if (payload.typ !== typ) throw invalidToken(`Not ${typ === 'id' ? 'an id' : 'a session'} token.`);
      return payload;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired)
        throw invalidToken('This token has expired: sign in again.');
      throw invalidToken();
    }
  }

  /** Mails a one-time link; a verification link carries the sign-up it activates (none: the account's). */
  private async sendLink(
    user: UserRecord,
    purpose: 'verify_email' | 'reset_password',
    ctx: AuthRequestContext,
    signUp: SignUpChoice | null = null,
  ) {
    await this.limit(`mail:${user.email.toLowerCase()}`, LIMITS.mailsPerAddress);
    const token = randomToken(32);
    const hash = sha256Hex(token);
    const hours = purpose === 'verify_email' ? VERIFY_LINK_HOURS : RESET_LINK_HOURS;
    const expiresAt = new Date(this.now().getTime() + hours * 3_600_000);
    await this.repo.createLink(hash, user.id, purpose, expiresAt, signUp);
    const page = purpose === 'verify_email' ? 'verify-email' : 'reset-password';
    const render = purpose === 'verify_email' ? emailVerification : passwordReset;
    const rendered = await render(
      { locale: user.locale, productName: this.productName },
      { url: `${ctx.origin}/${page}?token=${token}`, validHours: hours },
    );
    await this.mail.enqueue({
      to: [user.email],
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      idempotencyKey: `${purpose === 'verify_email' ? 'verify' : 'reset'}-${user.id}-${hash.slice(0, 16)}`,
    });
  }

  private async limit(key: string, rule: { limit: number; windowSeconds: number }): Promise<void> {
    const hit = await this.limiter.hit(key, rule.limit, rule.windowSeconds);
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many attempts; wait before trying again.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.passwords.hash(randomToken(16));
    return this.dummyHash;
  }
}

/**
 * An API token acts for scripts within the account (or, a team token, the team); it does not create other tokens,
 * mint a browser session (id token) or change the second factor, so a leaked token cannot outlive its own
 * revocation.
 */
export function notByApiToken(auth: Authenticated): void {
  if (auth.tokenId)
    throw new AppError('FORBIDDEN', 'An API token cannot do this: sign in in the browser.', {
      details: { reason: 'API_TOKEN_NOT_ALLOWED' },
    });
}

/** A new `fry_` token: the secret (shown once), its id, the prefix shown to recognise it and the hash kept. */
export function mintApiToken(): { token: string; id: string; prefix: string; tokenHash: string } {
  const token = `${API_TOKEN_PREFIX}${randomToken(24)}`;
  return {
    token,
    id: randomAlphanumeric(12),
    prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
    tokenHash: sha256Hex(token),
  };
}

export function tokenInfo(t: {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiTokenScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
}) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scopes: t.scopes,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  };
}
