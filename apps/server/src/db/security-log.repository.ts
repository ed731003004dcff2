import type { SecurityAction, SecurityLogEntry } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** Which entries of one team a listing or an export covers; `before`: ids below it (the keyset cursor). */
export interface SecurityLogFilter {
  teamId: string;
  member?: string | undefined;
  action?: SecurityAction | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  q?: string | undefined;
  before?: number | undefined;
}

interface Row {
  id: string;
  at: Date;
  actor: string | null;
  actor_user_id: string | null;
  action: SecurityAction;
  ip: string | null;
  user_agent: string | null;
  target: string | null;
  details: Record<string, unknown>;
}

/** `%`, `_` and `\` of a searched text are matched as themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Reads, settings and retention of the security_log table (the writes go through services/security-log.ts). */
export class PgSecurityLogRepository {
  constructor(private readonly db: Queryable) {}

  /** Newest first (by id, which follows the insertion order). */
  async list(filter: SecurityLogFilter, limit: number): Promise<SecurityLogEntry[]> {
    const where = ['l.team_id = $1'];
    const params: unknown[] = [filter.teamId];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (filter.member) add((n) => `l.actor_user_id = ${n}`, filter.member);
    if (filter.action) add((n) => `l.action = ${n}`, filter.action);
    if (filter.from) add((n) => `l.at >= ${n}`, filter.from);
    if (filter.to) add((n) => `l.at < ${n}`, filter.to);
    if (filter.before !== undefined) add((n) => `l.id < ${n}`, filter.before);
    if (filter.q)
      add(
        (n) =>
          `(coalesce(l.actor_label, '') ILIKE ${n} OR coalesce(l.target, '') ILIKE ${n} OR coalesce(l.ip, '') ILIKE ${n})`,
        likePattern(filter.q),
      );
    params.push(limit);
    const { rows } = await this.db.query<Row>(
      `SELECT l.id, l.at, l.actor_label AS actor, l.actor_user_id, l.action, l.ip, l.user_agent, l.target, l.details
         FROM security_log l
        WHERE ${where.join(' AND ')}
        ORDER BY l.id DESC
        LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      at: r.at.toISOString(),
      actor: r.actor,
      actorUserId: r.actor_user_id,
      action: r.action,
      ip: r.ip,
      userAgent: r.user_agent,
      target: r.target,
      details: r.details,
    }));
  }

  async retentionDays(teamId: string): Promise<number | null> {
    const { rows } = await this.db.query<{ retention_days: number }>(
      'SELECT retention_days FROM security_log_settings WHERE team_id = $1',
      [teamId],
    );
    return rows[0]?.retention_days ?? null;
  }

  async setRetentionDays(teamId: string, days: number): Promise<void> {
    await this.db.query(
      `INSERT INTO security_log_settings (team_id, retention_days) VALUES ($1, $2)
       ON CONFLICT (team_id) DO UPDATE SET retention_days = excluded.retention_days, updated_at = now()`,
      [teamId, days],
    );
  }

  /** Deletes every team's entries older than its retention (`defaultDays` without a setting); how many went. */
  async purge(now: Date, defaultDays: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM security_log l
        WHERE l.at < $1::timestamptz - make_interval(days => coalesce(
                (SELECT s.retention_days FROM security_log_settings s WHERE s.team_id = l.team_id), $2))`,
      [now, defaultDays],
    );
    return rowCount ?? 0;
  }
}
