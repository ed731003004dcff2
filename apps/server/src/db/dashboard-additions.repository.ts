import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import {
  type NewTransferEvent,
  StorageQuotaExceeded,
  type TransferFileRecord,
  type TransferRecord,
} from '../services/ports.js';
import type { Database } from './client.js';
import { transferAddedFiles, transferAdditions, transferEvents, transfers, users } from './schema.js';
import { PgTransferRepository } from './transfer.repository.js';

/** A batch of files being added to a transfer (the dashboard's "add files"). */
export interface AdditionRecord {
  id: string;
  transferId: string;
  uploadTokenHash: string;
  actor: string;
  createdAt: Date;
}

/** A file of an addition: a transfer file that no downloader sees yet. */
export type AddedFileRecord = Omit<TransferFileRecord, 'scanStatus'> & { additionId: string };

/**
 * Additions and their files until they join the transfer. Every change that must not interleave with another on
 * the same transfer runs under the transfer's row lock ({@link withLock}).
 */
export class PgAdditionRepository {
  constructor(private readonly db: Database) {}

  /**
   * Runs `work` in one transaction holding the transfer's row lock, with the transfer as it is now (null when it
   * is gone) and a repository bound to the transaction.
   */
  async withLock<T>(
    transferId: string,
    work: (transfer: TransferRecord | null, repo: PgAdditionRepository) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.id, transferId)).for('update');
      const db = tx as unknown as Database;
      return work(await new PgTransferRepository(db).find(transferId), new PgAdditionRepository(db));
    });
  }

  /** Every file id in use in the transfer: its files and those being added. */
  async fileIds(transferId: string): Promise<Set<string>> {
    const { rows } = await this.db.execute(sql`
      SELECT id FROM transfer_files WHERE transfer_id = ${transferId}
      UNION ALL SELECT id FROM transfer_added_files WHERE transfer_id = ${transferId}`);
    return new Set((rows as Array<{ id: string }>).map((r) => r.id));
  }

  /** Files and bytes being added to the transfer, by additions not completed yet. */
  async pendingOf(transferId: string): Promise<{ files: number; bytes: number }> {
    const [row] = await this.db
      .select({
        files: sql<number>`count(*)::int`,
        bytes: sql<string>`coalesce(sum(${transferAddedFiles.size}), 0)`,
      })
      .from(transferAddedFiles)
      .where(eq(transferAddedFiles.transferId, transferId));
    return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) };
  }

  /**
   * Stores an addition and its files. Under the team's quota lock (the one transfer creation takes): the bytes
   * stored by the team, plus those being added to any of its transfers, plus these, must stay within `maxBytes`.
   */
  async create(
    addition: Omit<AdditionRecord, 'createdAt'>,
    files: Array<Omit<AddedFileRecord, 'createdAt'>>,
    quota: { teamId: string; maxBytes: number },
  ): Promise<void> {
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`quota:${quota.teamId}`}))`);
      const db = tx as unknown as Database;
      const used =
        (await new PgTransferRepository(db).storageUsed(quota.teamId)) +
        (await new PgAdditionRepository(db).pendingOfTeam(quota.teamId));
      if (used + bytes > quota.maxBytes) throw new StorageQuotaExceeded(used, quota.maxBytes);
      await tx.insert(transferAdditions).values(addition);
      for (let i = 0; i < files.length; i += 1000)
        await tx.insert(transferAddedFiles).values(files.slice(i, i + 1000));
    });
  }

  /** Bytes being added to the transfers of a team (its manager's and members'). */
  private async pendingOfTeam(teamId: string): Promise<number> {
    const owners = sql`(SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${teamId} OR ${users.managerId} = ${teamId})`;
    const [row] = await this.db
      .select({ bytes: sql<string>`coalesce(sum(${transferAddedFiles.size}), 0)` })
      .from(transferAddedFiles)
      .innerJoin(transfers, eq(transfers.id, transferAddedFiles.transferId))
      .where(sql`${transfers.ownerId} IN ${owners}`);
    return Number(row?.bytes ?? 0);
  }

  async addition(transferId: string, additionId: string): Promise<AdditionRecord | null> {
    const rows = await this.db
      .select()
      .from(transferAdditions)
      .where(and(eq(transferAdditions.id, additionId), eq(transferAdditions.transferId, transferId)))
      .limit(1);
    return rows[0] ?? null;
  }

  /** The transfer's additions not completed yet, oldest first, each with its files in the order given. */
  async pending(transferId: string): Promise<Array<AdditionRecord & { files: AddedFileRecord[] }>> {
    const additions = await this.db
      .select()
      .from(transferAdditions)
      .where(eq(transferAdditions.transferId, transferId))
      .orderBy(asc(transferAdditions.createdAt), asc(transferAdditions.id));
    if (additions.length === 0) return [];
    const files = await this.db
      .select()
      .from(transferAddedFiles)
      .where(eq(transferAddedFiles.transferId, transferId))
      .orderBy(asc(transferAddedFiles.position));
    return additions.map((a) => ({ ...a, files: files.filter((f) => f.additionId === a.id) }));
  }

  async files(additionId: string): Promise<AddedFileRecord[]> {
    return this.db
      .select()
      .from(transferAddedFiles)
      .where(eq(transferAddedFiles.additionId, additionId))
      .orderBy(asc(transferAddedFiles.position));
  }

  /** A file being added, with the upload token hash of its addition. */
  async file(
    transferId: string,
    fileId: string,
  ): Promise<(AddedFileRecord & { uploadTokenHash: string }) | null> {
    const rows = await this.db
      .select({ file: transferAddedFiles, uploadTokenHash: transferAdditions.uploadTokenHash })
      .from(transferAddedFiles)
      .innerJoin(transferAdditions, eq(transferAdditions.id, transferAddedFiles.additionId))
      .where(and(eq(transferAddedFiles.transferId, transferId), eq(transferAddedFiles.id, fileId)))
      .limit(1);
    const row = rows[0];
    return row ? { ...row.file, uploadTokenHash: row.uploadTokenHash } : null;
  }

  /** As {@link PgTransferRepository.bindUpload}, for a file being added. */
  async bindUpload(transferId: string, fileId: string, uploadId: string): Promise<boolean> {
    const rows = await this.db
      .update(transferAddedFiles)
      .set({ uploadId })
      .where(
        and(
          eq(transferAddedFiles.transferId, transferId),
          eq(transferAddedFiles.id, fileId),
          isNull(transferAddedFiles.uploadedAt),
          or(isNull(transferAddedFiles.uploadId), eq(transferAddedFiles.uploadId, uploadId)),
        ),
      )
      .returning({ id: transferAddedFiles.id });
    return rows.length === 1;
  }

  /** Records a finished upload; false when no file is being added under that id. */
  async markUploaded(
    transferId: string,
    fileId: string,
    digest: { sha256: string; crc32: number; blobKey: string },
  ): Promise<boolean> {
    const rows = await this.db
      .update(transferAddedFiles)
      .set({ ...digest, uploadedAt: new Date() })
      .where(and(eq(transferAddedFiles.transferId, transferId), eq(transferAddedFiles.id, fileId)))
      .returning({ id: transferAddedFiles.id });
    return rows.length === 1;
  }

  async resetFile(transferId: string, fileId: string): Promise<void> {
    await this.db
      .update(transferAddedFiles)
      .set({ sha256: null, crc32: null, blobKey: null, uploadedAt: null, uploadId: null })
      .where(and(eq(transferAddedFiles.transferId, transferId), eq(transferAddedFiles.id, fileId)));
  }

  /**
   * The addition's files join the transfer after its last file, its size and count grow, the addition is gone and
   * the events are recorded. Run under the transfer's lock.
   */
  async complete(
    transferId: string,
    additionId: string,
    /** Files up to this size join as pending a virus scan (never served unscanned); null: no scanning. */
    scanUpTo: number | null,
    events: NewTransferEvent[],
  ): Promise<void> {
    await this.db.execute(sql`
      INSERT INTO transfer_files (transfer_id, id, position, name, relative_path, size, sha256, crc32, upload_id,
                                  blob_key, uploaded_at, created_at, scan_status)
      SELECT a.transfer_id, a.id,
             (SELECT coalesce(max(position), -1) FROM transfer_files WHERE transfer_id = ${transferId})
               + row_number() OVER (ORDER BY a.position),
             a.name, a.relative_path, a.size, a.sha256, a.crc32, a.upload_id, a.blob_key, a.uploaded_at, a.created_at,
             CASE WHEN a.size <= ${scanUpTo ?? -1} THEN 'pending' ELSE 'not-scanned' END
        FROM transfer_added_files a
       WHERE a.addition_id = ${additionId}`);
    const [added] = await this.db
      .select({
        files: sql<number>`count(*)::int`,
        bytes: sql<string>`coalesce(sum(${transferAddedFiles.size}), 0)`,
      })
      .from(transferAddedFiles)
      .where(eq(transferAddedFiles.additionId, additionId));
    await this.db
      .update(transfers)
      .set({
        totalSize: sql`${transfers.totalSize} + ${Number(added?.bytes ?? 0)}`,
        fileCount: sql`${transfers.fileCount} + ${added?.files ?? 0}`,
        updatedAt: new Date(),
      })
      .where(eq(transfers.id, transferId));
    await this.db.delete(transferAdditions).where(eq(transferAdditions.id, additionId));
    if (events.length > 0)
      await this.db
        .insert(transferEvents)
        .values(events.map((e) => ({ transferId, ...e, data: e.data ?? {} })));
  }

  /** Forgets an addition and its files (their uploads are the caller's to delete). */
  async delete(additionId: string): Promise<void> {
    await this.db.delete(transferAdditions).where(eq(transferAdditions.id, additionId));
  }

  /** Additions started before `before` and never completed (abandoned), oldest first. */
  async abandonedBefore(before: Date, limit: number): Promise<AdditionRecord[]> {
    return this.db
      .select()
      .from(transferAdditions)
      .where(lt(transferAdditions.createdAt, before))
      .orderBy(asc(transferAdditions.createdAt))
      .limit(limit);
  }
}
