import type { Permission } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export interface InvitationRecord {
  id: string;
  teamId: string;
  email: string;
  permissions: Permission[];
  inviterId: string | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  withdrawnAt: Date | null;
}

export interface MemberRecord {
  id: string;
  email: string;
  firstname: string | null;
  permissions: Permission[];
  lastLoginAt: Date | null;
  teamDisabledAt: Date | null;
  groupId: string | null;
}

export interface GroupRecord {
  id: string;
  name: string;
  overrides: Record<string, unknown>;
  memberIds: string[];
}

const INVITATION = `id, team_id AS "teamId", email, permissions, inviter_id AS "inviterId", created_at AS "createdAt",
  expires_at AS "expiresAt", accepted_at AS "acceptedAt", withdrawn_at AS "withdrawnAt"`;
const PENDING = `accepted_at IS NULL AND withdrawn_at IS NULL AND expires_at > now()`;
/** How many addresses of team $1 have a pending invitation: each holds a seat. */
const PENDING_SEATS = `SELECT count(DISTINCT lower(email)) FROM team_invitations WHERE team_id = $1 AND ${PENDING}`;

/**
 * Team members and invitations (a team is its manager's uid). Seat-changing writes run in `withTeamLock`: the
 * manager's row is locked, so racing invitations count the same seats one after another.
 */
export class PgTeamMembersRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Runs `work` in a transaction holding the team's (manager's) row lock. */
  async withTeamLock<T>(teamId: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [teamId]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** The manager, every member (disabled ones too) and every pending invitation. */
  async seatsUsed(teamId: string, db: Queryable = this.pool): Promise<number> {
    const { rows } = await db.query<{ used: number }>(
      `SELECT (1 + (SELECT count(*) FROM users WHERE manager_id = $1) + (${PENDING_SEATS}))::int AS used`,
      [teamId],
    );
    return rows[0]?.used ?? 1;
  }

  /** The seats pending invitations hold (one per address): the part of {@link seatsUsed} nobody has taken yet. */
  async pendingSeats(teamId: string, db: Queryable = this.pool): Promise<number> {
    const { rows } = await db.query<{ pending: number }>(`SELECT (${PENDING_SEATS})::int AS pending`, [
      teamId,
    ]);
    return rows[0]?.pending ?? 0;
  }

  async pendingFor(
    teamId: string,
    email: string,
    db: Queryable = this.pool,
  ): Promise<InvitationRecord | null> {
    const { rows } = await db.query<InvitationRecord>(
      `SELECT ${INVITATION} FROM team_invitations WHERE team_id = $1 AND lower(email) = lower($2) AND ${PENDING}
        LIMIT 1`,
      [teamId, email],
    );
    return rows[0] ?? null;
  }

  async createInvitation(
    invitation: {
      id: string;
      teamId: string;
      email: string;
      tokenHash: string;
      permissions: Permission[];
      inviterId: string;
      expiresAt: Date;
    },
    db: Queryable = this.pool,
  ): Promise<void> {
    await db.query(
      `INSERT INTO team_invitations (id, team_id, email, token_hash, permissions, inviter_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        invitation.id,
        invitation.teamId,
        invitation.email,
        invitation.tokenHash,
        invitation.permissions,
        invitation.inviterId,
        invitation.expiresAt,
      ],
    );
  }

  async pendingInvitations(teamId: string): Promise<InvitationRecord[]> {
    const { rows } = await this.pool.query<InvitationRecord>(
      `SELECT ${INVITATION} FROM team_invitations WHERE team_id = $1 AND ${PENDING} ORDER BY created_at, id`,
      [teamId],
    );
    return rows;
  }

  async invitationByToken(
    tokenHash: string,
    db: Queryable = this.pool,
    lock = false,
  ): Promise<InvitationRecord | null> {
    const { rows } = await db.query<InvitationRecord>(
      `SELECT ${INVITATION} FROM team_invitations WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async withdraw(teamId: string, id: string): Promise<InvitationRecord | null> {
    const { rows } = await this.pool.query<InvitationRecord>(
      `UPDATE team_invitations SET withdrawn_at = now() WHERE team_id = $1 AND id = $2 AND ${PENDING}
       RETURNING ${INVITATION}`,
      [teamId, id],
    );
    return rows[0] ?? null;
  }

  async markAccepted(id: string, db: Queryable): Promise<void> {
    await db.query('UPDATE team_invitations SET accepted_at = now() WHERE id = $1', [id]);
  }

  /** Puts an account in the team with these permissions. */
  async attach(userId: string, teamId: string, permissions: Permission[], db: Queryable): Promise<void> {
    await db.query(
      `UPDATE users SET manager_id = $2, permissions = $3, team_disabled_at = NULL, updated_at = now() WHERE id = $1`,
      [userId, teamId, permissions],
    );
  }

  async members(teamId: string): Promise<MemberRecord[]> {
    const { rows } = await this.pool.query<MemberRecord>(
      `SELECT id, email, firstname, permissions, last_login_at AS "lastLoginAt", team_disabled_at AS "teamDisabledAt",
              group_id AS "groupId"
         FROM users WHERE manager_id = $1 ORDER BY created_at, id`,
      [teamId],
    );
    return rows;
  }

  async setPermissions(teamId: string, userId: string, permissions: Permission[]): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE users SET permissions = $3, updated_at = now() WHERE id = $2 AND manager_id = $1',
      [teamId, userId, permissions],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Disables (sessions revoked and id tokens voided in the same transaction) or re-enables a member. */
  async setDisabled(teamId: string, userId: string, disabled: boolean): Promise<boolean> {
    return this.withTeamLock(teamId, async (db) => {
      const { rowCount } = await db.query(
        `UPDATE users SET team_disabled_at = ${disabled ? 'coalesce(team_disabled_at, now())' : 'NULL'},
                sign_in_generation = sign_in_generation + ${disabled ? 1 : 0}, updated_at = now()
          WHERE id = $2 AND manager_id = $1`,
        [teamId, userId],
      );
      if (!rowCount) return false;
      if (disabled)
        await db.query(
          `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
          [userId],
        );
      return true;
    });
  }

  /**
   * A member leaves the team: a free account of their own again, with their transfers; the upload inboxes they
   * made move to the manager (they belong to the team's receiving), switched to non-default.
   */
  async remove(teamId: string, userId: string, db: Queryable): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE users SET manager_id = NULL, permissions = '{}', team_disabled_at = NULL, group_id = NULL, updated_at = now()
        WHERE id = $2 AND manager_id = $1`,
      [teamId, userId],
    );
    if (!rowCount) return false;
    await db.query(
      `UPDATE inboxes SET owner_id = $1, is_default = false, updated_at = now() WHERE owner_id = $2`,
      [teamId, userId],
    );
    return true;
  }

  // --- user groups ---------------------------------------------------------------------------------------

  async groups(teamId: string): Promise<GroupRecord[]> {
    const { rows } = await this.pool.query<GroupRecord>(
      `SELECT g.id, g.name, g.overrides,
              coalesce(array_agg(u.id ORDER BY u.created_at, u.id) FILTER (WHERE u.id IS NOT NULL), '{}') AS "memberIds"
         FROM user_groups g LEFT JOIN users u ON u.group_id = g.id AND u.manager_id = g.team_id
        WHERE g.team_id = $1
        GROUP BY g.id ORDER BY lower(g.name), g.id`,
      [teamId],
    );
    return rows;
  }

  /** False when the team has a group of that name already (any case). */
  async createGroup(group: { id: string; teamId: string; name: string; overrides: Record<string, unknown> }) {
    const { rowCount } = await this.pool.query(
      `INSERT INTO user_groups (id, team_id, name, overrides) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [group.id, group.teamId, group.name, group.overrides],
    );
    return (rowCount ?? 0) > 0;
  }

  /** 'missing' for no such group in the team, 'taken' for a name another group has. */
  async updateGroup(
    teamId: string,
    id: string,
    patch: { name?: string; overrides?: Record<string, unknown> },
  ): Promise<'updated' | 'missing' | 'taken'> {
    try {
      const { rowCount } = await this.pool.query(
        `UPDATE user_groups SET name = coalesce($3, name), overrides = coalesce($4, overrides)
          WHERE team_id = $1 AND id = $2`,
        [teamId, id, patch.name ?? null, patch.overrides ?? null],
      );
      return rowCount ? 'updated' : 'missing';
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'taken';
      throw error;
    }
  }

  /** Deletes a group; its members stay in the team without a group. */
  async deleteGroup(teamId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM user_groups WHERE team_id = $1 AND id = $2', [
      teamId,
      id,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** Puts a member in a group of their team (null: none); false when the member or the group is not the team's. */
  async setGroup(teamId: string, userId: string, groupId: string | null): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE users SET group_id = $3, updated_at = now()
        WHERE id = $2 AND manager_id = $1
          AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM user_groups WHERE id = $3 AND team_id = $1))`,
      [teamId, userId, groupId],
    );
    return (rowCount ?? 0) > 0;
  }
}
