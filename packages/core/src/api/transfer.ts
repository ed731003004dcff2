import { z } from 'zod';
import { SCAN_STATUSES, TRANSFER_EVENTS, TRANSFER_STATUSES, TRANSFER_TYPES } from '../enums.js';
import { EMAIL_MAX_LENGTH } from '../rules/email.js';
import { EVENT_ACTOR_KINDS } from '../rules/event-actor.js';
import { hasLayoutControlChars } from '../rules/text.js';
import { TransferPrice } from './billing.js';
import { FileId, TransferId, TransferRef } from './ids.js';
import { TransferOpenGraph } from './link-preview.js';
import { PreviewLinkDetails } from './previews.js';
import { Theme, TransferCustomization, TransferCustomizationView } from './theme.js';

/** Free text that is stored: PostgreSQL text cannot hold NUL, so it is refused up front (400, not 500). */
const text = () => z.string().refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/**
 * A person's name as others see it (sender names, the uploader's name on a receive page, an account's first
 * name): surrounding spaces dropped, at most `max` characters, and no line break, tab, other control character
 * or bidirectional control (a name is one line that reads as written; see hasLayoutControlChars).
 */
export const PersonName = (max = 200) =>
  text()
    .pipe(z.string().trim().max(max))
    .refine((v) => !hasLayoutControlChars(v), 'must not contain line breaks or control characters');

/** An e-mail address as people type it: surrounding spaces are dropped. */
export const Email = z.string().trim().email().max(EMAIL_MAX_LENGTH);

export { FileId, TransferId, TransferRef };

/** An ISO 8601 date-time with its offset (`2026-05-01T09:00:00+02:00`, or `Z`). */
const DateTime = z.iso.datetime({ offset: true });
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
  senderEmail: Email.optional(),
  senderName: PersonName().optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'not a language tag')
    .max(35)
    .optional(),
  /**
   * The sender's IANA time zone (e.g. `Europe/Paris`): dates in the e-mails about this transfer are written in
   * it, with its name. Unknown zones are refused; without one, UTC.
   */
  timeZone: z
    .string()
    .max(64)
    .refine((v) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: v });
        return true;
      } catch {
        return false;
      }
    }, 'not a known time zone')
    .optional(),
  files: z.array(TransferFileInput).min(1).max(100_000),
  /**
   * S1: who gets the transfer by e-mail, each with a personal link (at most the plan's `recipients` limit).
   * Duplicates (case-insensitive) are dropped. Required and non-empty for S1, refused for S2.
   */
  recipients: z.array(Email).max(1000).optional(),
  /** Tell the sender each time someone downloads. Default: on for S1, off for S2. */
  downloadConfirmation: z.boolean().optional(),
  /** Remind recipients who have not downloaded yet, before the transfer expires (S1). Default: on for S1. */
  expiryReminder: z.boolean().optional(),
  /** Send the sender a summary (with their own link) once the transfer went out. Default: on for S1. */
  summary: z.boolean().optional(),
  /** S2: a downloader must give an e-mail address first (spec §3 `downloaderEmail`). */
  forceEmailWhenDownloadS2: z.boolean().default(false),
  /**
   * Proof, from an earlier verification, that the sender owns `senderEmail` (see SenderVerificationResponse).
   * When it is valid for that address no code is sent.
   */
  senderVerificationToken: z.string().max(1000).optional(),
  /**
   * Selling files (S2 only, paying accounts, when the server takes cards): downloads need a purchase at this price
   * (VAT excluded, minor units; the buyer pays the VAT of their country on top).
   */
  price: TransferPrice.optional(),
  /** The download page's link preview instead of the defaults (paid plans; see TransferOpenGraph). */
  openGraph: TransferOpenGraph.optional(),
  /**
   * Paying plans: the transfer also answers at `/dl/{customLink}` (unique on the instance, case-insensitive;
   * 409 CUSTOM_LINK_TAKEN when another transfer has it). Mails and the sender's link use it. The rule
   * (customLinkProblem) is checked by the server, which refuses a link that breaks it with VALIDATION_FAILED, a
   * message that says why and `details: {field: 'customLink', problem}`.
   */
  customLink: text().pipe(z.string().max(200)).optional(),
  /**
   * The availability window's start (spec §3 "from" date): until then the transfer is PENDING — its files upload
   * as usual, but nothing goes out (no e-mail, downloads answer 403 NOT_YET_AVAILABLE). The validity (expiry)
   * counts from this moment. At most the plan's validity ahead.
   */
  availableFrom: DateTime.optional(),
  /** Spec §3 `customization`: this transfer's download page colours and wallpaper (paid plans). */
  customization: TransferCustomization.optional(),
});
export type TransferCreateRequest = z.input<typeof TransferCreateRequest>;

/**
 * Whether the sender's e-mail address is proven:
 * - `not_needed`: Ferry will not write to the sender (or it trusts them: signed in, or verification off);
 * - `pending`: a 6-digit code went to `senderEmail`; nothing is e-mailed to recipients (S1) or to the sender
 *   (confirmations, summary) until it is given to POST …/sender-verification;
 * - `verified`: proven.
 */
export const SENDER_VERIFICATION_STATES = ['not_needed', 'pending', 'verified'] as const;
export type SenderVerificationState = (typeof SENDER_VERIFICATION_STATES)[number];

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
  /** Absent from servers before custom links and availability windows: read as null. */
  customLink: z.string().nullable().default(null),
  availableFrom: z.string().nullable().default(null),
  /** Secret that authorises uploads into this transfer (header `X-Upload-Token`); shown once. */
  uploadToken: z.string(),
  /** tus endpoint to create each file's upload at (metadata `transferId`, `fileId`). */
  uploadEndpoint: z.string(),
  files: z.array(TransferFile),
  senderVerification: z.enum(SENDER_VERIFICATION_STATES),
});
export type TransferCreateResponse = z.infer<typeof TransferCreateResponse>;

export const TransferCompleteRequest = z.object({
  /** The client's own SHA-256 of each file, compared with the server's; a mismatch is refused. */
  files: z.array(z.object({ id: FileId, sha256: Sha256Hex.optional() })).default([]),
});
export type TransferCompleteRequest = z.input<typeof TransferCompleteRequest>;

/**
 * Where a recipient's e-mail stands: `waiting` (the transfer has not gone out yet: upload or sender
 * verification unfinished), `queued`, `sent` (the relay accepted it), `failed` (refused for now; retried),
 * `rejected` (refused for good, e.g. no such mailbox), `in_doubt` (the connection broke mid-send: it may or
 * may not have arrived; never sent twice).
 */
export const RECIPIENT_DELIVERY_STATES = [
  'waiting',
  'queued',
  'sent',
  'failed',
  'rejected',
  'in_doubt',
] as const;
export type RecipientDeliveryState = (typeof RECIPIENT_DELIVERY_STATES)[number];

export const RecipientStatus = z.object({
  email: z.string(),
  delivery: z.enum(RECIPIENT_DELIVERY_STATES),
  /** The relay's or the outbox's last error, for `failed`, `rejected` and `in_doubt`. */
  error: z.string().nullable(),
  /** First download through this recipient's personal link. */
  downloadedAt: z.string().nullable(),
});
export type RecipientStatus = z.infer<typeof RecipientStatus>;

export const TransferNotifications = z.object({
  downloadConfirmation: z.boolean(),
  expiryReminder: z.boolean(),
  summary: z.boolean(),
  forceEmailWhenDownloadS2: z.boolean(),
});
export type TransferNotifications = z.infer<typeof TransferNotifications>;

export const TransferSummary = z.object({
  transferId: TransferId,
  type: z.enum(TRANSFER_TYPES),
  status: z.enum(TRANSFER_STATUSES),
  name: z.string().nullable(),
  link: z.string(),
  /** The transfer's custom link (`/dl/{customLink}`), null when it has none (or the server predates them). */
  customLink: z.string().nullable().default(null),
  /** When the transfer opens (ISO 8601); null: as soon as its files arrived. */
  availableFrom: z.string().nullable().default(null),
  expiresAt: z.string(),
  totalSize: z.number().int(),
  files: z.array(TransferFile),
  senderEmail: z.string().nullable(),
  senderVerification: z.enum(SENDER_VERIFICATION_STATES),
  /** When the transfer went out (S1: recipients' e-mails queued); null until then. */
  sentAt: z.string().nullable(),
  /** S1 recipients in the order given, each with their e-mail's delivery and their first download. */
  recipients: z.array(RecipientStatus),
  notifications: TransferNotifications,
});
export type TransferSummary = z.infer<typeof TransferSummary>;

/** One entry of a transfer's history (spec §3 transfer events), as the dashboard shows it. */
export const TransferEventView = z.object({
  type: z.enum(TRANSFER_EVENTS),
  /** ISO 8601, UTC. */
  at: z.string(),
  /** Who did it: a signed-in user (id), an anonymous sender, a recipient or downloader (e-mail), or Ferry itself. */
  actor: z.object({
    kind: z.enum(EVENT_ACTOR_KINDS),
    userId: z.string().nullable(),
    email: z.string().nullable(),
  }),
  /** What changed, by event: CREATED {type, files, totalSize}, RECIPIENT_ADDED {email}, EXPIRED {}, … */
  data: z.record(z.string(), z.unknown()),
});
export type TransferEventView = z.infer<typeof TransferEventView>;

/**
 * GET /api/transfer/transfers/{transferId}/events (the upload token in `x-upload-token`, or the owner signed in)
 * → the transfer's events, oldest first.
 */
export const TransferEventList = z.object({ transferId: TransferId, events: z.array(TransferEventView) });
export type TransferEventList = z.infer<typeof TransferEventList>;

/** What a recipient sees before downloading; files are listed only once the password (if any) is given. */
/** A file as the download page sees it: with its virus scan's status (a server without scanning: not-scanned). */
export const DownloadFile = TransferFile.extend({ scanStatus: z.enum(SCAN_STATUSES).default('not-scanned') });
export type DownloadFile = z.infer<typeof DownloadFile>;

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
  files: z.array(DownloadFile),
  /**
   * This server scans files for viruses (clamd configured): a file's `not-scanned` is then worth telling (too
   * large for the scanner); without scanning every file is `not-scanned` and pages need not say so per file.
   */
  virusScan: z.boolean().default(false),
  /** The downloader must give an e-mail address (`downloaderEmail`) before a download link is issued. */
  downloaderEmailRequired: z.boolean(),
  /** With a valid `userSecret`: the recipient that personal link belongs to. */
  recipientEmail: z.string().nullable(),
  /** A priced transfer: what a purchase costs (VAT excluded); null when downloads are free. */
  price: TransferPrice.nullable(),
  /** Whether the `purchaseToken` given unlocks this transfer (always true for a free one). */
  purchased: z.boolean(),
  /** The branding of the transfer's owner (their account's or team's theme); null: Ferry's own. */
  theme: Theme.nullable().optional(),
  /** This transfer's own colours and wallpaper, shown over `theme`. */
  customization: TransferCustomizationView.nullable().optional(),
});
export type DownloadInfo = z.infer<typeof DownloadInfo>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .optional();

/** Query of GET /api/transfer/downloads/link and /info (spec §7: each only when set). */
export const DownloadLinkQuery = z.object({
  /** The transfer's id or its custom link (any case). */
  transferId: TransferRef,
  preview: flag,
  userSecret: text().pipe(z.string().max(200)).optional(),
  fileId: FileId.optional(),
  password: text().pipe(z.string().max(256)).optional(),
  downloaderEmail: Email.optional(),
  browserCode: text().pipe(z.string().max(200)).optional(),
  orderId: text().pipe(z.string().max(200)).optional(),
  'admin-dashboard': flag,
  /** A priced transfer: the purchase token its buyer got (GET /api/pay/purchases/{id}, or the mailed link). */
  purchaseToken: text().pipe(z.string().max(300)).optional(),
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
  /** With preview=true: the renditions to show in the page (`url` is the first); never the file's own bytes. */
  preview: PreviewLinkDetails.optional(),
});
export type DownloadLinkResponse = z.infer<typeof DownloadLinkResponse>;

/** POST /api/transfer/transfers/{id}/sender-verification (header X-Upload-Token). */
export const SenderVerificationRequest = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'the code has 6 digits'),
});
export type SenderVerificationRequest = z.input<typeof SenderVerificationRequest>;

export const SenderVerificationResponse = z.object({
  transfer: TransferSummary,
  /**
   * Proof that this sender owns the address, for `senderVerificationToken` of later transfers from the same
   * address (valid `expiresAt`); keep it with the sender's e-mail.
   */
  senderVerificationToken: z.string(),
  expiresAt: z.string(),
});
export type SenderVerificationResponse = z.infer<typeof SenderVerificationResponse>;

/** POST /api/transfer/transfers/{id}/sender-verification/resend: a new code, the old one stops working. */
export const SenderVerificationResendResponse = z.object({
  sentTo: z.string(),
  /** Seconds before another code may be asked for. */
  retryAfterSeconds: z.number().int(),
});
export type SenderVerificationResendResponse = z.infer<typeof SenderVerificationResendResponse>;

/** PATCH /api/transfer/transfers/{id}/notifications (header X-Upload-Token): each only when set. */
export const TransferNotificationsUpdate = z.object({
  downloadConfirmation: z.boolean().optional(),
  expiryReminder: z.boolean().optional(),
  forceEmailWhenDownloadS2: z.boolean().optional(),
});
export type TransferNotificationsUpdate = z.input<typeof TransferNotificationsUpdate>;

/** POST /api/transfer/notifications/unsubscribe?token=…: what a mail's unsubscribe link turned off. */
export const UnsubscribeResponse = z.object({
  kind: z.enum(['downloadConfirmation', 'expiryReminder']),
  transferName: z.string().nullable(),
});
export type UnsubscribeResponse = z.infer<typeof UnsubscribeResponse>;

/**
 * POST /api/transfer/downloads/check-password. Spec §7 names transferId and password; `userSecret` (the personal
 * link's secret, as for info and link) is needed for an S1 transfer unless the caller is its owner.
 */
export const CheckPasswordRequest = z.object({
  transferId: TransferRef,
  password: z.string().max(256),
  userSecret: text().pipe(z.string().max(200)).optional(),
});
export const CheckPasswordResponse = z.object({ ok: z.literal(true) });

export const HealthResponse = z.object({ status: z.literal('ok'), version: z.string() });
