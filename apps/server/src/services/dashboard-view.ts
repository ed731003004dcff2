import {
  type RecipientTimelineEntry,
  type TransferDownloadView,
  TransferId,
  type TransferListItem,
  type TransferListSort,
  transferStatusLabel,
} from '@ferry/core';
import type { DownloadRow, RecipientTimelineRow, TransferListRow } from '../db/dashboard.repository.js';
import { AppError } from './app-error.js';

/** The pure parts of the dashboard: list cursors, the expiry a user asks for, recipients' timelines. */

/**
 * A list row as the dashboard's lists answer it (the user's own, and a team's): `link` is the one the viewer follows,
 * `now` says whether it has expired. Lists add their own fields (files, owner) beside.
 */
export function listItemOf(r: TransferListRow, link: string, now: number): Omit<TransferListItem, 'files'> {
  return {
    id: r.id,
    type: r.type,
    status: r.status,
    statusLabel: transferStatusLabel(r.status),
    name: r.name,
    link,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    expired: r.expiresAt.getTime() <= now,
    totalSize: r.totalSize,
    fileCount: r.fileCount,
    recipientCount: r.recipientCount,
    downloadCount: r.direction === 'sent' ? r.downloadCount : null,
    passwordProtected: r.passwordProtected,
    senderEmail: r.senderEmail,
    senderEmailVerified: r.senderEmailVerified,
    direction: r.direction,
  };
}

const TIMESTAMP_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** What a cursor's key may be for each sort (a name key is a lowercase name: never NUL, at most 255 bytes). */
const KEY_FORMAT: Record<TransferListSort, (key: string) => boolean> = {
  createdAt: (key) => TIMESTAMP_KEY.test(key),
  expiresAt: (key) => TIMESTAMP_KEY.test(key),
  size: (key) => /^\d{1,16}$/.test(key),
  name: (key) => key.length <= 1100 && !key.includes('\u0000'),
};

const badCursor = () =>
  new AppError(
    'VALIDATION_FAILED',
    'This cursor is not valid for this sort order: start from the first page.',
    {
      details: { field: 'cursor' },
    },
  );

/** The next page's cursor: where the last item stands in the sort order (it carries no secret). */
export function writeCursor(
  sort: TransferListSort,
  dir: string,
  last: { sortKey: string; id: string },
): string {
  return Buffer.from(JSON.stringify([sort, dir, last.sortKey, last.id])).toString('base64url');
}

/** The keyset position a cursor stands for; refused when it is malformed or made for another sort order. */
export function readCursor(cursor: string, sort: TransferListSort, dir: string): { key: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw badCursor();
  const [s, d, key, id] = parsed;
  if (s !== sort || d !== dir || typeof key !== 'string' || !KEY_FORMAT[sort](key)) throw badCursor();
  if (!TransferId.safeParse(id).success) throw badCursor();
  return { key, id };
}

/**
 * The instant a requested expiry stands for: an ISO date-time as given; a day (YYYY-MM-DD) is the end of that
 * day (UTC), or `latest` when that is the last day allowed (so "expire on the last allowed day" just works).
 */
export function expiryFrom(wanted: string, latest: Date): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(wanted)) return new Date(wanted);
  const endOfDay = new Date(`${wanted}T23:59:59.999Z`);
  return endOfDay > latest && latest.toISOString().slice(0, 10) === wanted ? latest : endOfDay;
}

/**
 * Each recipient's story, oldest first (by lowercase address), and the downloads made without a personal link,
 * newest first. A ZIP download stands for every file of the transfer.
 */
export function buildTimelines(
  recipients: RecipientTimelineRow[],
  downloads: DownloadRow[],
  fileIds: string[],
): { byEmail: Map<string, RecipientTimelineEntry[]>; others: TransferDownloadView[] } {
  const byRecipient = new Map<number, RecipientTimelineEntry[]>();
  for (const r of recipients) {
    const entries: RecipientTimelineEntry[] = [];
    if (r.mailQueuedAt) entries.push({ kind: 'sent', at: r.mailQueuedAt.toISOString() });
    if (r.delivery === 'sent' && r.mailSentAt)
      entries.push({ kind: 'delivered', at: r.mailSentAt.toISOString() });
    if (
      (r.delivery === 'failed' || r.delivery === 'rejected' || r.delivery === 'in_doubt') &&
      r.mailUpdatedAt
    )
      entries.push({ kind: 'failed', at: r.mailUpdatedAt.toISOString() });
    if (r.openedAt) entries.push({ kind: 'opened', at: r.openedAt.toISOString() });
    byRecipient.set(r.id, entries);
  }
  const others: TransferDownloadView[] = [];
  for (const d of downloads) {
    const files = d.kind === 'zip' ? fileIds : d.fileId ? [d.fileId] : [];
    const entries = d.recipientId === null ? undefined : byRecipient.get(d.recipientId);
    if (entries)
      entries.push({
        kind: 'downloaded',
        at: d.createdAt.toISOString(),
        fileIds: files,
        archive: d.kind === 'zip',
        ...(d.bytes === null ? {} : { bytes: d.bytes }),
      });
    else if (d.recipientId === null)
      others.push({
        at: d.createdAt.toISOString(),
        fileIds: files,
        archive: d.kind === 'zip',
        bytes: d.bytes,
        downloaderEmail: d.downloaderEmail,
      });
  }
  const byEmail = new Map<string, RecipientTimelineEntry[]>();
  for (const r of recipients)
    byEmail.set(
      r.email.toLowerCase(),
      (byRecipient.get(r.id) ?? []).sort((a, b) => a.at.localeCompare(b.at)),
    );
  return { byEmail, others };
}
