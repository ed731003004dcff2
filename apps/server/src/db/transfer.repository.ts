import type { TransferStatus } from '@ferry/core';
import { and, asc, eq, getTableColumns, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { sha256Hex } from '../security/secrets.js';
import {
  CustomLinkTaken,
  type DownloadRecord,
  type NewTransferEvent,
  type NewTransferFileRecord,
  type NewTransferRecord,
  PendingUploadsExceeded,
  StorageQuotaExceeded,
  type TransferFileRecord,
  type TransferRecord,
  type TransferRepository,
  VISIT_WINDOW_SECONDS,
} from '../services/ports.js';
import type { Database } from './client.js';
import { runPrepared } from './prepared.js';
import {
  downloads,
  ownerStorage,
  transferEvents,
  transferFiles,
  transferRecipients,
  transfers,
  users,
} from './schema.js';

/**
 * A new transfer's search text for the dashboard (transfers.search_text): its name, then each file's name and each
 * recipient's address, one per line — what ferry_transfer_search_text (migration 0043) makes of the same rows.
 */
export function searchTextOf(
  name: string | null,
  files: ReadonlyArray<{ name: string; position: number }>,
  recipients: ReadonlyArray<{ email: string }>,
): string {
  const parts = [name ?? ''];
  for (const f of [...files].sort((a, b) => a.position - b.position)) parts.push(f.name);
  for (const r of recipients) parts.push(r.email);
  return parts.join('\n');
}

export class PgTransferRepository implements TransferRepository {
  constructor(private readonly db: Database) {}

  async create(
    transfer: NewTransferRecord,
    files: NewTransferFileRecord[],
    events: NewTransferEvent[],
    recipients: Array<{ email: string; secretHash: string }> = [],
    quota?: { teamId: string; maxBytes: number },
    anonymous?: { clientIp: string; maxPendingBytes: number },
  ): Promise<void> {
    // An anonymous creation takes its address's share of the cap on unfinished bytes in the very insert of the
    // transfer (migration 0042): no lock is held across round trips, so creations from one address do not queue.
    const row = {
      ...transfer,
      // Given whole, the dashboard's search text spares the row two rewrites by the triggers of migration 0043
      // (one for the files, one for the recipients). An anonymous transfer has none.
      searchText: transfer.ownerId ? searchTextOf(transfer.name, files, recipients) : null,
      clientIp: anonymous
        ? sql`ferry_reserve_pending(${anonymous.clientIp}, ${transfer.totalSize}, ${anonymous.maxPendingBytes})`
        : null,
    };
    const writes = (db: Database) => [
      db.insert(transfers).values(row),
      // Large transfers hold thousands of files: inserted in slices below PostgreSQL's parameter limit.
      ...slices(files, FILES_PER_INSERT).map((slice) => db.insert(transferFiles).values(slice)),
      ...(recipients.length > 0
        ? [
            db
              .insert(transferRecipients)
              .values(recipients.map((r, position) => ({ transferId: transfer.id, position, ...r }))),
          ]
        : []),
      db
        .insert(transferEvents)
        .values(events.map((e) => ({ transferId: transfer.id, ...e, data: e.data ?? {} }))),
    ];
    try {
      if (quota || files.length > FILES_PER_INSERT) {
        await this.db.transaction(async (tx) => {
          if (quota) {
            // One creation per team at a time: the sum and the insert cannot interleave with another member's.
            await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`quota:${quota.teamId}`}))`);
            const used = await new PgTransferRepository(tx as unknown as Database).storageUsed(quota.teamId);
            if (used + transfer.totalSize > quota.maxBytes)
              throw new StorageQuotaExceeded(used, quota.maxBytes);
          }
          for (const write of writes(tx as unknown as Database)) await write;
        });
      } else {
        // The usual creation: every row in one statement, one round trip (the inserts as parts of one WITH).
        const parts = writes(this.db).map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write.getSQL()})`);
        const statement = sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`;
        // Prepared for the usual few shapes (a few files and recipients); a larger one is planned on its own.
        if (files.length <= PREPARED_ROWS && recipients.length <= PREPARED_ROWS)
          await runPrepared(this.db, statement);
        else await this.db.execute(statement);
      }
    } catch (error: unknown) {
      // Two senders racing for one custom link: the unique index lets one in, the other hears it is taken.
      if (transfer.customLink && violates(error, 'transfers_custom_link_idx'))
        throw new CustomLinkTaken(transfer.customLink);
      const over = pgError(error, 'FE001');
      if (over && anonymous) throw new PendingUploadsExceeded(Number(over.detail), anonymous.maxPendingBytes);
      throw error;
    }
  }

  async findByCustomLink(link: string): Promise<TransferRecord | null> {
    const rows = await this.db
      .select()
      .from(transfers)
      .where(sql`lower(${transfers.customLink}) = ${link.toLowerCase()}`)
      .limit(1);
    return (rows[0] as TransferRecord | undefined) ?? null;
  }

  async pendingDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: transfers.id })
      .from(transfers)
      .where(and(eq(transfers.status, 'PENDING'), lte(transfers.availableFrom, now)))
      .orderBy(asc(transfers.availableFrom))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /** The storage region of a transfer's bytes (null: the main one, also for an unknown transfer). */
  async storageRegionOf(id: string): Promise<string | null> {
    const rows = await this.db
      .select({ region: transfers.storageRegion })
      .from(transfers)
      .where(eq(transfers.id, id))
      .limit(1);
    return rows[0]?.region ?? null;
  }

  /** Whether a transfer's objects are stored with SSE-C; false for an unknown transfer. */
  async sseCOf(id: string): Promise<boolean> {
    const rows = await this.db
      .select({ sseC: transfers.sseC })
      .from(transfers)
      .where(eq(transfers.id, id))
      .limit(1);
    return rows[0]?.sseC ?? false;
  }

  async find(id: string): Promise<TransferRecord | null> {
    const rows = await this.hot.byId.execute({ id });
    return (rows[0] as TransferRecord | undefined) ?? null;
  }

  async findWithFile(
    id: string,
    fileId: string,
  ): Promise<{ transfer: TransferRecord; file: TransferFileRecord | null } | null> {
    const [row] = await this.hot.withFile.execute({ id, fileId });
    return row ? { transfer: row.transfer as TransferRecord, file: row.file } : null;
  }

  async findWithFiles(id: string): Promise<{ transfer: TransferRecord; files: TransferFileRecord[] } | null> {
    const [row] = await this.hot.withFiles.execute({ id });
    return row ? { transfer: row.transfer as TransferRecord, files: row.files.map(fileFromJson) } : null;
  }

  private preparedHot?: ReturnType<PgTransferRepository['prepareHot']>;

  /** The look-ups every download and upload call makes, prepared once per connection (named statements). */
  private get hot() {
    this.preparedHot ??= this.prepareHot();
    return this.preparedHot;
  }

  private prepareHot() {
    const id = sql.placeholder('id');
    return {
      byId: this.db.select().from(transfers).where(eq(transfers.id, id)).limit(1).prepare('ferry_transfer'),
      withFile: this.db
        .select({ transfer: transfers, file: transferFiles })
        .from(transfers)
        .leftJoin(
          transferFiles,
          and(eq(transferFiles.transferId, transfers.id), eq(transferFiles.id, sql.placeholder('fileId'))),
        )
        .where(eq(transfers.id, id))
        .limit(1)
        .prepare('ferry_transfer_with_file'),
      withFiles: this.db
        .select({
          transfer: transfers,
          files: sql<Record<string, unknown>[]>`coalesce((SELECT json_agg(f ORDER BY f.position)
            FROM ${transferFiles} f WHERE f.transfer_id = "transfers"."id"), '[]'::json)`,
        })
        .from(transfers)
        .where(eq(transfers.id, id))
        .limit(1)
        .prepare('ferry_transfer_with_files'),
      bindUpload: this.db
        .update(transferFiles)
        .set({ uploadId: sql`${sql.placeholder('uploadId')}` })
        .where(
          and(
            eq(transferFiles.transferId, sql.placeholder('transferId')),
            eq(transferFiles.id, sql.placeholder('fileId')),
            isNull(transferFiles.uploadedAt),
            or(isNull(transferFiles.uploadId), eq(transferFiles.uploadId, sql.placeholder('uploadId'))),
          ),
        )
        .returning({ id: transferFiles.id })
        .prepare('ferry_bind_upload'),
    };
  }

  async files(transferId: string): Promise<TransferFileRecord[]> {
    return this.db
      .select()
      .from(transferFiles)
      .where(eq(transferFiles.transferId, transferId))
      .orderBy(asc(transferFiles.position));
  }

  async file(transferId: string, fileId: string): Promise<TransferFileRecord | null> {
    const rows = await this.db
      .select()
      .from(transferFiles)
      .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.id, fileId)))
      .limit(1);
    return rows[0] ?? null;
  }

  async bindUpload(transferId: string, fileId: string, uploadId: string): Promise<boolean> {
    const rows = await this.hot.bindUpload.execute({ transferId, fileId, uploadId });
    return rows.length === 1;
  }

  async markFileUploaded(
    transferId: string,
    fileId: string,
    digest: { sha256: string; crc32: number; blobKey: string },
  ): Promise<boolean> {
    const rows = await this.db
      .update(transferFiles)
      .set({ sha256: digest.sha256, crc32: digest.crc32, blobKey: digest.blobKey, uploadedAt: new Date() })
      .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.id, fileId)))
      .returning({ id: transferFiles.id });
    return rows.length === 1;
  }

  async resetFile(transferId: string, fileId: string): Promise<void> {
    await this.db
      .update(transferFiles)
      .set({ sha256: null, crc32: null, blobKey: null, uploadedAt: null, uploadId: null })
      .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.id, fileId)));
  }

  async enable(
    transferId: string,
    events: NewTransferEvent[],
    from: TransferStatus[] = ['UPLOADING'],
  ): Promise<boolean> {
    return this.moveStatus(transferId, 'ENABLED', events, from);
  }

  async hold(
    transferId: string,
    status: TransferStatus,
    events: NewTransferEvent[],
    from: TransferStatus[],
  ): Promise<boolean> {
    return this.moveStatus(transferId, status, events, from);
  }

  private async moveStatus(
    transferId: string,
    status: TransferStatus,
    events: NewTransferEvent[],
    from: TransferStatus[],
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(transfers)
        // The creating client's address served the cap on unfinished uploads only: not kept beyond it.
        .set({ status, updatedAt: new Date(), clientIp: null })
        .where(and(eq(transfers.id, transferId), inArray(transfers.status, from)))
        .returning({ id: transfers.id });
      if (rows.length !== 1) return false;
      if (events.length > 0)
        await tx.insert(transferEvents).values(events.map((e) => ({ transferId, ...e, data: e.data ?? {} })));
      return true;
    });
  }

  async consumeDownload(transferId: string, download: DownloadRecord): Promise<number | null> {
    if (download.admin) {
      const [row] = await this.db
        .insert(downloads)
        .values({
          transferId,
          ...download,
          browserCode: undefined,
          recipientId: undefined,
          confirmation: undefined,
        })
        .returning({ id: downloads.id });
      return row!.id;
    }
    // One statement either way: the count, its conditions and the download's row in one round trip.
    if (!download.browserCode) return this.countDownload(transferId, download);
    // A visit counts once per window (ferry_count_visit, migration 0042): a call of a visit already counted
    // records its file and counts nothing more; a new visit counts, or stops at the limit.
    const client = sha256Hex(`${download.ip ?? ''}\n${download.userAgent ?? ''}`);
    const rows = await runPrepared<{ id: number }>(
      this.db,
      sql`
      WITH visit AS (
        SELECT ${transferId}::text AS id
        WHERE ferry_count_visit(${transferId}, ${download.browserCode}, ${client}, ${VISIT_WINDOW_SECONDS}))
      ${insertDownload('visit', download)}`,
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  /**
   * A download without a visit: counted and recorded in one statement (one round trip). The conditional UPDATE
   * takes the transfer's row lock, so racing downloads can never pass the limit; when it matches nothing (the limit
   * is reached) nothing is recorded and the answer is null.
   */
  private async countDownload(transferId: string, d: DownloadRecord): Promise<number | null> {
    const rows = await runPrepared<{ id: number }>(
      this.db,
      sql`
      WITH counted AS (
        UPDATE transfers SET download_count = download_count + 1
        WHERE id = ${transferId} AND (max_downloads IS NULL OR download_count < max_downloads)
        RETURNING id)
      ${insertDownload('counted', d)}`,
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  async addEvent(transferId: string, event: NewTransferEvent): Promise<void> {
    await this.db.insert(transferEvents).values({ transferId, ...event, data: event.data ?? {} });
  }

  async storageUsed(teamId: string): Promise<number> {
    // A team is its manager's uid: the manager's transfers and those of every account managed by it.
    // Each owner's running total (owner_storage, kept by triggers on transfers: migration 0043).
    const owners = sql`(SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${teamId} OR ${users.managerId} = ${teamId})`;
    const [row] = await this.db
      .select({ used: sql<string>`coalesce(sum(${ownerStorage.bytes}), 0)` })
      .from(ownerStorage)
      .where(sql`${ownerStorage.ownerId} IN ${owners}`);
    return Number(row?.used ?? 0);
  }

  /** The whole instance's stored transfers (the operators' figures), by the rule `storageUsed` counts a team's. */
  async storedTotals(): Promise<{ transfers: number; bytes: number }> {
    const [row] = await this.db
      .select({
        transfers: sql<string>`count(*)`,
        bytes: sql<string>`coalesce(sum(${transfers.totalSize}), 0)`,
      })
      .from(transfers)
      .where(storedTransfer());
    return { transfers: Number(row?.transfers ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /** Bytes handed out by every download link of the instance since `since` (the operators' figures). */
  async allDownloadedBytesSince(since: Date): Promise<number> {
    const [row] = await this.db
      .select({ bytes: sql<string>`coalesce(sum(${downloads.bytes}), 0)` })
      .from(downloads)
      .where(sql`${downloads.createdAt} > ${since}`);
    return Number(row?.bytes ?? 0);
  }

  async downloadedBytesSince(ownerId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ bytes: sql<string>`coalesce(sum(${downloads.bytes}), 0)` })
      .from(downloads)
      .innerJoin(transfers, eq(transfers.id, downloads.transferId))
      .where(and(eq(transfers.ownerId, ownerId), sql`${downloads.createdAt} > ${since}`));
    return Number(row?.bytes ?? 0);
  }

  async withTransferLock<T>(transferId: string, work: (repo: TransferRepository) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.id, transferId)).for('update');
      // A transaction offers the same query API as the database; the repository works on either.
      return work(new PgTransferRepository(tx as unknown as Database));
    });
  }

  async unfinishedBefore(before: Date, limit: number, anonymousOnly = false): Promise<TransferRecord[]> {
    const rows = await this.db
      .select()
      .from(transfers)
      .where(
        and(
          eq(transfers.status, 'UPLOADING'),
          lt(transfers.createdAt, before),
          anonymousOnly ? isNull(transfers.ownerId) : undefined,
        ),
      )
      .orderBy(asc(transfers.createdAt))
      .limit(limit);
    return rows as TransferRecord[];
  }

  async deleteUnfinished(transferId: string): Promise<boolean> {
    const rows = await this.db
      .delete(transfers)
      .where(and(eq(transfers.id, transferId), eq(transfers.status, 'UPLOADING')))
      .returning({ id: transfers.id });
    return rows.length === 1;
  }

  async events(transferId: string): Promise<Array<NewTransferEvent & { createdAt: Date }>> {
    const rows = await this.db
      .select()
      .from(transferEvents)
      .where(eq(transferEvents.transferId, transferId))
      .orderBy(asc(transferEvents.id));
    return rows.map((r) => ({
      type: r.type as NewTransferEvent['type'],
      actor: r.actor,
      data: r.data,
      createdAt: r.createdAt,
    }));
  }
}

/**
 * A transfer that takes storage: not expired, deleted or retained (its files are still kept). The triggers keeping
 * owner_storage (migration 0043) apply the same rule.
 */
function storedTransfer() {
  return and(isNull(transfers.expiredAt), sql`${transfers.status} NOT IN ('DELETED', 'RETAINED')`);
}

/** Whether a failed statement broke this unique index (drizzle wraps the driver's error in `cause`). */
const FILE_COLUMNS = Object.entries(getTableColumns(transferFiles));

/** A transfer_files row as json_agg gives it (columns by their SQL names) → the record drizzle would give. */
function fileFromJson(json: Record<string, unknown>): TransferFileRecord {
  const file: Record<string, unknown> = {};
  for (const [key, column] of FILE_COLUMNS) {
    const value = json[column.name];
    file[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return file as unknown as TransferFileRecord;
}

/** The INSERT of a download's row for the transfer that `source` (a CTE with an `id` column) gives, if any. */
function insertDownload(source: string, d: DownloadRecord) {
  return sql`INSERT INTO downloads (transfer_id, file_id, kind, downloader_email, user_secret, browser_code, order_id,
      ip, user_agent, recipient_id, bytes, confirmation)
    SELECT id, ${d.fileId}, ${d.kind}, ${d.downloaderEmail ?? null}, ${d.userSecret ?? null},
      ${d.browserCode ?? null}, ${d.orderId ?? null}, ${d.ip ?? null}, ${d.userAgent ?? null},
      ${d.recipientId ?? null}, ${d.bytes ?? null}, ${d.confirmation ?? null}
    FROM ${sql.raw(source)}
    RETURNING id`;
}

/** Creations with at most this many files and recipients run as prepared statements (one per shape). */
const PREPARED_ROWS = 8;

/** Rows of one INSERT of a transfer's files: well below PostgreSQL's limit of 65 535 parameters per statement. */
const FILES_PER_INSERT = 1000;

function slices<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type PgErrorFields = { code: string; detail?: string; constraint?: string };

/** The PostgreSQL error of SQLSTATE `code` an error is or was caused by. */
function pgError(error: unknown, code: string): PgErrorFields | null {
  for (let e = error as (Partial<PgErrorFields> & { cause?: unknown }) | undefined; e; ) {
    if (e.code === code) return e as PgErrorFields;
    e = e.cause as typeof e;
  }
  return null;
}

function violates(error: unknown, constraint: string): boolean {
  return pgError(error, '23505')?.constraint === constraint;
}
