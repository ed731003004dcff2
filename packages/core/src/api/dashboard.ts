import { z } from 'zod';
import { TRANSFER_STATUSES, TRANSFER_TYPES } from '../enums.js';
import { TransferPrice, TransferSale } from './billing.js';
import {
  Email,
  FileId,
  RecipientStatus,
  Sha256Hex,
  TransferEventView,
  TransferFile,
  TransferFileInput,
  TransferId,
  TransferSummary,
} from './transfer.js';

/** The dashboard's transfer list, a transfer's detail and the actions on it (/dashboard/transfers, spec §2, §3). */

/** PostgreSQL text cannot hold NUL: refused up front (400, not 500). */
const text = () => z.string().refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .optional();

export const TRANSFER_LIST_SORTS = ['createdAt', 'expiresAt', 'name', 'size'] as const;
export type TransferListSort = (typeof TRANSFER_LIST_SORTS)[number];
/** `sent`: the user owns it; `received`: an S1 transfer sent to the user's (verified) address. */
export const TRANSFER_DIRECTIONS = ['sent', 'received'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];
export const TRANSFER_LIST_DEFAULT_LIMIT = 25;
export const TRANSFER_LIST_MAX_LIMIT = 100;
/** `total` is exact up to this many matches; past it, it says this number and `totalIsCapped`. */
export const TRANSFER_LIST_TOTAL_CAP = 10_000;
/**
 * The same for a search (`q`): a common word or a single letter matches most transfers, and counting each match
 * means reading its files and recipients; "1 000+" says as much as "10 000+", in a tenth of the time.
 */
export const TRANSFER_SEARCH_TOTAL_CAP = 1_000;

/** How far a list's `total` is counted exactly: TRANSFER_SEARCH_TOTAL_CAP with a search, else TRANSFER_LIST_TOTAL_CAP. */
export function transferListTotalCap(q: string | undefined | null): number {
  return q ? TRANSFER_SEARCH_TOTAL_CAP : TRANSFER_LIST_TOTAL_CAP;
}

const Statuses = z.array(z.enum(TRANSFER_STATUSES)).min(1).max(TRANSFER_STATUSES.length);

/**
 * GET /api/transfer/transfers: the signed-in user's transfers, newest first by default, one page at a time.
 * - `q`: case-insensitive substring of the name, a file name, or a recipient's address (sent transfers) or the
 *   sender's address (received ones);
 * - `status`: one status or several, comma-separated (`DELETED,RETAINED`);
 * - `cursor`: the previous page's `nextCursor`, with the same `sort`, `dir` and filters (keyset pagination: no
 *   item is given twice or skipped while transfers are added);
 * - `withFiles=true`: each item lists its files (`ferry transfers --json` uses it).
 */
export const TransferListQuery = z.object({
  q: text()
    .pipe(z.string().trim().max(200))
    .transform((v) => v || undefined)
    .optional(),
  type: z.enum(TRANSFER_TYPES).optional(),
  status: z
    .union([
      Statuses,
      z
        .string()
        .transform((v) => v.split(',').map((s) => s.trim()))
        .pipe(Statuses),
    ])
    .optional(),
  direction: z.enum(TRANSFER_DIRECTIONS).optional(),
  sort: z.enum(TRANSFER_LIST_SORTS).default('createdAt'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  cursor: z.string().max(600).optional(),
  limit: z.coerce.number().int().min(1).max(TRANSFER_LIST_MAX_LIMIT).default(TRANSFER_LIST_DEFAULT_LIMIT),
  withFiles: flag,
});
export type TransferListQuery = z.input<typeof TransferListQuery>;

/** A file as the list gives it with `withFiles=true`. */
export const TransferListFile = z.object({
  id: FileId,
  name: z.string(),
  size: z.number().int(),
  sha256: Sha256Hex.nullable(),
});
export type TransferListFile = z.infer<typeof TransferListFile>;

export const TransferListItem = z.object({
  id: TransferId,
  type: z.enum(TRANSFER_TYPES),
  status: z.enum(TRANSFER_STATUSES),
  /** Spec §2: MODERATING → pending, RETAINED → deleted, others lowercase (core `transferStatusLabel`). */
  statusLabel: z.string(),
  name: z.string().nullable(),
  /** The download link; for a received transfer, the user's own personal link. */
  link: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Past its expiry date (its bytes are, or are about to be, deleted). */
  expired: z.boolean(),
  totalSize: z.number().int(),
  fileCount: z.number().int(),
  /** Sent transfers only (null for received ones: the sender's business). */
  recipientCount: z.number().int().nullable(),
  downloadCount: z.number().int().nullable(),
  passwordProtected: z.boolean(),
  /** Who sent it (the address on the transfer). */
  senderEmail: z.string().nullable(),
  /**
   * False for a received (S3) upload whose address the uploader typed on a receive page (nobody checked it: show
   * it as "not verified"); true otherwise (an account, a confirmed sender, a request's personal link).
   */
  senderEmailVerified: z.boolean(),
  direction: z.enum(TRANSFER_DIRECTIONS),
  /** With `withFiles=true` only. */
  files: z.array(TransferListFile).optional(),
});
export type TransferListItem = z.infer<typeof TransferListItem>;

export const TransferListResponse = z.object({
  items: z.array(TransferListItem),
  /** Give it as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** How many transfers match the filters (exact up to TRANSFER_LIST_TOTAL_CAP). */
  total: z.number().int(),
  totalIsCapped: z.boolean(),
  /** Bytes stored by the user's team (not expired, not deleted) and the plan's storage, in bytes. */
  storage: z.object({ used: z.number(), limit: z.number() }),
});
export type TransferListResponse = z.infer<typeof TransferListResponse>;

export const RECIPIENT_TIMELINE_KINDS = ['sent', 'delivered', 'failed', 'opened', 'downloaded'] as const;

/**
 * One step of a recipient's story: `sent` (Ferry handed the e-mail to its mail job), `delivered` (the mail relay
 * accepted it), `failed` (refused or in doubt; see the recipient's `error`), `opened` (first visit of their
 * personal link's page), `downloaded` (a file, or the whole transfer as a ZIP with `archive`, and its bytes).
 */
export const RecipientTimelineEntry = z.object({
  kind: z.enum(RECIPIENT_TIMELINE_KINDS),
  at: z.string(),
  fileIds: z.array(z.string()).optional(),
  archive: z.boolean().optional(),
  bytes: z.number().int().optional(),
});
export type RecipientTimelineEntry = z.infer<typeof RecipientTimelineEntry>;

export const RecipientDetail = RecipientStatus.extend({
  /** Oldest first. */
  timeline: z.array(RecipientTimelineEntry),
});
export type RecipientDetail = z.infer<typeof RecipientDetail>;

/** A download that was not made through a recipient's personal link (S2 links, the plain S1 link). */
export const TransferDownloadView = z.object({
  at: z.string(),
  fileIds: z.array(z.string()),
  archive: z.boolean(),
  bytes: z.number().int().nullable(),
  /** The e-mail the downloader gave (S2 with forceEmailWhenDownloadS2). */
  downloaderEmail: z.string().nullable(),
});
export type TransferDownloadView = z.infer<typeof TransferDownloadView>;

/** An addition's id (POST …/files): 16 letters and digits. */
export const AdditionId = z.string().regex(/^[A-Za-z0-9]{16}$/, 'not an addition id');

/** Files being added to the transfer and not completed yet: the owner sees them, downloaders do not. */
export const TransferAdditionView = z.object({
  additionId: AdditionId,
  createdAt: z.string(),
  files: z.array(TransferFile),
});
export type TransferAdditionView = z.infer<typeof TransferAdditionView>;

/** GET /api/transfer/transfers/{id}/detail, and the answer of every action: the owner's (or manager's) view. */
export const TransferDetail = TransferSummary.extend({
  statusLabel: z.string(),
  ownerId: z.string().nullable(),
  createdAt: z.string(),
  expired: z.boolean(),
  /** When the bytes were deleted (expiry sweep, or the transfer deleted); null while they are stored. */
  bytesDeletedAt: z.string().nullable(),
  message: z.string().nullable(),
  maxDownloads: z.number().int().nullable(),
  allowPreview: z.boolean(),
  passwordProtected: z.boolean(),
  downloadCount: z.number().int(),
  fileCount: z.number().int(),
  recipients: z.array(RecipientDetail),
  /** The most recent downloads (at most 200) not made through a personal link, newest first. */
  downloads: z.array(TransferDownloadView),
  /** The transfer's history (spec §3 events), oldest first. */
  events: z.array(TransferEventView),
  /** The transfer this one is a clone of; null when it is not a clone. */
  clonedFrom: TransferId.nullable(),
  /** Files being added (POST …/files) whose addition is not completed yet, oldest first. */
  additions: z.array(TransferAdditionView),
  /** Selling files: the price (VAT excluded) of a priced transfer, null when it is free. */
  price: TransferPrice.nullable(),
  /** The paid sales of a priced transfer, newest first (empty for a free one). */
  sales: z.array(TransferSale),
});
export type TransferDetail = z.infer<typeof TransferDetail>;

/**
 * PATCH /api/transfer/transfers/{id}: each field only when set; each change is recorded as its spec §3 event.
 * - `name` (null: no name) → RENAMED {from, to};
 * - `expiresAt` → EXPIRY_DATE_CHANGED {from, to}; an ISO date-time, or a day `YYYY-MM-DD` (the end of that day,
 *   UTC, or the last allowed moment when that is the last allowed day); at most the plan's validity counted from
 *   the transfer's creation;
 * - `password` (null: removed) → PASSWORD_CHANGED {removed};
 * - `allowPreview` → PREVIEW_CHANGED {allowPreview};
 * - `maxDownloads` (null: no limit) → MAX_DOWNLOADS_ADDED {to} / _CHANGED {from, to} / _REMOVED {from};
 * - `downloadConfirmation`, `expiryReminder`, `forceEmailWhenDownloadS2`: as PATCH …/notifications;
 * - `availableFrom` (ISO date-time; null: open now) → AVAILABILITY_CHANGED {from, to}: only while the transfer has
 *   not opened yet (its current `availableFrom` is in the future); a new one must be in the future and before the
 *   expiry. Cleared (or moved into the past), a PENDING transfer opens at once and goes out.
 */
export const TransferUpdate = z
  .object({
    name: text().pipe(z.string().trim().max(255)).nullable().optional(),
    expiresAt: z.union([z.iso.datetime({ offset: true }), z.iso.date()]).optional(),
    password: text().pipe(z.string().min(1).max(256)).nullable().optional(),
    allowPreview: z.boolean().optional(),
    maxDownloads: z.number().int().min(1).max(1_000_000).nullable().optional(),
    downloadConfirmation: z.boolean().optional(),
    expiryReminder: z.boolean().optional(),
    forceEmailWhenDownloadS2: z.boolean().optional(),
    availableFrom: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .strict();
export type TransferUpdate = z.input<typeof TransferUpdate>;

/** POST /api/transfer/transfers/{id}/recipients (S1): each new address is mailed its personal link. */
export const TransferRecipientsAdd = z.object({ emails: z.array(Email).min(1).max(1000) });
export type TransferRecipientsAdd = z.input<typeof TransferRecipientsAdd>;

/** PATCH /api/transfer/transfers/{id}/files/{fileId}: a new name, checked by spec §5. */
export const TransferFileUpdate = z.object({ name: z.string().min(1).max(1024) }).strict();
export type TransferFileUpdate = z.input<typeof TransferFileUpdate>;

/**
 * POST /api/transfer/transfers/{id}/clone → 201 `TransferDetail` of the new transfer, status `CLONING` until its
 * files are copied (then `ENABLED`). Each field only when set, else the source's: `name` and `message` (null:
 * none), `type` (`S1` needs recipients; default the source's, `S2` for an S3 transfer), `recipients` (S1; default
 * the source's when it is S1 too), `expiresAt` (ISO date-time or `YYYY-MM-DD`, within the plan's validity counted
 * from now; default: the default validity), `password` (null: none; default: the source's password is kept),
 * `maxDownloads` (null: no limit), `allowPreview`.
 */
export const TransferCloneRequest = z
  .object({
    name: text().pipe(z.string().trim().max(255)).nullable().optional(),
    message: text().pipe(z.string().max(100_000)).nullable().optional(),
    type: z.enum(['S1', 'S2']).optional(),
    recipients: z.array(Email).max(1000).optional(),
    expiresAt: z.union([z.iso.datetime({ offset: true }), z.iso.date()]).optional(),
    password: text().pipe(z.string().min(1).max(256)).nullable().optional(),
    maxDownloads: z.number().int().min(1).max(1_000_000).nullable().optional(),
    allowPreview: z.boolean().optional(),
  })
  .strict();
export type TransferCloneRequest = z.input<typeof TransferCloneRequest>;

/**
 * POST /api/transfer/transfers/{id}/files: announces files to add (names checked by spec §5, plan limits over the
 * whole transfer) → 201 `TransferFilesAddResponse`; each file is then sent with tus as on creation, with the
 * addition's `uploadToken`, and the addition completed with POST …/additions/{additionId}/complete.
 */
export const TransferFilesAdd = z.object({ files: z.array(TransferFileInput).min(1).max(100_000) }).strict();
export type TransferFilesAdd = z.input<typeof TransferFilesAdd>;

export const TransferFilesAddResponse = z.object({
  transferId: TransferId,
  additionId: AdditionId,
  /** Authorises the tus uploads of these files (header `X-Upload-Token`); shown once. */
  uploadToken: z.string(),
  /** tus endpoint to create each file's upload at (metadata `transferId`, `fileId`). */
  uploadEndpoint: z.string(),
  files: z.array(TransferFile),
});
export type TransferFilesAddResponse = z.infer<typeof TransferFilesAddResponse>;

/**
 * POST /api/transfer/transfers/{id}/additions/{additionId}/complete: every file uploaded and matching the
 * client's SHA-256 → the files join the transfer (FILES_ADDED); `notifyRecipients` e-mails S1 recipients.
 */
export const TransferFilesComplete = z
  .object({
    files: z.array(z.object({ id: FileId, sha256: Sha256Hex.optional() })).default([]),
    notifyRecipients: z.boolean().default(false),
  })
  .strict();
export type TransferFilesComplete = z.input<typeof TransferFilesComplete>;
