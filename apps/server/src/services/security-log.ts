import type { SecurityAction } from '@ferry/core';
import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';

export type Queryable = Pick<pg.Pool, 'query'>;

/**
 * A Drizzle database or transaction as the `db` of record(): the entry is written in that transaction. The
 * statement's `$n` placeholders become Drizzle parameters.
 */
export function drizzleQueryable(db: { execute(query: SQL): PromiseLike<unknown> }): Queryable {
  const query = async (text: string, values: unknown[] = []) => {
    const parts = text.split(/\$(\d+)/);
    const chunks: SQL[] = parts.map((part, i) =>
      i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`,
    );
    return db.execute(sql.join(chunks));
  };
  return { query } as unknown as Queryable;
}

/** One action for a team's security log. */
export interface SecurityEvent {
  /** Whose team the entry belongs to: the account acted on or acting (its manager's team, or its own). */
  userId: string;
  action: SecurityAction;
  /** The acting account (null: nobody signed in, e.g. a failed sign-in or a downloader). */
  actorUserId?: string | null;
  /**
   * The actor as shown, when it is not the account's e-mail: an API token's name, a typed address. A team token's
   * name is found from `tokenId` (a team token acts as the manager's account but is not the manager).
   */
  actorLabel?: string | null;
  tokenId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  target?: string | null;
  details?: Record<string, unknown>;
}

/** Where services write security events (services/security-log.ts); listing and export live with the team admin. */
export interface SecurityLog {
  /** Pass a transaction's client as `db` when the entry must stand or fall with the change it records. */
  record(event: SecurityEvent, db?: Queryable): Promise<void>;
}

/**
 * Writes one row per event, in the team of `userId` (its manager's uid, or its own). An unknown `userId` writes
 * nothing (a failed sign-in for an address without an account belongs to no team).
 */
export class PgSecurityLog implements SecurityLog {
  constructor(private readonly pool: Queryable) {}

  async record(event: SecurityEvent, db: Queryable = this.pool): Promise<void> {
    await db.query(
      `INSERT INTO security_log (team_id, actor_user_id, actor_label, token_id, action, ip, user_agent, target, details)
       SELECT coalesce(u.manager_id, u.id), $2,
              coalesce($3, (SELECT tk.name FROM api_tokens tk WHERE tk.id = $4 AND tk.team), a.email),
              $4, $5, $6, $7, $8, $9
         FROM users u LEFT JOIN users a ON a.id = $2
        WHERE u.id = $1`,
      [
        event.userId,
        event.actorUserId ?? null,
        event.actorLabel ?? null,
        event.tokenId ?? null,
        event.action,
        event.ip ?? null,
        event.userAgent?.slice(0, 500) ?? null,
        event.target ?? null,
        JSON.stringify(event.details ?? {}),
      ],
    );
  }
}
