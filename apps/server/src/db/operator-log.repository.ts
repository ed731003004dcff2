import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export interface OperatorActionInput {
  operatorId: string;
  operatorEmail: string;
  /** A fixed word per kind of change: set-plan, suspend, unsuspend, mark-paid, void-invoice… */
  action: string;
  target: string | null;
  targetUserId?: string | null;
  details?: Record<string, unknown>;
}

export interface OperatorActionRecord {
  id: number;
  at: Date;
  operatorId: string;
  operatorEmail: string;
  action: string;
  target: string | null;
  targetUserId: string | null;
  details: Record<string, unknown>;
}

/** The operators' journal: every change an operator makes is one row, written in the change's transaction. */
export class PgOperatorLog {
  constructor(private readonly db: Queryable) {}

  /** Pass the transaction's client as `db` so the entry stands or falls with the change. */
  async record(entry: OperatorActionInput, db: Queryable = this.db): Promise<void> {
    await db.query(
      `INSERT INTO operator_actions (operator_id, operator_email, action, target, target_user_id, details)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        entry.operatorId,
        entry.operatorEmail,
        entry.action,
        entry.target,
        entry.targetUserId ?? null,
        JSON.stringify(entry.details ?? {}),
      ],
    );
  }

  /** Newest first; `before` is the id of the last row of the previous page. */
  async list(options: {
    before?: number;
    limit: number;
    targetUserId?: string;
  }): Promise<OperatorActionRecord[]> {
    const { rows } = await this.db.query<OperatorActionRecord>(
      `SELECT id::float8 AS id, at, operator_id AS "operatorId", operator_email AS "operatorEmail", action, target,
              target_user_id AS "targetUserId", details
         FROM operator_actions
        WHERE ($1::bigint IS NULL OR id < $1) AND ($2::text IS NULL OR target_user_id = $2)
        ORDER BY id DESC
        LIMIT $3`,
      [options.before ?? null, options.targetUserId ?? null, options.limit],
    );
    return rows;
  }
}
