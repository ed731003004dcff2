import { planTypeOfCode } from '@ferry/core';
import type pg from 'pg';
import type { PlanAssignment, Plans } from './billing-ports.js';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Who holds which plan: users.plan_type (from the code: CUSTOM is ENTERPRISE; none is NONE), plan_code,
 * plan_ends_at and a CUSTOM contract's seats. It deletes nothing: files above the new limits stay until they
 * expire, and new uploads are held to the new plan (LimitsService reads the plan at each upload). Sessions read
 * the plan at each request (AuthService.authenticate), so the next state or id-token call shows the new one.
 */
export class PlanService implements Plans {
  constructor(private readonly db: Queryable) {}

  /** Pass a transaction's client as `db` to assign with other changes (an operator's journal entry). */
  async assign(userId: string, assignment: PlanAssignment, db: Queryable = this.db): Promise<void> {
    const code = assignment.planCode;
    // A CUSTOM contract keeps its seats unless new ones are given; other plans have none of their own.
    const seats = code === 'CUSTOM' ? (assignment.seats ?? undefined) : null;
    await db.query(
      `UPDATE users SET plan_type = $2, plan_code = $3, plan_ends_at = $4,
              limit_settings = CASE WHEN $5::boolean THEN limit_settings
                                    WHEN $6::int IS NULL THEN limit_settings - 'licences'
                                    ELSE jsonb_set(limit_settings, '{licences}', to_jsonb($6::int)) END,
              updated_at = now()
        WHERE id = $1`,
      [
        userId,
        code ? planTypeOfCode(code) : 'NONE',
        code,
        code ? assignment.until : null,
        seats === undefined,
        seats ?? null,
      ],
    );
  }

  /** Plans whose end has passed fall back to NONE; each account once, whichever instance runs it. */
  async endExpired(now: Date): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE users SET plan_type = 'NONE', plan_code = NULL, plan_ends_at = NULL, updated_at = now()
        WHERE plan_ends_at <= $1 RETURNING id`,
      [now],
    );
    return rows.map((r) => r.id);
  }
}
