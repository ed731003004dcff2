import type { ScanStatus } from '@ferry/core';
import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { NewTransferEvent, ScanRepository } from '../services/ports.js';
import type { Database } from './client.js';
import { transferEvents, transferFiles, transfers } from './schema.js';

/** A scan's end, as recorded: whether it changed anything and how many files of the transfer are still pending. */
export interface ScanRecorded {
  changed: boolean;
  pendingLeft: number;
}

/** Per-file virus scan statuses (transfer_files.scan_status) and the scan events. */
export class PgScanRepository implements ScanRepository {
  constructor(private readonly db: Database) {}

  /** Marks files as queued for a scan, with the SCAN_STARTED event, in one transaction. */
  async start(transferId: string, fileIds: string[], event: NewTransferEvent): Promise<void> {
    if (fileIds.length === 0) return;
    await this.db.transaction(async (tx) => {
      await tx
        .update(transferFiles)
        .set({ scanStatus: 'pending', scanSignature: null, scannedAt: null })
        .where(and(eq(transferFiles.transferId, transferId), inArray(transferFiles.id, fileIds)));
      await tx.insert(transferEvents).values({ transferId, ...event, data: event.data ?? {} });
    });
  }

  /**
   * Records one file's verdict, only while it is pending (a second run of the same job changes nothing), with its
   * event, under the transfer's row lock: of two files finishing at once, exactly one sees none left pending.
   */
  async record(
    transferId: string,
    fileId: string,
    status: Exclude<ScanStatus, 'pending'>,
    signature: string | null,
    event: NewTransferEvent | null,
  ): Promise<ScanRecorded> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.id, transferId)).for('update');
      const updated = await tx
        .update(transferFiles)
        .set({ scanStatus: status, scanSignature: signature, scannedAt: new Date() })
        .where(
          and(
            eq(transferFiles.transferId, transferId),
            eq(transferFiles.id, fileId),
            eq(transferFiles.scanStatus, 'pending'),
          ),
        )
        .returning({ id: transferFiles.id });
      if (updated.length > 0 && event)
        await tx.insert(transferEvents).values({ transferId, ...event, data: event.data ?? {} });
      const [left] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(transferFiles)
        .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.scanStatus, 'pending')));
      return { changed: updated.length > 0, pendingLeft: left?.n ?? 0 };
    });
  }

  /** Pending files, oldest transfers first: the sweep queues their scans again (a job lost to a long outage). */
  async pending(limit = 1000): Promise<Array<{ transferId: string; fileId: string }>> {
    return this.db
      .select({ transferId: transferFiles.transferId, fileId: transferFiles.id })
      .from(transferFiles)
      .where(eq(transferFiles.scanStatus, 'pending'))
      .orderBy(asc(transferFiles.createdAt))
      .limit(limit);
  }

  /**
   * Scanning was turned off: files still pending will get no verdict and become not-scanned (nothing is known of
   * them); returns the SCANNING transfers, to be moved on.
   */
  async abandonPending(limit = 1000): Promise<string[]> {
    await this.db
      .update(transferFiles)
      .set({ scanStatus: 'not-scanned' })
      .where(eq(transferFiles.scanStatus, 'pending'));
    const rows = await this.db
      .select({ id: transfers.id })
      .from(transfers)
      .where(eq(transfers.status, 'SCANNING'))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /** SCANNING transfers with no file pending (their listener never ran, or a release was lost). */
  async scanningWithoutPending(limit = 100): Promise<string[]> {
    const rows = await this.db
      .select({ id: transfers.id })
      .from(transfers)
      .where(
        and(
          eq(transfers.status, 'SCANNING'),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(transferFiles)
              .where(
                and(eq(transferFiles.transferId, transfers.id), eq(transferFiles.scanStatus, 'pending')),
              ),
          ),
        ),
      )
      .limit(limit);
    return rows.map((r) => r.id);
  }
}
