import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { NewTransferEvent, NewTransferFileRecord, NewTransferRecord } from '../services/ports.js';
import type { Database } from './client.js';
import { transferEvents, transferFiles, transfers } from './schema.js';
import { PgTransferRepository } from './transfer.repository.js';

/** The new transfer of a clone, as {@link PgCloneRepository.create} stores it. */
export interface NewClone {
  transfer: NewTransferRecord;
  files: NewTransferFileRecord[];
  events: NewTransferEvent[];
  recipients: Array<{ email: string; secretHash: string }>;
  quota: { teamId: string; maxBytes: number };
  sourceId: string;
  /** Recorded on the source, in the same transaction. */
  sourceEvent: NewTransferEvent;
}

/** Clones (the dashboard's "clone"): the new transfer in status CLONING, then its files as they are copied. */
export class PgCloneRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores the clone with its files, recipients and events, under the team's quota check as any new transfer,
   * and the source's event, all in one transaction.
   */
  async create(clone: NewClone): Promise<void> {
    await this.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      await new PgTransferRepository(db).create(
        clone.transfer,
        clone.files,
        clone.events,
        clone.recipients,
        clone.quota,
      );
      await tx
        .update(transfers)
        .set({ clonedFrom: clone.sourceId })
        .where(eq(transfers.id, clone.transfer.id));
      await tx
        .insert(transferEvents)
        .values({ transferId: clone.sourceId, ...clone.sourceEvent, data: clone.sourceEvent.data ?? {} });
    });
  }

  /** The transfer a clone was made from (null when it is no clone). */
  async sourceOf(transferId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ clonedFrom: transfers.clonedFrom })
      .from(transfers)
      .where(eq(transfers.id, transferId));
    return row?.clonedFrom ?? null;
  }

  /** Clones still CLONING that were last touched before `before` (their job may have been lost), oldest first. */
  async stuckBefore(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: transfers.id })
      .from(transfers)
      .where(and(eq(transfers.status, 'CLONING'), lt(transfers.updatedAt, before)))
      .orderBy(asc(transfers.updatedAt))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /**
   * Ends a clone under its row lock, if it is still CLONING: files whose source was gone are dropped (and the
   * size and count shrink), then the status becomes `status` with the events. False when it was not CLONING.
   */
  async finish(
    transferId: string,
    dropped: Array<{ id: string; size: number }>,
    status: 'ENABLED' | 'DELETED',
    events: NewTransferEvent[],
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ status: transfers.status })
        .from(transfers)
        .where(eq(transfers.id, transferId))
        .for('update');
      if (row?.status !== 'CLONING') return false;
      for (const file of dropped)
        await tx
          .delete(transferFiles)
          .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.id, file.id)));
      const bytes = dropped.reduce((sum, f) => sum + f.size, 0);
      await tx
        .update(transfers)
        .set({
          status,
          totalSize: sql`${transfers.totalSize} - ${bytes}`,
          fileCount: sql`${transfers.fileCount} - ${dropped.length}`,
          // A clone left with nothing: no bytes are stored for it.
          ...(status === 'DELETED' ? { expiredAt: new Date() } : {}),
          updatedAt: new Date(),
        })
        .where(eq(transfers.id, transferId));
      if (events.length > 0)
        await tx.insert(transferEvents).values(events.map((e) => ({ transferId, ...e, data: e.data ?? {} })));
      return true;
    });
  }

  /** Marks the clone as worked on (so the sweep does not queue it again while its job runs). */
  async touch(transferId: string): Promise<void> {
    await this.db
      .update(transfers)
      .set({ updatedAt: new Date() })
      .where(and(eq(transfers.id, transferId), eq(transfers.status, 'CLONING')));
  }
}
