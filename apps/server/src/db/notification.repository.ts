import type pg from 'pg';
import type { NewTransferEvent, RecipientRecord, RecipientView } from '../services/ports.js';

type Queryable = Pick<pg.Pool, 'query' | 'connect'>;

/** The mail idempotency key of a recipient's "files for you" e-mail; the delivery status is looked up by it. */
export function recipientMailKey(transferId: string, recipientId: number): string {
  return `rcpt-${transferId}-${recipientId}`;
}

/** The transfer and recipient of a {@link recipientMailKey}; null for any other key. */
export function parseRecipientMailKey(key: string): { transferId: string; recipientId: number } | null {
  const match = /^rcpt-([A-Za-z0-9]+)-(\d{1,15})$/.exec(key);
  return match ? { transferId: match[1]!, recipientId: Number(match[2]) } : null;
}

export interface VerificationRecord {
  transferId: string;
  email: string;
  codeHash: string;
  expiresAt: Date;
  failedAttempts: number;
  codesSent: number;
  lastSentAt: Date;
  verifiedAt: Date | null;
}

/** A group of downloads the sender is told about in one confirmation. */
export interface PendingConfirmation {
  id: number;
  fileId: string | null;
  kind: 'file' | 'zip';
  downloaderEmail: string | null;
  recipientEmail: string | null;
  createdAt: Date;
}

const RECIPIENT_COLUMNS = `r.id::int AS id, r.transfer_id AS "transferId", r.position, r.email,
  r.reminders_off AS "remindersOff"`;

async function inTransaction<T>(pool: Queryable, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function insertEvents(
  db: Pick<pg.PoolClient, 'query'>,
  transferId: string,
  events: NewTransferEvent[],
) {
  for (const e of events)
    await db.query('INSERT INTO transfer_events (transfer_id, type, actor, data) VALUES ($1, $2, $3, $4)', [
      transferId,
      e.type,
      e.actor,
      JSON.stringify(e.data ?? {}),
    ]);
}

/**
 * Persistence of what e-mail adds to a transfer: recipients and their delivery, the sender's verification code,
 * download confirmations, reminders and the expiry sweep. Every state change is one conditional statement (or
 * one transaction), so instances and retried jobs can run the same step at once without doing it twice.
 */
export class PgNotificationRepository {
  constructor(private readonly pool: Queryable) {}

  /** The recipients in the order given, each with their e-mail's delivery status and first download. */
  async recipients(transferId: string): Promise<RecipientView[]> {
    const { rows } = await this.pool.query<RecipientView>(
      `SELECT ${RECIPIENT_COLUMNS}, d.status AS delivery, d.error AS "deliveryError",
              (SELECT min(dl.created_at) FROM downloads dl WHERE dl.recipient_id = r.id) AS "downloadedAt"
         FROM transfer_recipients r
         LEFT JOIN mail_deliveries d ON d.idempotency_key = 'rcpt-' || r.transfer_id || '-' || r.id
        WHERE r.transfer_id = $1
        ORDER BY r.position`,
      [transferId],
    );
    return rows;
  }

  async recipientBySecretHash(transferId: string, secretHash: string): Promise<RecipientRecord | null> {
    const { rows } = await this.pool.query<RecipientRecord>(
      `SELECT ${RECIPIENT_COLUMNS} FROM transfer_recipients r WHERE r.transfer_id = $1 AND r.secret_hash = $2`,
      [transferId, secretHash],
    );
    return rows[0] ?? null;
  }

  async recipient(transferId: string, recipientId: number): Promise<RecipientRecord | null> {
    const { rows } = await this.pool.query<RecipientRecord>(
      `SELECT ${RECIPIENT_COLUMNS} FROM transfer_recipients r WHERE r.transfer_id = $1 AND r.id = $2`,
      [transferId, recipientId],
    );
    return rows[0] ?? null;
  }

  /** The first visit of a recipient's personal link (later visits change nothing). */
  async markOpened(recipientId: number): Promise<void> {
    await this.pool.query(
      'UPDATE transfer_recipients SET opened_at = now() WHERE id = $1 AND opened_at IS NULL',
      [recipientId],
    );
  }

  /** Recipients who have not downloaded anything and still want reminders. */
  async recipientsToRemind(transferId: string): Promise<RecipientRecord[]> {
    const { rows } = await this.pool.query<RecipientRecord>(
      `SELECT ${RECIPIENT_COLUMNS} FROM transfer_recipients r
        WHERE r.transfer_id = $1 AND NOT r.reminders_off
          AND NOT EXISTS (SELECT 1 FROM downloads dl WHERE dl.recipient_id = r.id)
        ORDER BY r.position`,
      [transferId],
    );
    return rows;
  }

  async turnRemindersOff(transferId: string, recipientId: number, event: NewTransferEvent): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE transfer_recipients SET reminders_off = true
          WHERE transfer_id = $1 AND id = $2 AND NOT reminders_off`,
        [transferId, recipientId],
      );
      if (rowCount) await insertEvents(client, transferId, [event]);
      return Boolean(rowCount);
    });
  }

  // --- sender verification -------------------------------------------------------------------------------

  async verification(transferId: string): Promise<VerificationRecord | null> {
    const { rows } = await this.pool.query<VerificationRecord>(
      `SELECT transfer_id AS "transferId", email, code_hash AS "codeHash", expires_at AS "expiresAt",
              failed_attempts AS "failedAttempts", codes_sent AS "codesSent", last_sent_at AS "lastSentAt",
              verified_at AS "verifiedAt"
         FROM sender_verifications WHERE transfer_id = $1`,
      [transferId],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores a new code (the previous one stops working). With `notSentSince`, only if no code went out after
   * that moment: two racing resends cannot both send one.
   */
  async storeCode(
    transferId: string,
    email: string,
    codeHash: string,
    expiresAt: Date,
    notSentSince?: Date,
  ): Promise<number | null> {
    const { rows } = await this.pool.query<{ codesSent: number }>(
      `INSERT INTO sender_verifications AS v (transfer_id, email, code_hash, expires_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (transfer_id) DO UPDATE
         SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, failed_attempts = 0,
             codes_sent = v.codes_sent + 1, last_sent_at = now()
         WHERE v.verified_at IS NULL AND ($5::timestamptz IS NULL OR v.last_sent_at <= $5)
       RETURNING codes_sent AS "codesSent"`,
      [transferId, email, codeHash, expiresAt, notSentSince ?? null],
    );
    return rows[0]?.codesSent ?? null;
  }

  async requireVerification(transferId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE transfers SET sender_verification = 'pending', updated_at = now()
        WHERE id = $1 AND sender_verification = 'not_needed'`,
      [transferId],
    );
    return rowCount === 1;
  }

  /** Counts a wrong code; returns how many wrong codes this code has had. */
  async failedAttempt(transferId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `UPDATE sender_verifications SET failed_attempts = failed_attempts + 1
        WHERE transfer_id = $1 RETURNING failed_attempts AS n`,
      [transferId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Marks the sender verified, once; false when the code was verified (or replaced) in the meantime. */
  async markVerified(transferId: string, codeHash: string, events: NewTransferEvent[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE sender_verifications SET verified_at = now()
          WHERE transfer_id = $1 AND code_hash = $2 AND verified_at IS NULL`,
        [transferId, codeHash],
      );
      if (!rowCount) return false;
      await client.query(
        `UPDATE transfers SET sender_verification = 'verified', updated_at = now() WHERE id = $1`,
        [transferId],
      );
      await insertEvents(client, transferId, events);
      return true;
    });
  }

  // --- sending -------------------------------------------------------------------------------------------

  /** Records that the transfer went out; false when it had already (another attempt got there first). */
  async markSent(transferId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE transfers SET sent_at = now() WHERE id = $1 AND sent_at IS NULL`,
      [transferId],
    );
    return rowCount === 1;
  }

  /** Available, unverified-free transfers that have not gone out although they could: a lost dispatch job. */
  async unsent(olderThan: Date, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM transfers
        WHERE sent_at IS NULL AND status = 'ENABLED' AND sender_verification <> 'pending'
          AND updated_at < $1
        ORDER BY updated_at LIMIT $2`,
      [olderThan, limit],
    );
    return rows.map((r) => r.id);
  }

  async setNotifications(
    transferId: string,
    changes: Partial<
      Record<'download_confirmation' | 'expiry_reminder' | 'force_email_when_download_s2', boolean>
    >,
    events: NewTransferEvent[],
  ): Promise<void> {
    const entries = Object.entries(changes);
    if (entries.length === 0) return;
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `UPDATE transfers SET ${entries.map(([column], i) => `${column} = $${i + 2}`).join(', ')},
                updated_at = now()
          WHERE id = $1`,
        [transferId, ...entries.map(([, value]) => value)],
      );
      await insertEvents(client, transferId, events);
    });
  }

  // --- download confirmations ----------------------------------------------------------------------------

  /**
   * Takes the pending confirmations of one downloader (a browser visit, a recipient, or a single download),
   * runs `work` with them and marks them done when it succeeds, all under row locks: a second worker on the
   * same group finds nothing.
   */
  async withPendingConfirmations<T>(
    transferId: string,
    group: { browserCode: string } | { downloadId: number },
    work: (pending: PendingConfirmation[]) => Promise<T>,
  ): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      const byCode = 'browserCode' in group;
      const { rows } = await client.query<PendingConfirmation>(
        `SELECT dl.id::int AS id, dl.file_id AS "fileId", dl.kind, dl.downloader_email AS "downloaderEmail",
                r.email AS "recipientEmail", dl.created_at AS "createdAt"
           FROM downloads dl LEFT JOIN transfer_recipients r ON r.id = dl.recipient_id
          WHERE dl.transfer_id = $1 AND dl.confirmation = 'pending'
            AND ${byCode ? 'dl.browser_code = $2' : 'dl.id = $2'}
          ORDER BY dl.id
          FOR UPDATE OF dl SKIP LOCKED`,
        [transferId, byCode ? group.browserCode : group.downloadId],
      );
      const result = await work(rows);
      if (rows.length > 0)
        await client.query(`UPDATE downloads SET confirmation = 'sent' WHERE id = ANY($1::bigint[])`, [
          rows.map((r) => r.id),
        ]);
      return result;
    });
  }

  /** Pending confirmations older than `olderThan`: their job was lost; one entry per group. */
  async stalePendingConfirmations(
    olderThan: Date,
    limit: number,
  ): Promise<Array<{ transferId: string; browserCode: string | null; downloadId: number }>> {
    const { rows } = await this.pool.query(
      `SELECT DISTINCT ON (transfer_id, coalesce(browser_code, id::text))
              transfer_id AS "transferId", browser_code AS "browserCode", id::int AS "downloadId"
         FROM downloads WHERE confirmation = 'pending' AND created_at < $1
        ORDER BY transfer_id, coalesce(browser_code, id::text), id
        LIMIT $2`,
      [olderThan, limit],
    );
    return rows;
  }

  // --- reminders and expiry ------------------------------------------------------------------------------

  /**
   * Transfers whose recipients are due a reminder: `leadHours` before expiry, or half-way through a shorter
   * life, once per expiry date.
   */
  async dueForReminder(now: Date, leadHours: number, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM transfers
        WHERE expiry_reminder AND sent_at IS NOT NULL AND expired_at IS NULL AND status = 'ENABLED'
          AND expires_at > $1
          AND expires_at - LEAST(make_interval(hours => $2), (expires_at - sent_at) / 2) <= $1
          AND reminded_for IS DISTINCT FROM expires_at
        ORDER BY expires_at LIMIT $3`,
      [now, leadHours, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Records the reminders for this expiry date as done; false when another worker did it first. */
  async markReminded(transferId: string, expiresAt: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE transfers SET reminded_for = expires_at
        WHERE id = $1 AND date_trunc('milliseconds', expires_at) = $2
          AND reminded_for IS DISTINCT FROM expires_at`,
      [transferId, expiresAt],
    );
    return rowCount === 1;
  }

  /** Transfers past their expiry date whose bytes are still stored (abandoned uploads have their own sweep). */
  async dueForExpiry(now: Date, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      // A RETAINED transfer is kept for legal requests until its retention ends (RETENTION_DAYS), whatever its
      // expiry date; then its files go like an expired transfer's. One under review (MODERATING) waits for the
      // operator's decision: released past its date, it expires at the next sweep.
      `(SELECT id, expires_at AS due FROM transfers
         WHERE expired_at IS NULL AND expires_at <= $1
           AND status NOT IN ('UPLOADING', 'CLONING', 'RETAINED', 'MODERATING')
         ORDER BY expires_at LIMIT $2)
       UNION ALL
       (SELECT id, retained_until AS due FROM transfers
         WHERE status = 'RETAINED' AND expired_at IS NULL AND retained_until <= $1
         ORDER BY retained_until LIMIT $2)
       ORDER BY due LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** After the bytes are deleted: the files keep their names, sizes and hashes, the transfer its history. */
  async markExpired(transferId: string, event: NewTransferEvent): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE transfers SET expired_at = now(), updated_at = now() WHERE id = $1 AND expired_at IS NULL`,
        [transferId],
      );
      if (!rowCount) return false;
      await client.query('UPDATE transfer_files SET blob_key = NULL WHERE transfer_id = $1', [transferId]);
      await insertEvents(client, transferId, [event]);
      return true;
    });
  }
}
