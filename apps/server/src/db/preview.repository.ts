import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PreviewRecord, PreviewRepository, StoredRendition } from '../services/preview-ports.js';
import type { Database } from './client.js';
import { filePreviews, transfers } from './schema.js';

export class PgPreviewRepository implements PreviewRepository {
  constructor(private readonly db: Database) {}

  async markPending(transferId: string, fileIds: string[]): Promise<string[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.db
      .insert(filePreviews)
      .values(fileIds.map((fileId) => ({ transferId, fileId, status: 'pending' })))
      .onConflictDoNothing()
      .returning({ fileId: filePreviews.fileId });
    return rows.map((r) => r.fileId);
  }

  async save(record: PreviewRecord): Promise<boolean> {
    const values = {
      status: record.status,
      kind: record.kind,
      renditions: record.renditions,
      pageCount: record.pageCount,
      reason: record.reason,
      updatedAt: new Date(),
    };
    try {
      await this.db
        .insert(filePreviews)
        .values({ transferId: record.transferId, fileId: record.fileId, ...values })
        .onConflictDoUpdate({ target: [filePreviews.transferId, filePreviews.fileId], set: values });
      return true;
    } catch (error) {
      // The transfer was removed while its file was rendered (an unfinished upload purged): nothing to keep.
      if (pgCode(error) === '23503') return false;
      throw error;
    }
  }

  async find(transferId: string, fileIds: string[]): Promise<PreviewRecord[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.db
      .select()
      .from(filePreviews)
      .where(and(eq(filePreviews.transferId, transferId), inArray(filePreviews.fileId, fileIds)));
    return rows.map((r) => ({
      transferId: r.transferId,
      fileId: r.fileId,
      status: r.status as PreviewRecord['status'],
      kind: r.kind as PreviewRecord['kind'],
      renditions: r.renditions as StoredRendition[],
      pageCount: r.pageCount,
      reason: r.reason,
    }));
  }

  async consumePreview(transferId: string, max: number): Promise<boolean> {
    const rows = await this.db
      .update(transfers)
      .set({ previewCount: sql`${transfers.previewCount} + 1` })
      .where(and(eq(transfers.id, transferId), lt(transfers.previewCount, max)))
      .returning({ id: transfers.id });
    return rows.length > 0;
  }

  async renditionKeys(transferId: string): Promise<string[]> {
    const rows = await this.db
      .select({ renditions: filePreviews.renditions })
      .from(filePreviews)
      .where(eq(filePreviews.transferId, transferId));
    return rows.flatMap((r) => (r.renditions as StoredRendition[]).map((x) => x.key));
  }
}

/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error as its cause). */
function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code;
}
