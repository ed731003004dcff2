import { z } from 'zod';
import { FILE_ID_LENGTH, TRANSFER_ID_LENGTH } from '../constants.js';
import { TRANSFER_STATUSES, TRANSFER_TYPES } from '../enums.js';

/** Free text that is stored: PostgreSQL text cannot hold NUL, so it is refused up front (400, not 500). */
const text = () => z.string().refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

export const TransferId = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9]{${TRANSFER_ID_LENGTH}}$`), 'not a transfer id');
export const FileId = z.string().regex(new RegExp(`^[A-Za-z0-9]{${FILE_ID_LENGTH}}$`), 'not a file id');
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'not a lowercase hex SHA-256');

export const TransferFileInput = z.object({
  /** The file's own name, checked by spec §5. */
  name: z.string().min(1).max(1024),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  /** Path inside a dropped folder, ending with the name ("photos/2024/a.jpg"); absent for a loose file. */
  relativePath: z.string().min(1).max(8192).optional(),
});
export type TransferFileInput = z.infer<typeof TransferFileInput>;

export const TransferCreateRequest = z.object({
  type: z.enum(TRANSFER_TYPES).default('S2'),
  name: text().pipe(z.string().trim().max(255)).optional(),
  message: text().pipe(z.string().max(100_000)).optional(),
  password: text().pipe(z.string().min(1).max(256)).optional(),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
  maxDownloads: z.number().int().min(1).max(1_000_000).optional(),
  allowPreview: z.boolean().default(true),
  senderEmail: z.string().email().max(320).optional(),
  senderName: text().pipe(z.string().trim().max(200)).optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'not a language tag')
    .max(35)
    .optional(),
  files: z.array(TransferFileInput).min(1).max(100_000),
});
export type TransferCreateRequest = z.input<typeof TransferCreateRequest>;

export const TransferFile = z.object({
  id: FileId,
  name: z.string(),
  relativePath: z.string().nullable(),
  size: z.number().int(),
  sha256: Sha256Hex.nullable(),
  uploaded: z.boolean(),
});
export type TransferFile = z.infer<typeof TransferFile>;

export const TransferCreateResponse = z.object({
  transferId: TransferId,
  type: z.enum(TRANSFER_TYPES),
  status: z.enum(TRANSFER_STATUSES),
  link: z.string(),
  expiresAt: z.string(),
  /** Secret that authorises uploads into this transfer (header `X-Upload-Token`); shown once. */
  uploadToken: z.string(),
  /** tus endpoint to create each file's upload at (metadata `transferId`, `fileId`). */
  uploadEndpoint: z.string(),
  files: z.array(TransferFile),
});
export type TransferCreateResponse = z.infer<typeof TransferCreateResponse>;

export const TransferCompleteRequest = z.object({
  /** The client's own SHA-256 of each file, compared with the server's; a mismatch is refused. */
  files: z.array(z.object({ id: FileId, sha256: Sha256Hex.optional() })).default([]),
});
export type TransferCompleteRequest = z.input<typeof TransferCompleteRequest>;

export const TransferSummary = z.object({
  transferId: TransferId,
  type: z.enum(TRANSFER_TYPES),
  status: z.enum(TRANSFER_STATUSES),
  name: z.string().nullable(),
  link: z.string(),
  expiresAt: z.string(),
  totalSize: z.number().int(),
  files: z.array(TransferFile),
});
export type TransferSummary = z.infer<typeof TransferSummary>;

/** What a recipient sees before downloading; files are listed only once the password (if any) is given. */
export const DownloadInfo = z.object({
  transferId: TransferId,
  name: z.string().nullable(),
  message: z.string().nullable(),
  senderName: z.string().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  expiresAt: z.string(),
  passwordProtected: z.boolean(),
  /** True while a password is needed and was not (rightly) given: files are then withheld. */
  locked: z.boolean(),
  allowPreview: z.boolean(),
  fileCount: z.number().int(),
  totalSize: z.number().int(),
  downloadsLeft: z.number().int().nullable(),
  files: z.array(TransferFile),
});
export type DownloadInfo = z.infer<typeof DownloadInfo>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .optional();

/** Query of GET /api/transfer/downloads/link and /info (spec §7: each only when set). */
export const DownloadLinkQuery = z.object({
  transferId: TransferId,
  preview: flag,
  userSecret: text().pipe(z.string().max(200)).optional(),
  fileId: FileId.optional(),
  password: text().pipe(z.string().max(256)).optional(),
  downloaderEmail: z.string().email().max(320).optional(),
  browserCode: text().pipe(z.string().max(200)).optional(),
  orderId: text().pipe(z.string().max(200)).optional(),
  'admin-dashboard': flag,
});
export type DownloadLinkQuery = z.input<typeof DownloadLinkQuery>;

export const DownloadLinkResponse = z.object({
  /** Short-lived URL that streams the file (or the whole transfer as a ZIP) as an attachment; supports Range. */
  url: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  /** SHA-256 of the file; null for the ZIP. */
  sha256: Sha256Hex.nullable(),
  expiresAt: z.string(),
});
export type DownloadLinkResponse = z.infer<typeof DownloadLinkResponse>;

export const CheckPasswordRequest = z.object({ transferId: TransferId, password: z.string().max(256) });
export const CheckPasswordResponse = z.object({ ok: z.literal(true) });

export const HealthResponse = z.object({ status: z.literal('ok'), version: z.string() });
