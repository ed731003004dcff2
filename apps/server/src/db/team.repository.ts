import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** The owners whose transfers count for a team: its manager and the users whose manager_id points at it. */
const TEAM_OWNERS = `SELECT id FROM users WHERE id = $1 OR manager_id = $1`;

/**
 * Usage summed over a team (spec §6: "the manager id identifies the owner for team-wide calls"). A team is its
 * manager's uid; an account without a manager and without members is a team of one, so these sums are then the
 * account's own.
 */
export class PgTeamRepository {
  constructor(private readonly db: Queryable) {}

  /** Bytes handed out by download links of the team's transfers since `since`. */
  async downloadedBytesSince(teamId: string, since: Date): Promise<number> {
    const { rows } = await this.db.query<{ bytes: number }>(
      `SELECT coalesce(sum(d.bytes), 0)::float8 AS bytes
         FROM downloads d JOIN transfers t ON t.id = d.transfer_id
        WHERE t.owner_id IN (${TEAM_OWNERS}) AND d.created_at > $2`,
      [teamId, since],
    );
    return rows[0]?.bytes ?? 0;
  }

  /** The policy overrides of a member's user group (empty when in none). */
  async groupOverridesOf(userId: string): Promise<Record<string, unknown>> {
    const { rows } = await this.db.query<{ overrides: Record<string, unknown> }>(
      `SELECT g.overrides FROM users u JOIN user_groups g ON g.id = u.group_id AND g.team_id = u.manager_id
        WHERE u.id = $1`,
      [userId],
    );
    return rows[0]?.overrides ?? {};
  }

  /** The accounts of the team, its manager first, then its members (disabled ones too) by address. */
  async accounts(teamId: string): Promise<Array<{ id: string; email: string }>> {
    const { rows } = await this.db.query<{ id: string; email: string }>(
      `SELECT id, email FROM users WHERE id = $1 OR manager_id = $1 ORDER BY id <> $1, lower(email), id`,
      [teamId],
    );
    return rows;
  }

  /** The accounts of the team: its manager and its members. */
  async memberCount(teamId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${TEAM_OWNERS}) team`,
      [teamId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Transfers created and bytes downloaded per UTC day since `since` (days without any are absent). */
  async activitySince(
    teamId: string,
    since: Date,
  ): Promise<Array<{ date: string; transfersCreated: number; bytesDownloaded: number }>> {
    const { rows } = await this.db.query<{ date: string; transfers: number; bytes: number }>(
      `SELECT date, sum(transfers)::int AS transfers, sum(bytes)::float8 AS bytes FROM (
         SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, 1 AS transfers, 0 AS bytes
           FROM transfers WHERE owner_id IN (${TEAM_OWNERS}) AND created_at >= $2
         UNION ALL
         SELECT to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, coalesce(d.bytes, 0)
           FROM downloads d JOIN transfers t ON t.id = d.transfer_id
          WHERE t.owner_id IN (${TEAM_OWNERS}) AND d.created_at >= $2) a
        GROUP BY date`,
      [teamId, since],
    );
    return rows.map((r) => ({ date: r.date, transfersCreated: r.transfers, bytesDownloaded: r.bytes }));
  }
}
