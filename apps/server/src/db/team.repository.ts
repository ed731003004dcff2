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
}
