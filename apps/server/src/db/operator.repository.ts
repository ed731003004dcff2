import type pg from 'pg';
import type { UserRecord } from './account.repository.js';
import { type OperatorActionInput, PgOperatorLog } from './operator-log.repository.js';

/** Where a page of the users list stopped: the last row's address (lower case) and uid. */
export interface UserCursor {
  email: string;
  id: string;
}

export interface AccountCounts {
  accounts: number;
  payingAccounts: number;
  suspendedAccounts: number;
}

const USER = `id, email, email_verified_at AS "emailVerifiedAt", firstname, plan_type AS "planType",
  plan_code AS "planCode", plan_ends_at AS "planEndsAt", suspended_at AS "suspendedAt", manager_id AS "managerId",
  last_login_at AS "lastLoginAt", created_at AS "createdAt", limit_settings AS "limitSettings"`;

/** The columns of a user the operator console shows. */
export type OperatorUserRecord = Pick<
  UserRecord,
  | 'id'
  | 'email'
  | 'emailVerifiedAt'
  | 'firstname'
  | 'planType'
  | 'planCode'
  | 'planEndsAt'
  | 'suspendedAt'
  | 'managerId'
  | 'lastLoginAt'
  | 'createdAt'
  | 'limitSettings'
>;

/** `%`, `_` and `\` taken literally inside a LIKE pattern. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The operators' view of the accounts and their changes to them. A change and its journal row are one
 * transaction: either both are stored or neither.
 */
export class PgOperatorRepository {
  private readonly log: PgOperatorLog;

  constructor(private readonly pool: pg.Pool) {
    this.log = new PgOperatorLog(pool);
  }

  /** Accounts by address (then uid), those whose address or first name contains `search` (any case). */
  async users(options: {
    search?: string | undefined;
    after?: UserCursor | null;
    limit: number;
  }): Promise<OperatorUserRecord[]> {
    const search = options.search ? `%${likeLiteral(options.search.toLowerCase())}%` : null;
    const { rows } = await this.pool.query<OperatorUserRecord>(
      `SELECT ${USER} FROM users
        WHERE ($1::text IS NULL OR lower(email) LIKE $1 OR lower(coalesce(firstname, '')) LIKE $1)
          AND ($2::text IS NULL OR (lower(email), id) > ($2, $3))
        ORDER BY lower(email), id
        LIMIT $4`,
      [search, options.after?.email ?? null, options.after?.id ?? '', options.limit],
    );
    return rows;
  }

  async user(id: string): Promise<OperatorUserRecord | null> {
    const { rows } = await this.pool.query<OperatorUserRecord>(`SELECT ${USER} FROM users WHERE id = $1`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Suspends an account: marks it, voids its id tokens and ends its sessions, and journals it. False when it
   * was suspended already (nothing changes, nothing is journaled). API tokens are kept: they are refused while
   * the account is suspended and work again once it is not.
   */
  async suspend(userId: string, entry: OperatorActionInput): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE users SET suspended_at = now(), sign_in_generation = sign_in_generation + 1, updated_at = now()
          WHERE id = $1 AND suspended_at IS NULL`,
        [userId],
      );
      if (rowCount !== 1) return false;
      const revoked = await tx.query(
        `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
        [userId],
      );
      await this.log.record(
        { ...entry, details: { ...entry.details, sessionsEnded: revoked.rowCount ?? 0 } },
        tx,
      );
      return true;
    });
  }

  /** Lifts a suspension and journals it; false when the account was not suspended. */
  async unsuspend(userId: string, entry: OperatorActionInput): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE users SET suspended_at = NULL, updated_at = now() WHERE id = $1 AND suspended_at IS NOT NULL`,
        [userId],
      );
      if (rowCount !== 1) return false;
      await this.log.record(entry, tx);
      return true;
    });
  }

  /** Verified accounts, those on a paying plan, and those suspended. */
  async accountCounts(): Promise<AccountCounts> {
    const { rows } = await this.pool.query<AccountCounts>(
      `SELECT count(*)::int AS accounts,
              count(*) FILTER (WHERE plan_type <> 'NONE')::int AS "payingAccounts",
              count(*) FILTER (WHERE suspended_at IS NOT NULL)::int AS "suspendedAccounts"
         FROM users WHERE email_verified_at IS NOT NULL`,
    );
    return rows[0] ?? { accounts: 0, payingAccounts: 0, suspendedAccounts: 0 };
  }

  journal(): PgOperatorLog {
    return this.log;
  }

  private async inTransaction<T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
    const tx = await this.pool.connect();
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query('COMMIT');
      return result;
    } catch (error) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      tx.release();
    }
  }
}
