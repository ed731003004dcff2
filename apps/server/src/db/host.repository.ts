import type pg from 'pg';

export interface HostClaimRecord {
  host: string;
  ownerId: string;
  kind: 'subdomain' | 'custom';
  status: 'pending' | 'verified' | 'suspended';
  token: string | null;
  createdAt: Date;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  missingSince: Date | null;
}

const CLAIM = `host, owner_id AS "ownerId", kind, status, token, created_at AS "createdAt",
  verified_at AS "verifiedAt", last_checked_at AS "lastCheckedAt", missing_since AS "missingSince"`;

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** Ferry's table of hosts (host_claims) and the redeemed hand-off tokens (host_handoffs). */
export class PgHostRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The verified claim of a host, or null (pending and suspended claims are never served). */
  async verified(host: string): Promise<HostClaimRecord | null> {
    const { rows } = await this.pool.query<HostClaimRecord>(
      `SELECT ${CLAIM} FROM host_claims WHERE host = $1 AND status = 'verified'`,
      [host],
    );
    return rows[0] ?? null;
  }

  async ofOwner(ownerId: string): Promise<HostClaimRecord[]> {
    const { rows } = await this.pool.query<HostClaimRecord>(
      `SELECT ${CLAIM} FROM host_claims WHERE owner_id = $1 ORDER BY kind DESC, created_at, id`,
      [ownerId],
    );
    return rows;
  }

  async claim(ownerId: string, host: string): Promise<HostClaimRecord | null> {
    const { rows } = await this.pool.query<HostClaimRecord>(
      `SELECT ${CLAIM} FROM host_claims WHERE owner_id = $1 AND host = $2`,
      [ownerId, host],
    );
    return rows[0] ?? null;
  }

  /**
   * Replaces the owner's subdomain with `host` in one transaction; false when another owner serves that host
   * (the unique index decides, so two owners racing for one name cannot both win).
   */
  async setSubdomain(ownerId: string, host: string | null): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DELETE FROM host_claims WHERE owner_id = $1 AND kind = 'subdomain'`, [ownerId]);
      if (host !== null)
        await client.query(
          `INSERT INTO host_claims (host, owner_id, kind, status, verified_at)
           VALUES ($1, $2, 'subdomain', 'verified', now())`,
          [host, ownerId],
        );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (isUniqueViolation(error)) return false;
      throw error;
    } finally {
      client.release();
    }
  }

  /** A pending custom domain of the owner (an existing claim of theirs is kept as it is). */
  async addCustom(ownerId: string, host: string, token: string): Promise<HostClaimRecord> {
    await this.pool.query(
      `INSERT INTO host_claims (host, owner_id, kind, status, token) VALUES ($1, $2, 'custom', 'pending', $3)
       ON CONFLICT (owner_id, host) DO NOTHING`,
      [host, ownerId, token],
    );
    return (await this.claim(ownerId, host))!;
  }

  /** Whether another owner serves this host (verified or suspended). */
  async servedByOther(ownerId: string, host: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM host_claims WHERE host = $1 AND owner_id <> $2 AND status <> 'pending'`,
      [host, ownerId],
    );
    return rows.length > 0;
  }

  /** Marks the proof found: verified; false when another owner proved the host first. */
  async markProven(ownerId: string, host: string, now: Date): Promise<boolean> {
    try {
      await this.pool.query(
        `UPDATE host_claims SET status = 'verified', verified_at = coalesce(verified_at, $3), last_checked_at = $3,
           missing_since = NULL WHERE owner_id = $1 AND host = $2`,
        [ownerId, host, now],
      );
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** The proof was not found: remembers since when; a verified domain missing it since `suspendBefore` is suspended. */
  async markMissing(ownerId: string, host: string, now: Date, suspendBefore: Date): Promise<void> {
    await this.pool.query(
      `UPDATE host_claims SET last_checked_at = $3, missing_since = coalesce(missing_since, $3),
         status = CASE WHEN status = 'verified' AND coalesce(missing_since, $3) <= $4 THEN 'suspended' ELSE status END
       WHERE owner_id = $1 AND host = $2`,
      [ownerId, host, now, suspendBefore],
    );
  }

  async remove(ownerId: string, host: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM host_claims WHERE owner_id = $1 AND host = $2 AND kind = 'custom'`,
      [ownerId, host],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Custom domains the daily check looks at: verified ones (and suspended, which come back when proven). */
  async customToRecheck(): Promise<HostClaimRecord[]> {
    const { rows } = await this.pool.query<HostClaimRecord>(
      `SELECT ${CLAIM} FROM host_claims WHERE kind = 'custom' AND status <> 'pending' ORDER BY id`,
    );
    return rows;
  }

  /** Records a hand-off token as redeemed; false when it already was. Expired rows are pruned on the way. */
  async redeemHandoff(jti: string, expiresAt: Date, now: Date): Promise<boolean> {
    await this.pool.query('DELETE FROM host_handoffs WHERE expires_at < $1', [now]);
    const { rowCount } = await this.pool.query(
      'INSERT INTO host_handoffs (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [jti, expiresAt],
    );
    return (rowCount ?? 0) > 0;
  }
}
