import type { TransferDirection, TransferListSort, TransferStatus, TransferType } from '@ferry/core';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { NewTransferEvent, TransferRecord } from '../services/ports.js';
import { drizzleQueryable, type Queryable } from '../services/security-log.js';
import type { Database } from './client.js';
import { transferEvents, transferFiles, transferRecipients, transfers } from './schema.js';
import { PgTransferRepository } from './transfer.repository.js';

/** What the dashboard's list asks for (the service has checked and normalised it). */
export interface TransferListFilter {
  /** Whose transfers: the user alone (/dashboard/transfers), or every account of a team (its admin list). */
  ownerIds: readonly string[];
  /**
   * The user's verified address, lowercase: S1 transfers sent to it are `received`. Null: only the owners' own
   * transfers (a team's admin list has no inbox of its own).
   */
  email: string | null;
  direction?: TransferDirection;
  /** A case-insensitive substring, matched with ILIKE (pg_trgm indexes). */
  q?: string;
  /**
   * The owners' transfers matching `q` and the other filters, found by {@link DashboardRepository.searchCandidates}:
   * their ids when there are at most its cap (the page then reads only these, and they are the count), or `more`
   * (the page walks the owners' transfers in sort order, testing each; the count is past the cap). Absent or null:
   * not looked up (each transfer's name, files and recipients are tested).
   */
  sentMatches?: readonly string[] | 'more' | null;
  type?: TransferType;
  statuses?: TransferStatus[];
  sort: TransferListSort;
  dir: 'asc' | 'desc';
  /** Keyset position: items strictly after this sort key and id. */
  after?: { key: string; id: string };
}

export interface TransferListRow {
  id: string;
  ownerId: string | null;
  type: TransferType;
  /** The sender's custom link (`/dl/{customLink}`), null: none. */
  customLink: string | null;
  status: TransferStatus;
  name: string | null;
  createdAt: Date;
  expiresAt: Date;
  totalSize: number;
  fileCount: number;
  downloadCount: number;
  passwordProtected: boolean;
  senderEmail: string | null;
  senderEmailVerified: boolean;
  direction: TransferDirection;
  recipientCount: number | null;
  /** The row's sort key as text, for the next page's cursor. */
  sortKey: string;
}

/** A recipient with what the timeline needs: their mail's delivery row and their first visit. */
export interface RecipientTimelineRow {
  id: number;
  email: string;
  createdAt: Date;
  openedAt: Date | null;
  delivery: string | null;
  deliveryError: string | null;
  mailQueuedAt: Date | null;
  mailSentAt: Date | null;
  mailUpdatedAt: Date | null;
}

export interface DownloadRow {
  id: number;
  fileId: string | null;
  kind: 'file' | 'zip';
  recipientId: number | null;
  bytes: number | null;
  downloaderEmail: string | null;
  createdAt: Date;
}

const iso = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/**
 * Each sort: the expression the keyset index of migration 0012 holds (after owner_id), its text form for the
 * cursor (exact to the microsecond) and how a cursor's text is read back.
 */
const SORTS: Record<TransferListSort, { expr: SQL; text: SQL; read: (v: string) => SQL }> = {
  createdAt: {
    expr: sql.raw('t.created_at'),
    text: iso('t.created_at'),
    read: (v) => sql`${v}::timestamptz`,
  },
  expiresAt: {
    expr: sql.raw('t.expires_at'),
    text: iso('t.expires_at'),
    read: (v) => sql`${v}::timestamptz`,
  },
  name: {
    expr: sql.raw(`coalesce(lower(t.name), '')`),
    text: sql.raw(`coalesce(lower(t.name), '')`),
    read: (v) => sql`${v}::text`,
  },
  size: {
    expr: sql.raw('t.total_size'),
    text: sql.raw('t.total_size::text'),
    read: (v) => sql`${v}::bigint`,
  },
};

/** `%q%` for ILIKE, with the user's own % _ \ taken literally. */
function containing(q: string): string {
  return `%${q.replace(/[\\%_]/g, '\\$&')}%`;
}

/** `q` can be looked up in `search_text`: it holds no newline (the separator of the text's parts). */
function searchable(q: string): boolean {
  return !q.includes('\n');
}

/**
 * `t.search_text` contains `q`: a short `q` is first looked up by its gram (the short-gram index), then checked
 * with ILIKE as a long one is (the index only narrows).
 */
function textMatches(q: string): SQL {
  const p = containing(q);
  return [...q].length < 3
    ? sql`t.search_text IS NOT NULL AND ferry_short_grams(t.search_text) @> ARRAY[lower(${q})] AND t.search_text ILIKE ${p}`
    : sql`t.search_text IS NOT NULL AND t.search_text ILIKE ${p}`;
}

/**
 * `owner_id` is one of `ownerIds`: a plain equality for one owner (the keyset index of migration 0012 serves it),
 * ANY for a team's accounts.
 */
function owned(ownerIds: readonly string[], table = ''): SQL {
  const column = sql.raw(`${table}owner_id`);
  return ownerIds.length === 1
    ? sql`${column} = ${ownerIds[0]}`
    : sql`${column} = ANY(${sql.param([...ownerIds])}::text[])`;
}

/**
 * The dashboard's reads (the list, a transfer's timeline rows) and its changes to one transfer, each change with
 * its events in one transaction under the transfer's row lock.
 */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /** This repository's database (inside withLock: the transaction), for a security-log entry made with the change. */
  get queryable(): Queryable {
    return drizzleQueryable(this.db);
  }

  /** One page (`limit` rows) of the list in sort order: sent and received merged by keyset. */
  async list(filter: TransferListFilter, limit: number): Promise<TransferListRow[]> {
    const sort = SORTS[filter.sort];
    const dir = sql.raw(filter.dir === 'asc' ? 'ASC' : 'DESC');
    const after = filter.after
      ? sql`AND (${sort.expr}, t.id) ${sql.raw(filter.dir === 'asc' ? '>' : '<')} (${sort.read(filter.after.key)}, ${filter.after.id})`
      : sql``;
    const columns = sql`t.id, t.owner_id AS "ownerId", t.type, t.custom_link AS "customLink", t.status, t.name, t.created_at AS "createdAt", t.expires_at AS "expiresAt",
      t.total_size AS "totalSize", t.file_count AS "fileCount", t.download_count AS "downloadCount",
      t.password_hash IS NOT NULL AS "passwordProtected", t.sender_email AS "senderEmail",
      (t.type <> 'S3' OR EXISTS (SELECT 1 FROM transfer_events ev WHERE ev.transfer_id = t.id
        AND ev.type = 'CREATED' AND ev.actor LIKE 'recipient:%')) AS "senderEmailVerified",
      ${sort.expr} AS sort_value, ${sort.text} AS "sortKey", t.id AS sort_id`;
    const branches: SQL[] = [];
    // The user's own transfers: sent, except received (S3) ones, which came in through their requests and inboxes.
    branches.push(sql`(SELECT ${columns}, CASE WHEN t.type = 'S3' THEN 'received' ELSE 'sent' END AS direction,
          (SELECT count(*) FROM transfer_recipients r WHERE r.transfer_id = t.id)::int AS "recipientCount"
        FROM transfers t
        WHERE ${this.sentWhere(filter)} ${after}
        ORDER BY ${sort.expr} ${dir}, t.id ${dir} LIMIT ${limit})`);
    if (filter.direction !== 'sent' && filter.email !== null)
      branches.push(sql`(SELECT ${columns}, 'received' AS direction, NULL::int AS "recipientCount"
        FROM transfer_recipients rr JOIN transfers t ON t.id = rr.transfer_id
        WHERE ${this.receivedWhere(filter)} ${after}
        ORDER BY ${sort.expr} ${dir}, t.id ${dir} LIMIT ${limit})`);
    const { rows } = await this.db.execute(
      sql`SELECT * FROM (${sql.join(branches, sql` UNION ALL `)}) u
        ORDER BY u.sort_value ${dir}, u.sort_id ${dir} LIMIT ${limit}`,
    );
    return (
      rows as unknown as Array<TransferListRow & { createdAt: Date | string; expiresAt: Date | string }>
    ).map((r) => ({
      id: r.id,
      ownerId: r.ownerId,
      type: r.type,
      customLink: r.customLink ?? null,
      status: r.status,
      name: r.name,
      createdAt: new Date(r.createdAt),
      expiresAt: new Date(r.expiresAt),
      totalSize: Number(r.totalSize),
      fileCount: r.fileCount,
      downloadCount: r.downloadCount,
      passwordProtected: r.passwordProtected,
      senderEmail: r.senderEmail,
      senderEmailVerified: r.senderEmailVerified,
      direction: r.direction,
      recipientCount: r.recipientCount,
      sortKey: r.sortKey,
    }));
  }

  /**
   * How many transfers match the filter, counting at most `cap + 1` per direction. `sentMatches`, when looked up,
   * must have been with the same cap: then it is the sent side's count.
   */
  async count(filter: TransferListFilter, cap: number): Promise<number> {
    let total: number;
    if (filter.q && filter.sentMatches === 'more') total = cap + 1;
    else if (filter.q && Array.isArray(filter.sentMatches))
      total = Math.min(filter.sentMatches.length, cap + 1);
    else {
      const { rows: own } = await this.db.execute(
        sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM transfers t WHERE ${this.sentWhere(filter)} LIMIT ${cap + 1}) s`,
      );
      total = (own[0] as { n: number }).n;
    }
    if (filter.direction !== 'sent' && filter.email !== null) {
      const { rows } = await this.db.execute(
        sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM transfer_recipients rr JOIN transfers t ON t.id = rr.transfer_id
          WHERE ${this.receivedWhere(filter)} LIMIT ${cap + 1}) s`,
      );
      total += (rows[0] as { n: number }).n;
    }
    return total;
  }

  private common(filter: TransferListFilter): SQL {
    const parts: SQL[] = [];
    if (filter.type) parts.push(sql`t.type = ${filter.type}`);
    if (filter.statuses) parts.push(sql`t.status = ANY(${sql.param(filter.statuses)}::text[])`);
    return parts.length > 0 ? sql`AND ${sql.join(parts, sql` AND `)}` : sql``;
  }

  /**
   * The owners' own transfers (the list's sent side, with its direction, type and status) that match `q`: their
   * ids when there are at most `cap`, else `more`; null when `q` cannot be looked up in the search text (it holds
   * a newline, the text's separator). One column is tested (`search_text`: the name, file names and recipients'
   * addresses, migration 0043), through its trigram index (three characters or more) or its short-gram index (one
   * or two: ferry_short_grams, migration 0041).
   */
  async searchCandidates(filter: TransferListFilter, cap: number): Promise<string[] | 'more' | null> {
    if (!filter.q || !searchable(filter.q)) return null;
    const { rows } = await this.db.execute(sql`
      SELECT t.id FROM transfers t WHERE ${this.sentBase(filter)} AND ${textMatches(filter.q)} LIMIT ${cap + 1}`);
    return rows.length > cap ? 'more' : (rows as Array<{ id: string }>).map((r) => r.id);
  }

  /** The owners' transfers on the list's sent side (`sent`, and their received S3 ones, by `direction`). */
  private sentBase(filter: TransferListFilter): SQL {
    const side =
      filter.direction === 'sent'
        ? sql`AND t.type <> 'S3'`
        : filter.direction === 'received'
          ? sql`AND t.type = 'S3'`
          : sql``;
    return sql`${owned(filter.ownerIds, 't.')} ${side} ${this.common(filter)}`;
  }

  /** The user's own transfers (`sent`, and received S3 ones, by `direction`) matching `q`. */
  private sentWhere(filter: TransferListFilter): SQL {
    const base = this.sentBase(filter);
    if (!filter.q) return base;
    const matches = filter.sentMatches;
    if (Array.isArray(matches)) return sql`${base} AND t.id = ANY(${sql.param([...matches])}::text[])`;
    // Many matches: a plain column test, so the owner's keyset index is walked in order and stops at the page.
    if (matches === 'more' && searchable(filter.q))
      return sql`${base} AND t.search_text ILIKE ${containing(filter.q)}`;
    return sql`${base} AND (t.name ILIKE ${containing(filter.q)}
          OR EXISTS (SELECT 1 FROM transfer_files f WHERE f.transfer_id = t.id AND f.name ILIKE ${containing(filter.q)})
          OR EXISTS (SELECT 1 FROM transfer_recipients r WHERE r.transfer_id = t.id AND r.email ILIKE ${containing(filter.q)}))`;
  }

  /** S1 transfers that went out to the address, except the user's own (those are `sent`). */
  private receivedWhere(filter: TransferListFilter): SQL {
    const search = filter.q
      ? sql`AND (t.name ILIKE ${containing(filter.q)} OR t.sender_email ILIKE ${containing(filter.q)}
          OR EXISTS (SELECT 1 FROM transfer_files f WHERE f.transfer_id = t.id AND f.name ILIKE ${containing(filter.q)}))`
      : sql``;
    return sql`lower(rr.email) = ${filter.email} AND NOT coalesce(${owned(filter.ownerIds, 't.')}, false)
      AND t.sent_at IS NOT NULL AND t.status NOT IN ('UPLOADING', 'CLONING') ${this.common(filter)} ${search}`;
  }

  /** The name of each transfer's first file (in the sender's order); transfers without files are absent. */
  async firstFileNames(transferIds: string[]): Promise<Map<string, string>> {
    if (transferIds.length === 0) return new Map();
    const { rows } = await this.db.execute(sql`
      SELECT DISTINCT ON (transfer_id) transfer_id AS "transferId", name FROM transfer_files
       WHERE transfer_id = ANY(${sql.param(transferIds)}::text[]) ORDER BY transfer_id, position, id`);
    return new Map((rows as Array<{ transferId: string; name: string }>).map((r) => [r.transferId, r.name]));
  }

  /** The files of these transfers, in the sender's order. */
  async filesOf(
    transferIds: string[],
  ): Promise<Map<string, Array<{ id: string; name: string; size: number; sha256: string | null }>>> {
    const out = new Map<string, Array<{ id: string; name: string; size: number; sha256: string | null }>>();
    if (transferIds.length === 0) return out;
    const rows = await this.db
      .select({
        transferId: transferFiles.transferId,
        id: transferFiles.id,
        name: transferFiles.name,
        size: transferFiles.size,
        sha256: transferFiles.sha256,
      })
      .from(transferFiles)
      .where(sql`${transferFiles.transferId} IN ${transferIds}`)
      .orderBy(transferFiles.transferId, transferFiles.position);
    for (const { transferId, ...file } of rows) {
      const list = out.get(transferId) ?? [];
      list.push(file);
      out.set(transferId, list);
    }
    return out;
  }

  async recipientTimelines(transferId: string): Promise<RecipientTimelineRow[]> {
    const { rows } = await this.db.execute(sql`
      SELECT r.id::int AS id, r.email, r.created_at AS "createdAt", r.opened_at AS "openedAt",
             d.status AS delivery, d.error AS "deliveryError", d.created_at AS "mailQueuedAt",
             d.sent_at AS "mailSentAt", d.updated_at AS "mailUpdatedAt"
        FROM transfer_recipients r
        LEFT JOIN mail_deliveries d ON d.idempotency_key = 'rcpt-' || r.transfer_id || '-' || r.id
       WHERE r.transfer_id = ${transferId}
       ORDER BY r.position, r.id`);
    return (rows as unknown as RecipientTimelineRow[]).map((r) => ({
      ...r,
      createdAt: new Date(r.createdAt),
      openedAt: date(r.openedAt),
      mailQueuedAt: date(r.mailQueuedAt),
      mailSentAt: date(r.mailSentAt),
      mailUpdatedAt: date(r.mailUpdatedAt),
    }));
  }

  /** Downloads through personal links (at most 5000, oldest first) and the newest `others` other downloads. */
  async downloads(transferId: string, others: number): Promise<DownloadRow[]> {
    const { rows } = await this.db.execute(sql`
      (SELECT id::int AS id, file_id AS "fileId", kind, recipient_id::int AS "recipientId", bytes,
              downloader_email AS "downloaderEmail", created_at AS "createdAt"
         FROM downloads WHERE transfer_id = ${transferId} AND recipient_id IS NOT NULL ORDER BY id LIMIT 5000)
      UNION ALL
      (SELECT id::int, file_id, kind, NULL::int, bytes, downloader_email, created_at
         FROM downloads WHERE transfer_id = ${transferId} AND recipient_id IS NULL ORDER BY id DESC LIMIT ${others})`);
    return (rows as unknown as DownloadRow[]).map((r) => ({
      ...r,
      bytes: r.bytes === null ? null : Number(r.bytes),
      createdAt: new Date(r.createdAt),
    }));
  }

  /**
   * Runs `work` in one transaction holding the transfer's row lock, with the transfer as it is now (null when
   * it is gone) and a repository bound to the transaction.
   */
  async withLock<T>(
    transferId: string,
    work: (transfer: TransferRecord | null, repo: DashboardRepository) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.id, transferId)).for('update');
      const db = tx as unknown as Database;
      return work(await new PgTransferRepository(db).find(transferId), new DashboardRepository(db));
    });
  }

  async update(
    transferId: string,
    set: Partial<{
      name: string | null;
      expiresAt: Date;
      passwordHash: string | null;
      allowPreview: boolean;
      maxDownloads: number | null;
      status: TransferStatus;
      availableFrom: Date | null;
    }>,
  ): Promise<void> {
    if (Object.keys(set).length === 0) return;
    // A new password, or the transfer taken offline, revokes every download URL handed out before.
    const revoke = set.passwordHash !== undefined || (set.status !== undefined && set.status !== 'ENABLED');
    await this.db
      .update(transfers)
      .set({
        ...set,
        updatedAt: new Date(),
        ...(revoke ? { accessEpoch: sql`${transfers.accessEpoch} + 1` } : {}),
      })
      .where(eq(transfers.id, transferId));
  }

  async addEvents(transferId: string, events: NewTransferEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db
      .insert(transferEvents)
      .values(events.map((e) => ({ transferId, ...e, data: e.data ?? {} })));
  }

  async recipientEmails(transferId: string): Promise<Array<{ id: number; email: string }>> {
    return this.db
      .select({ id: transferRecipients.id, email: transferRecipients.email })
      .from(transferRecipients)
      .where(eq(transferRecipients.transferId, transferId))
      .orderBy(transferRecipients.position, transferRecipients.id);
  }

  /** Appends recipients after the last one; returns their ids. */
  async addRecipients(
    transferId: string,
    recipients: Array<{ email: string; secretHash: string }>,
  ): Promise<number[]> {
    const [last] = await this.db
      .select({ position: sql<number>`coalesce(max(${transferRecipients.position}), -1)::int` })
      .from(transferRecipients)
      .where(eq(transferRecipients.transferId, transferId));
    const start = (last?.position ?? -1) + 1;
    const rows = await this.db
      .insert(transferRecipients)
      .values(recipients.map((r, i) => ({ transferId, position: start + i, ...r })))
      .returning({ id: transferRecipients.id });
    return rows.map((r) => r.id);
  }

  /**
   * Deletes a recipient (their personal link's secret with it); their downloads stay, unattributed. Every
   * download URL handed out before is revoked: one may be theirs.
   */
  async removeRecipient(transferId: string, recipientId: number): Promise<void> {
    await this.db
      .delete(transferRecipients)
      .where(and(eq(transferRecipients.transferId, transferId), eq(transferRecipients.id, recipientId)));
    await this.db
      .update(transfers)
      .set({ accessEpoch: sql`${transfers.accessEpoch} + 1` })
      .where(eq(transfers.id, transferId));
  }

  async renameFile(transferId: string, fileId: string, name: string, relativePath: string | null) {
    await this.db
      .update(transferFiles)
      .set({ name, relativePath })
      .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.id, fileId)));
  }

  /** Removes a file and takes it out of the transfer's size and count. */
  async deleteFile(transferId: string, fileId: string, size: number): Promise<void> {
    await this.db
      .delete(transferFiles)
      .where(and(eq(transferFiles.transferId, transferId), eq(transferFiles.id, fileId)));
    await this.db
      .update(transfers)
      .set({
        totalSize: sql`${transfers.totalSize} - ${size}`,
        fileCount: sql`${transfers.fileCount} - 1`,
        updatedAt: new Date(),
      })
      .where(eq(transfers.id, transferId));
  }

  /** After a deleted transfer's bytes are gone: the files keep their names, sizes and hashes. */
  async markBytesDeleted(transferId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(transfers)
        .set({ expiredAt: sql`coalesce(${transfers.expiredAt}, now())` })
        .where(eq(transfers.id, transferId));
      await tx.update(transferFiles).set({ blobKey: null }).where(eq(transferFiles.transferId, transferId));
    });
  }
}

function date(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
