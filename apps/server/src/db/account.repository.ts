import type { ApiTokenScope, ChosenPlan, Permission, PlanCode, PlanType } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export interface UserRecord {
  id: string;
  email: string;
  emailVerifiedAt: Date | null;
  passwordHash: string | null;
  firstname: string | null;
  locale: string | null;
  planType: PlanType;
  managerId: string | null;
  permissions: Permission[];
  chosenPlan: ChosenPlan | null;
  lastLoginAt: Date | null;
  lastSignInProvider: string | null;
  createdAt: Date;
  /** Encrypted; set at setup, active once totpEnabledAt is set. */
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  totpLastStep: number | null;
  recoveryCodesLeft: number;
  /** Bumped by a password change, a reset and "sign out everywhere": id tokens minted before are void. */
  signInGeneration: number;
  planCode: PlanCode | null;
  /** The plan falls back to NONE then; null: no end. */
  planEndsAt: Date | null;
  /** Set while an operator has the account suspended. */
  suspendedAt: Date | null;
  /** Set while the team's manager has this member disabled. */
  teamDisabledAt: Date | null;
  limitSettings: {
    /** Seats of a contract (CUSTOM): overrides the plan code's (core teamLicences). */
    licences?: number | null;
    forcedFileValidityInDays?: number | null;
    forcedRegion?: string | null;
    disableSSEC?: boolean;
  };
  /** Stored user settings (spec §3), merged over the defaults when read (see services/user.service.ts). */
  settings: Record<string, unknown>;
}

export interface SessionRecord {
  id: string;
  userId: string;
  deviceId: string | null;
  userAgent: string | null;
  ip: string | null;
  provider: string;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** What one sign-up chose; its verification link activates exactly this. */
export interface SignUpChoice {
  passwordHash: string;
  firstname: string | null;
  locale: string | null;
  chosenPlan: ChosenPlan | null;
}

export interface ApiTokenRecord {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: ApiTokenScope[];
  /** A team token (made by the manager for the team; `userId` is the manager). */
  team: boolean;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const USER = `id, email, email_verified_at AS "emailVerifiedAt", password_hash AS "passwordHash", firstname, locale,
  plan_type AS "planType", plan_code AS "planCode", plan_ends_at AS "planEndsAt",
  suspended_at AS "suspendedAt", team_disabled_at AS "teamDisabledAt", manager_id AS "managerId", permissions, chosen_plan AS "chosenPlan",
  last_login_at AS "lastLoginAt", last_sign_in_provider AS "lastSignInProvider", created_at AS "createdAt",
  totp_secret AS "totpSecret", totp_enabled_at AS "totpEnabledAt", totp_last_step::float8 AS "totpLastStep",
  cardinality(recovery_codes) AS "recoveryCodesLeft", sign_in_generation AS "signInGeneration", limit_settings AS "limitSettings", settings`;
const SESSION = `id, user_id AS "userId", device_id AS "deviceId", user_agent AS "userAgent", ip, provider,
  created_at AS "createdAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt", revoked_at AS "revokedAt"`;
const TOKEN = `id, user_id AS "userId", name, prefix, scopes, team, created_by AS "createdBy",
  created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

/** Users, their sessions, API tokens and one-time links; every change is one conditional statement. */
export class PgAccountRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * A team account's seat, from 1: the manager first, then the members in the order they joined (their
   * accounts' age, then id). Null when the user is not in that team.
   */
  async teamSeat(userId: string, teamId: string): Promise<number | null> {
    const { rows } = await this.db.query<{ seat: number }>(
      `SELECT seat::int FROM (
         SELECT id, row_number() OVER (ORDER BY (id = $2) DESC, created_at, id) AS seat
           FROM users WHERE id = $2 OR manager_id = $2) team
        WHERE id = $1`,
      [userId, teamId],
    );
    return rows[0]?.seat ?? null;
  }

  async userByEmail(email: string): Promise<UserRecord | null> {
    const { rows } = await this.db.query<UserRecord>(
      `SELECT ${USER} FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] ?? null;
  }

  async user(id: string): Promise<UserRecord | null> {
    const { rows } = await this.db.query<UserRecord>(`SELECT ${USER} FROM users WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Creates an unverified user; null when the address is taken (by anyone, verified or not). */
  async createUser(user: {
    id: string;
    email: string;
    passwordHash: string;
    firstname: string | null;
    locale: string | null;
    chosenPlan: ChosenPlan | null;
  }): Promise<UserRecord | null> {
    const { rows } = await this.db.query<UserRecord>(
      `INSERT INTO users (id, email, password_hash, firstname, locale, chosen_plan)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING
       RETURNING ${USER}`,
      [user.id, user.email, user.passwordHash, user.firstname, user.locale, user.chosenPlan],
    );
    return rows[0] ?? null;
  }

  /** The address is proven (a reset link followed): pending verification links, and their sign-ups, are void. */
  async markVerified(id: string): Promise<void> {
    await this.db.query(
      `WITH verified AS (
         UPDATE users SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now()
          WHERE id = $1 RETURNING id)
       UPDATE auth_links SET used_at = now()
        WHERE user_id IN (SELECT id FROM verified) AND purpose = 'verify_email' AND used_at IS NULL`,
      [id],
    );
  }

  /**
   * Follows a verification link: the account becomes verified with the sign-up that link was mailed for (its
   * password, name, language, plan; a link without one keeps the account's), and every other pending link of
   * the account is void. One statement, so of two links followed at once only one wins. Null when the link is
   * unknown, used, expired, or the account was verified meanwhile.
   */
  async verifySignUp(tokenHash: string): Promise<string | null> {
    const { rows } = await this.db.query<{ userId: string }>(
      `WITH link AS (
         UPDATE auth_links SET used_at = now()
          WHERE token_hash = $1 AND purpose = 'verify_email' AND used_at IS NULL AND expires_at > now()
          RETURNING user_id, sign_up),
       verified AS (
         UPDATE users u SET email_verified_at = now(),
                password_hash = CASE WHEN link.sign_up IS NULL THEN u.password_hash
                                     ELSE link.sign_up->>'passwordHash' END,
                firstname = coalesce(link.sign_up->>'firstname', u.firstname),
                locale = coalesce(link.sign_up->>'locale', u.locale),
                chosen_plan = coalesce(nullif(link.sign_up->'chosenPlan', 'null'::jsonb), u.chosen_plan),
                updated_at = now()
           FROM link
          WHERE u.id = link.user_id AND u.email_verified_at IS NULL
          RETURNING u.id),
       voided AS (
         UPDATE auth_links SET used_at = now()
          WHERE user_id IN (SELECT id FROM verified) AND purpose = 'verify_email' AND used_at IS NULL
            AND token_hash <> $1)
       SELECT id AS "userId" FROM verified`,
      [tokenHash],
    );
    return rows[0]?.userId ?? null;
  }

  /**
   * Voids every id token minted so far (a password change, a reset, "sign out everywhere"). Called before the
   * sessions are revoked: a session-cookie call racing with it either ran first (and its session is revoked
   * next) or sees the new value (see createSession).
   */
  async bumpSignInGeneration(id: string): Promise<void> {
    await this.db.query(
      'UPDATE users SET sign_in_generation = sign_in_generation + 1, updated_at = now() WHERE id = $1',
      [id],
    );
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [
      id,
      passwordHash,
    ]);
  }

  /** Replaces the password only while it is still `currentHash`: false when it changed meanwhile. */
  async replacePassword(id: string, currentHash: string, passwordHash: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE users SET password_hash = $3, updated_at = now() WHERE id = $1 AND password_hash = $2`,
      [id, currentHash, passwordHash],
    );
    return rowCount === 1;
  }

  async recordSignIn(id: string, provider: string): Promise<void> {
    await this.db.query(`UPDATE users SET last_login_at = now(), last_sign_in_provider = $2 WHERE id = $1`, [
      id,
      provider,
    ]);
  }

  /** `firstname` and `locale` are left as they are when undefined. */
  async setProfile(
    id: string,
    firstname: string | null | undefined,
    settings: Record<string, unknown>,
    locale?: string,
  ) {
    await this.db.query(
      `UPDATE users SET firstname = CASE WHEN $2 THEN $3 ELSE firstname END, settings = $4,
          locale = COALESCE($5, locale), updated_at = now()
        WHERE id = $1`,
      [id, firstname !== undefined, firstname ?? null, settings, locale ?? null],
    );
  }

  async setLimitSettings(id: string, settings: UserRecord['limitSettings']): Promise<void> {
    await this.db.query(`UPDATE users SET limit_settings = $2, updated_at = now() WHERE id = $1`, [
      id,
      settings,
    ]);
  }

  // --- second factor -----------------------------------------------------------------------------------

  /** Keeps a new secret until it is confirmed; only while no second factor is active. */
  async setPendingTotp(id: string, encryptedSecret: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE users SET totp_secret = $2, updated_at = now() WHERE id = $1 AND totp_enabled_at IS NULL`,
      [id, encryptedSecret],
    );
    return rowCount === 1;
  }

  async enableTotp(id: string, step: number, recoveryHashes: string[]): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE users SET totp_enabled_at = now(), totp_last_step = $2, recovery_codes = $3, updated_at = now()
        WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret IS NOT NULL`,
      [id, step, recoveryHashes],
    );
    return rowCount === 1;
  }

  async disableTotp(id: string): Promise<void> {
    await this.db.query(
      `UPDATE users SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL, recovery_codes = '{}',
              updated_at = now()
        WHERE id = $1`,
      [id],
    );
  }

  /** Accepts a time step once: false when this or a later step was already used (a replayed code). */
  async acceptTotpStep(id: string, step: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [id, step],
    );
    return rowCount === 1;
  }

  /** Uses a recovery code once. */
  async consumeRecoveryCode(id: string, hash: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE users SET recovery_codes = array_remove(recovery_codes, $2) WHERE id = $1 AND $2 = ANY(recovery_codes)`,
      [id, hash],
    );
    return rowCount === 1;
  }

  async setRecoveryCodes(id: string, hashes: string[]): Promise<void> {
    await this.db.query(`UPDATE users SET recovery_codes = $2, updated_at = now() WHERE id = $1`, [
      id,
      hashes,
    ]);
  }

  // --- one-time links ------------------------------------------------------------------------------------

  /** A one-time link; a verification link may carry the sign-up it activates (null: the account's as it is). */
  async createLink(
    tokenHash: string,
    userId: string,
    purpose: 'verify_email' | 'reset_password',
    expiresAt: Date,
    signUp: SignUpChoice | null = null,
  ) {
    await this.db.query(
      `INSERT INTO auth_links (token_hash, user_id, purpose, expires_at, sign_up) VALUES ($1, $2, $3, $4, $5)`,
      [tokenHash, userId, purpose, expiresAt, signUp],
    );
  }

  /** The user of a live link, without using it (a reset waiting for the second factor). */
  async linkUser(tokenHash: string, purpose: 'verify_email' | 'reset_password'): Promise<string | null> {
    const { rows } = await this.db.query<{ userId: string }>(
      `SELECT user_id AS "userId" FROM auth_links
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`,
      [tokenHash, purpose],
    );
    return rows[0]?.userId ?? null;
  }

  /** Uses a link once: the user it belongs to, or null when unknown, used, expired or for another purpose. */
  async consumeLink(tokenHash: string, purpose: 'verify_email' | 'reset_password'): Promise<string | null> {
    const { rows } = await this.db.query<{ userId: string }>(
      `UPDATE auth_links SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id AS "userId"`,
      [tokenHash, purpose],
    );
    return rows[0]?.userId ?? null;
  }

  // --- sessions ------------------------------------------------------------------------------------------

  /**
   * Records a session; with `generation` (an id token's), only while the account's sign-in generation is still
   * that value: false otherwise. The user row is share-locked, so a concurrent bump waits for this insert (and
   * the revocation after the bump sees the session) or this insert sees the bump.
   */
  async createSession(
    session: Omit<SessionRecord, 'createdAt' | 'lastUsedAt' | 'revokedAt'>,
    generation: number | null = null,
  ): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO sessions (id, user_id, device_id, user_agent, ip, provider, expires_at)
       SELECT $1, u.id, $3, $4, $5, $6, $7 FROM users u
        WHERE u.id = $2 AND ($8::int IS NULL OR u.sign_in_generation = $8::int)
        FOR SHARE`,
      [
        session.id,
        session.userId,
        session.deviceId,
        session.userAgent,
        session.ip,
        session.provider,
        session.expiresAt,
        generation,
      ],
    );
    return rowCount === 1;
  }

  /** A live session (not revoked, not expired), marking its use at most once a minute. */
  async liveSession(id: string): Promise<SessionRecord | null> {
    const { rows } = await this.db.query<SessionRecord>(
      `SELECT ${SESSION} FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [id],
    );
    const session = rows[0];
    if (session && Date.now() - session.lastUsedAt.getTime() > 60_000)
      await this.db.query('UPDATE sessions SET last_used_at = now() WHERE id = $1', [id]);
    return session ?? null;
  }

  async sessions(userId: string): Promise<SessionRecord[]> {
    const { rows } = await this.db.query<SessionRecord>(
      `SELECT ${SESSION} FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
        ORDER BY last_used_at DESC`,
      [userId],
    );
    return rows;
  }

  /** Revokes one session of this user; false when it is not theirs or already ended. */
  async revokeSession(userId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE sessions SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`,
      [id, userId],
    );
    return rowCount === 1;
  }

  async revokeAllSessions(userId: string): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [userId],
    );
    return rowCount ?? 0;
  }

  /** Revokes every live session of this user but `keepId` (the caller's own; null: every one). */
  async revokeOtherSessions(userId: string, keepId: string | null): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE sessions SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() AND id IS DISTINCT FROM $2`,
      [userId, keepId],
    );
    return rowCount ?? 0;
  }

  // --- API tokens ----------------------------------------------------------------------------------------

  async createToken(token: {
    id: string;
    userId: string;
    name: string;
    prefix: string;
    tokenHash: string;
    scopes: readonly ApiTokenScope[];
    /** A team token, and who made it. */
    team?: boolean;
    createdBy?: string;
  }) {
    const { rows } = await this.db.query<ApiTokenRecord>(
      `INSERT INTO api_tokens (id, user_id, name, prefix, token_hash, scopes, team, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING ${TOKEN}`,
      [
        token.id,
        token.userId,
        token.name,
        token.prefix,
        token.tokenHash,
        token.scopes,
        token.team ?? false,
        token.createdBy ?? token.userId,
      ],
    );
    return rows[0]!;
  }

  /** The live personal tokens of an account (`team`: its team tokens instead, for a manager). */
  async tokens(userId: string, team = false): Promise<ApiTokenRecord[]> {
    const { rows } = await this.db.query<ApiTokenRecord>(
      `SELECT ${TOKEN} FROM api_tokens WHERE user_id = $1 AND team = $2 AND revoked_at IS NULL ORDER BY created_at`,
      [userId, team],
    );
    return rows;
  }

  /** The live token with this hash, marking its use at most once a minute. */
  async liveToken(tokenHash: string): Promise<ApiTokenRecord | null> {
    const { rows } = await this.db.query<ApiTokenRecord>(
      `SELECT ${TOKEN} FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
      [tokenHash],
    );
    const token = rows[0];
    if (token && (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > 60_000))
      await this.db.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [token.id]);
    return token ?? null;
  }

  async revokeToken(userId: string, id: string, team = false): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND team = $3 AND revoked_at IS NULL`,
      [id, userId, team],
    );
    return rowCount === 1;
  }

  // --- OpenID Connect identities -------------------------------------------------------------------------

  /** The user a provider's subject was linked to. */
  async userByIdentity(provider: string, subject: string): Promise<UserRecord | null> {
    const { rows } = await this.db.query<UserRecord>(
      `SELECT ${USER} FROM users
        WHERE id = (SELECT user_id FROM user_identities WHERE provider = $1 AND subject = $2)`,
      [provider, subject],
    );
    return rows[0] ?? null;
  }

  /** Links a provider's subject to a user; a subject linked already keeps its user (the first link wins). */
  async linkIdentity(identity: { provider: string; subject: string; userId: string; email: string | null }) {
    await this.db.query(
      `INSERT INTO user_identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)
       ON CONFLICT (provider, subject) DO NOTHING`,
      [identity.provider, identity.subject, identity.userId, identity.email],
    );
  }

  /** The providers linked to a user, by name. */
  async identityProviders(userId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ provider: string }>(
      'SELECT DISTINCT provider FROM user_identities WHERE user_id = $1 ORDER BY provider',
      [userId],
    );
    return rows.map((r) => r.provider);
  }

  /** Creates a user whose address a provider proved, with no password; null when the address is taken. */
  async createVerifiedUser(user: {
    id: string;
    email: string;
    firstname: string | null;
    locale: string | null;
  }): Promise<UserRecord | null> {
    const { rows } = await this.db.query<UserRecord>(
      `INSERT INTO users (id, email, email_verified_at, firstname, locale) VALUES ($1, $2, now(), $3, $4)
       ON CONFLICT DO NOTHING
       RETURNING ${USER}`,
      [user.id, user.email, user.firstname, user.locale],
    );
    return rows[0] ?? null;
  }

  /** The plan picked at sign-up (spec §2 /register), unless the account has one already; never overwrites one. */
  async setChosenPlanIfNone(id: string, plan: ChosenPlan): Promise<void> {
    await this.db.query(
      'UPDATE users SET chosen_plan = $2, updated_at = now() WHERE id = $1 AND chosen_plan IS NULL',
      [id, plan],
    );
  }

  /**
   * A pending sign-up whose address a provider has now proved: verified, and the password chosen by whoever
   * signed up without proving the address is dropped (they may not be its owner). False when verified already.
   */
  async claimUnverified(id: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `WITH claimed AS (
         UPDATE users SET email_verified_at = now(), password_hash = NULL, updated_at = now()
          WHERE id = $1 AND email_verified_at IS NULL RETURNING id),
       voided AS (
         UPDATE auth_links SET used_at = now()
          WHERE user_id IN (SELECT id FROM claimed) AND purpose = 'verify_email' AND used_at IS NULL)
       SELECT id FROM claimed`,
      [id],
    );
    return rows.length === 1;
  }
}
