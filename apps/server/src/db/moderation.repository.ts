import type { ModerationHoldSource, ReportReason, TransferStatus, TransferType } from '@ferry/core';
import type pg from 'pg';
import type { NewTransferEvent } from '../services/ports.js';
import { type OperatorActionInput, PgOperatorLog } from './operator-log.repository.js';

type Queryable = Pick<pg.PoolClient, 'query'>;

export interface NewReport {
  transferId: string;
  reason: ReportReason;
  details: string | null;
  reporterEmail: string | null;
  reporterUserId: string | null;
  /** The reporter's account id, else a keyed hash of their client address: distinct reporters are counted by it. */
  reporterKey: string;
}

export interface ReportRecord {
  id: number;
  transferId: string;
  reason: ReportReason;
  details: string | null;
  reporterEmail: string | null;
  reporterUserId: string | null;
  reporterKey: string;
  createdAt: Date;
}

export interface HoldRecord {
  transferId: string;
  source: ModerationHoldSource;
  heldBy: string;
  details: Record<string, unknown>;
  heldAt: Date;
}

/** A transfer as the moderation queue shows it. */
export interface CaseTransfer {
  id: string;
  type: TransferType;
  status: TransferStatus;
  name: string | null;
  message: string | null;
  senderEmail: string | null;
  senderName: string | null;
  ownerEmail: string | null;
  fileCount: number;
  totalSize: number;
  recipientCount: number;
  createdAt: Date;
  expiresAt: Date;
  sentAt: Date | null;
}

export type ReportOutcome = 'released' | 'retained' | 'dismissed';

/** Statuses a transfer can be put under review from (delivered, scanning, or pending). */
export const HOLDABLE: readonly TransferStatus[] = ['ENABLED', 'SCANNING', 'PENDING'];
/** Statuses a transfer can be retained from: any whose files are still there. */
export const RETAINABLE: readonly TransferStatus[] = [
  'ENABLED',
  'MODERATING',
  'SCANNING',
  'PENDING',
  'DISABLED',
];

const TRANSFER = `t.id, t.type, t.status, t.name, t.message, t.sender_email AS "senderEmail",
  t.sender_name AS "senderName", u.email AS "ownerEmail", t.file_count AS "fileCount",
  t.total_size::float8 AS "totalSize", t.created_at AS "createdAt", t.expires_at AS "expiresAt",
  t.sent_at AS "sentAt",
  (SELECT count(*)::int FROM transfer_recipients r WHERE r.transfer_id = t.id) AS "recipientCount"`;
const REPORT = `id::float8 AS id, transfer_id AS "transferId", reason, details, reporter_email AS "reporterEmail",
  reporter_user_id AS "reporterUserId", reporter_key AS "reporterKey", created_at AS "createdAt"`;
const HOLD = `transfer_id AS "transferId", source, held_by AS "heldBy", details, held_at AS "heldAt"`;

/**
 * Reports, holds and the automatic rule's counts (moderation.service.ts). Every operator decision and its journal
 * row are one transaction.
 */
export class PgModerationRepository {
  private readonly journal: PgOperatorLog;

  constructor(private readonly pool: pg.Pool) {
    this.journal = new PgOperatorLog(pool);
  }

  async status(transferId: string): Promise<TransferStatus | null> {
    const { rows } = await this.pool.query<{ status: TransferStatus }>(
      'SELECT status FROM transfers WHERE id = $1',
      [transferId],
    );
    return rows[0]?.status ?? null;
  }

  /** Stores a report; answers how many distinct reporters the transfer's open reports now have. */
  async addReport(report: NewReport): Promise<number> {
    await this.pool.query(
      `INSERT INTO transfer_reports (transfer_id, reason, details, reporter_email, reporter_user_id, reporter_key)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        report.transferId,
        report.reason,
        report.details,
        report.reporterEmail,
        report.reporterUserId,
        report.reporterKey,
      ],
    );
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(DISTINCT reporter_key)::int AS n FROM transfer_reports
        WHERE transfer_id = $1 AND closed_at IS NULL`,
      [report.transferId],
    );
    return rows[0]!.n;
  }

  async hold(transferId: string): Promise<HoldRecord | null> {
    const { rows } = await this.pool.query<HoldRecord>(
      `SELECT ${HOLD} FROM moderation_holds WHERE transfer_id = $1`,
      [transferId],
    );
    return rows[0] ?? null;
  }

  /**
   * Puts a transfer under review: the hold row, and MODERATING when it is in a status that may be held (one still
   * uploading is held when its upload completes). False when it was held already.
   */
  async startHold(hold: Omit<HoldRecord, 'heldAt'>, journal: OperatorActionInput | null): Promise<boolean> {
    return this.inTransaction(async (client) => {
      // The transfer's row lock, as TransferService takes it to enable a finished upload: a hold begun on an
      // uploading transfer is then either seen by its check after enabling, or finds it ENABLED and holds it here.
      await client.query('SELECT 1 FROM transfers WHERE id = $1 FOR UPDATE', [hold.transferId]);
      const { rowCount } = await client.query(
        `INSERT INTO moderation_holds (transfer_id, source, held_by, details) VALUES ($1, $2, $3, $4)
         ON CONFLICT (transfer_id) DO NOTHING`,
        [hold.transferId, hold.source, hold.heldBy, JSON.stringify(hold.details)],
      );
      await client.query(
        `UPDATE transfers SET status = 'MODERATING', updated_at = now() WHERE id = $1 AND status = ANY($2)`,
        [hold.transferId, HOLDABLE],
      );
      if (journal) await this.journal.record(journal, client);
      return Boolean(rowCount);
    });
  }

  /**
   * Records the hold the automatic rule decided while TransferService holds the transfer's lock: the hold row
   * only (TransferService moves the status itself).
   */
  async recordRuleHold(hold: Omit<HoldRecord, 'heldAt'>): Promise<void> {
    await this.pool.query(
      `INSERT INTO moderation_holds (transfer_id, source, held_by, details) VALUES ($1, $2, $3, $4)
       ON CONFLICT (transfer_id) DO NOTHING`,
      [hold.transferId, hold.source, hold.heldBy, JSON.stringify(hold.details)],
    );
  }

  /** Ends a hold and closes the open reports (the status is TransferService.releaseHeld's to move). */
  async endHold(
    transferId: string,
    outcome: ReportOutcome,
    closedBy: string,
    journal: OperatorActionInput,
  ): Promise<void> {
    await this.inTransaction(async (client) => {
      await client.query('DELETE FROM moderation_holds WHERE transfer_id = $1', [transferId]);
      await this.closeReports(client, transferId, outcome, closedBy);
      await this.journal.record(journal, client);
    });
  }

  /** Closes the open reports only (dismissed); the transfer stays as it is. */
  async dismiss(transferId: string, closedBy: string, journal: OperatorActionInput): Promise<void> {
    await this.inTransaction(async (client) => {
      await this.closeReports(client, transferId, 'dismissed', closedBy);
      await this.journal.record(journal, client);
    });
  }

  /**
   * RETAINED: gone for everyone (every signed URL dies with the access epoch), files kept until `until`, the
   * RETAINED event, the hold ended and the reports closed. False when the transfer is in no status to retain.
   */
  async retain(
    transferId: string,
    until: Date,
    event: NewTransferEvent,
    closedBy: string,
    journal: OperatorActionInput,
  ): Promise<boolean> {
    return this.inTransaction(async (client) => {
      const { rowCount } = await client.query(
        `UPDATE transfers SET status = 'RETAINED', retained_until = $2, access_epoch = access_epoch + 1,
                updated_at = now()
          WHERE id = $1 AND status = ANY($3) AND expired_at IS NULL`,
        [transferId, until, RETAINABLE],
      );
      if (!rowCount) return false;
      await client.query(
        'INSERT INTO transfer_events (transfer_id, type, actor, data) VALUES ($1, $2, $3, $4)',
        [transferId, event.type, event.actor, JSON.stringify(event.data ?? {})],
      );
      await client.query('DELETE FROM moderation_holds WHERE transfer_id = $1', [transferId]);
      await this.closeReports(client, transferId, 'retained', closedBy);
      await this.journal.record(journal, client);
      return true;
    });
  }

  private async closeReports(client: Queryable, transferId: string, outcome: ReportOutcome, by: string) {
    await client.query(
      `UPDATE transfer_reports SET closed_as = $2, closed_at = now(), closed_by = $3
        WHERE transfer_id = $1 AND closed_at IS NULL`,
      [transferId, outcome, by],
    );
  }

  /**
   * Records an anonymous S1 transfer about to go out (once per transfer) and answers the recipients that its
   * sender's address and its client address sent to since `since`, this transfer included.
   */
  async recordSend(
    send: { transferId: string; senderEmail: string | null; clientIp: string | null },
    since: Date,
  ): Promise<{ bySender: number; byClient: number; recipients: number }> {
    const { rows: counted } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM transfer_recipients WHERE transfer_id = $1',
      [send.transferId],
    );
    const recipients = counted[0]!.n;
    await this.pool.query(
      `INSERT INTO moderation_sends (transfer_id, sender_email, client_ip, recipients) VALUES ($1, $2, $3, $4)
       ON CONFLICT (transfer_id) DO NOTHING`,
      [send.transferId, send.senderEmail, send.clientIp, recipients],
    );
    // What no window needs any more.
    await this.pool.query(`DELETE FROM moderation_sends WHERE at < LEAST($1, now() - interval '1 day')`, [
      since,
    ]);
    const { rows } = await this.pool.query<{ bySender: number; byClient: number }>(
      `SELECT
         COALESCE(SUM(recipients) FILTER (WHERE $1::text IS NOT NULL AND lower(sender_email) = lower($1)), 0)::int
           AS "bySender",
         COALESCE(SUM(recipients) FILTER (WHERE $2::text IS NOT NULL AND client_ip = $2), 0)::int AS "byClient"
         FROM moderation_sends
        WHERE at >= $3 AND ((lower(sender_email) = lower($1)) OR client_ip = $2)`,
      [send.senderEmail, send.clientIp, since],
    );
    return { ...rows[0]!, recipients };
  }

  /** The queue: transfers under review, and those with open reports; held first, then newest report first. */
  async queue(limit: number): Promise<CaseTransfer[]> {
    const { rows } = await this.pool.query<CaseTransfer>(
      `SELECT ${TRANSFER}
         FROM transfers t
         LEFT JOIN users u ON u.id = t.owner_id
         LEFT JOIN moderation_holds h ON h.transfer_id = t.id
         LEFT JOIN LATERAL (
           SELECT max(created_at) AS latest FROM transfer_reports
            WHERE transfer_id = t.id AND closed_at IS NULL) r ON true
        WHERE (h.transfer_id IS NOT NULL AND t.status NOT IN ('DELETED', 'RETAINED')) OR r.latest IS NOT NULL
        ORDER BY (h.transfer_id IS NULL), COALESCE(r.latest, h.held_at) DESC
        LIMIT $1`,
      [limit],
    );
    return rows;
  }

  async transfer(transferId: string): Promise<CaseTransfer | null> {
    const { rows } = await this.pool.query<CaseTransfer>(
      `SELECT ${TRANSFER} FROM transfers t LEFT JOIN users u ON u.id = t.owner_id WHERE t.id = $1`,
      [transferId],
    );
    return rows[0] ?? null;
  }

  async openReports(transferIds: string[]): Promise<ReportRecord[]> {
    const { rows } = await this.pool.query<ReportRecord>(
      `SELECT ${REPORT} FROM transfer_reports
        WHERE transfer_id = ANY($1) AND closed_at IS NULL ORDER BY created_at DESC, id DESC`,
      [transferIds],
    );
    return rows;
  }

  async holds(transferIds: string[]): Promise<HoldRecord[]> {
    const { rows } = await this.pool.query<HoldRecord>(
      `SELECT ${HOLD} FROM moderation_holds WHERE transfer_id = ANY($1)`,
      [transferIds],
    );
    return rows;
  }

  async files(
    transferIds: string[],
  ): Promise<Array<{ transferId: string; id: string; name: string; size: number; sha256: string | null }>> {
    const { rows } = await this.pool.query(
      `SELECT transfer_id AS "transferId", id, COALESCE(relative_path, name) AS name, size::float8 AS size, sha256
         FROM transfer_files WHERE transfer_id = ANY($1) ORDER BY transfer_id, position`,
      [transferIds],
    );
    return rows;
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
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
}
