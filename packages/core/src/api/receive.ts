import { z } from 'zod';
import { TRANSFER_STATUSES } from '../enums.js';
import {
  Email,
  FileId,
  PersonName,
  Sha256Hex,
  TransferFile,
  TransferFileInput,
  TransferId,
} from './transfer.js';

/**
 * Receiving files (S3, spec §1, §2): file requests (/request-files), upload inboxes, /push and widgets.
 *
 * One concept, the *receive point*, of two kinds:
 * - `request`: one-off, created from /request-files, expires (default 21 days for paying users, 7 otherwise);
 *   S1 e-mails each asked person a personal upload link, S2 gives one link. Public page `/r/{requestId}`
 *   (S1 personal links add `?userSecret=…`).
 * - `inbox`: permanent, owned by a user, its own address `/i/{slug}`, switched on and off; widgets
 *   (`/widgets/{widgetId}`) and /push upload into an inbox.
 *
 * Every upload into a point is a transfer of type S3 owned by the point's owner (their plan's limits and
 * storage), uploaded with the usual tus flow; only its owner (or an authorized team manager) downloads it.
 *
 * Routes (all under /api):
 * - owner (signed in): `POST/GET /receive/requests`, `GET /receive/requests/{requestId}`,
 *   `POST /receive/requests/{requestId}/close`; `GET/POST /receive/inboxes`,
 *   `GET/PATCH/DELETE /receive/inboxes/{inboxId}`; `GET/POST /receive/inboxes/{inboxId}/widgets`,
 *   `GET/PATCH/DELETE /receive/widgets/{widgetId}`; `GET /receive/received/{transferId}`.
 * - public (no cookie needed): `GET /receive/points/request/{requestId}[?userSecret=]`,
 *   `GET /receive/points/inbox/{slug}`, `GET /receive/points/widget/{widgetId}`, `GET /receive/push?to=…`,
 *   `POST /receive/check-password`, `POST /receive/uploads`, `GET /receive/uploads/{transferId}`,
 *   `POST /receive/uploads/{transferId}/complete` (the last two with header `X-Upload-Token`).
 */

/** PostgreSQL text cannot hold NUL: refused up front (400, not 500). */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/** S1: by e-mail (personal links / identified uploaders); S2: by link. */
export const RECEIVE_LINK_MODES = ['S1', 'S2'] as const;
export type ReceiveLinkMode = (typeof RECEIVE_LINK_MODES)[number];

export const RECEIVE_POINT_KINDS = ['request', 'inbox'] as const;
export type ReceivePointKind = (typeof RECEIVE_POINT_KINDS)[number];

/** `open`: accepts uploads; `closed`: closed by its owner (request) or switched off (inbox); `expired` (request). */
export const RECEIVE_POINT_STATES = ['open', 'closed', 'expired'] as const;
export type ReceivePointState = (typeof RECEIVE_POINT_STATES)[number];

/** Public size of the random request and widget ids (base62, like transfer ids). */
export const RECEIVE_ID_LENGTH = 16;

/**
 * A request's id, in its address `/r/{requestId}`: 16 random base62 characters, or the requester's own
 * `customId` (3–40 of a–z, 0–9 and inner hyphens, lowercase).
 */
export const ReceiveRequestId = z
  .string()
  .regex(/^(?:[A-Za-z0-9]{16}|[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9])$/, 'not a request id');

/**
 * Words a request's `customId` or an inbox's slug may not take, so that no `/r/…` or `/i/…` address (nor
 * `/push?to=…`) reads as one of the service's own pages: every top-level route of the app and of the spec's route
 * table (§2), and the obvious words of a web service. Choosing one answers 409 CONFLICT, as a taken address.
 */
export const RESERVED_RECEIVE_ADDRESSES: ReadonlySet<string> = new Set([
  // The app's routes (apps/web/src/router.tsx) and the spec's route table.
  ...['account', 'dashboard', 'signin', 'register', 'verify-email', 'forgot-password', 'reset-password'],
  ...['request-files', 'push', 'unsubscribe', 'widgets', 'dl', 'd', 'r', 'i', 'cld', 'discover', 'about'],
  ...['features', 'prices', 'contact', 'support', 'how-to', 'explore', 'terms', 'privacy-gdpr', 'cookies'],
  ...['legal', 'apps', 'wetransfer', 'compare', 'top-5-file-transfer-service', 'operator', 'admin'],
  ...['notfound', 'expired', 'start'],
  // The server's own paths and words that would pass for the service speaking.
  ...['api', 'metrics', 'health', 'assets', 'static', 'docs', 'status', 'ferry', 'www', 'mail', 'help'],
  ...['login', 'logout', 'signout', 'sign-in', 'sign-out', 'signup', 'sign-up', 'security', 'settings'],
  ...['billing', 'pay', 'auth', 'user', 'users', 'team', 'teams', 'transfer', 'transfers', 'receive'],
  ...['inbox', 'inboxes', 'request', 'requests', 'upload', 'uploads', 'download', 'downloads', 'widget'],
  ...['root', 'system', 'abuse', 'postmaster', 'webmaster', 'hostmaster', 'no-reply', 'noreply', 'null'],
  ...['undefined', 'new', 'edit', 'official', 'verify', 'password', 'privacy'],
]);

/** Whether a custom request id or inbox slug is one of the reserved words (case and spaces ignored). */
export const isReservedReceiveAddress = (id: string): boolean =>
  RESERVED_RECEIVE_ADDRESSES.has(id.trim().toLowerCase());

/** An inbox's own address `/i/{slug}`: 3–40 of a–z, 0–9 and inner hyphens (stored lowercase). */
export const InboxSlug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/, '3 to 40 letters, digits or hyphens (not at either end)');

export const InboxId = z.string().regex(/^[A-Za-z0-9]{16}$/, 'not an inbox id');
export const WidgetId = z.string().regex(/^[A-Za-z0-9]{16}$/, 'not a widget id');

/**
 * Allowed extensions ("pdf", ".PDF" and "pdf" are the same): stored lowercase without the dot, duplicates
 * dropped. Empty = every extension (spec §3). Intersected with the owner's (team's) `receiveAllowedExtensions`.
 */
export const ExtensionList = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .transform((v) => v.replace(/^\.+/, ''))
      .pipe(z.string().regex(/^[a-z0-9][a-z0-9._+-]{0,19}$/, 'not a file extension')),
  )
  .max(200)
  .transform((list) => [...new Set(list)]);

/** A hex colour `#RRGGBB` (or `#RGB`). */
export const HexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'not a hex colour');

/** Spec §3 theme colours; the page uses the defaults (#4052B5, #3F51B5, #FF6208) for any missing one. */
export const ReceiveTheme = z.object({
  backgroundColor: HexColor.nullable(),
  actionColor: HexColor.nullable(),
  startbtnColor: HexColor.nullable(),
});
export type ReceiveTheme = z.infer<typeof ReceiveTheme>;
export const ReceiveThemeInput = ReceiveTheme.partial();
export type ReceiveThemeInput = z.input<typeof ReceiveThemeInput>;

export { DEFAULT_RECEIVE_THEME } from '../rules/theme-defaults.js';

/** How the upload form asks for one uploader field. */
export const FIELD_MODES = ['hidden', 'optional', 'required'] as const;
export type FieldMode = (typeof FIELD_MODES)[number];

/** One custom question of an inbox or widget form. */
export const UploaderQuestion = z.object({
  /** Stable id (a–z, 0–9, -, _; up to 40), given by the owner or made from the position (`q1`, `q2`, …). */
  id: z.string().regex(/^[a-z0-9_-]{1,40}$/, 'not a question id'),
  label: text(200).pipe(z.string().trim().min(1)),
  required: z.boolean().default(false),
});
export type UploaderQuestion = z.infer<typeof UploaderQuestion>;

/** The uploader fields a form asks for. An S1 inbox always requires the e-mail. */
export const UploaderFields = z.object({
  name: z.enum(FIELD_MODES).default('optional'),
  email: z.enum(FIELD_MODES).default('optional'),
  message: z.enum(FIELD_MODES).default('optional'),
  questions: z.array(UploaderQuestion).max(20).default([]),
});
export type UploaderFields = z.infer<typeof UploaderFields>;
export type UploaderFieldsInput = z.input<typeof UploaderFields>;

/** Where the asked person's upload mail stands (S1 requests); as RecipientStatus.delivery of transfers. */
export const ReceiveRecipientStatus = z.object({
  email: z.string(),
  delivery: z.enum(['waiting', 'queued', 'sent', 'failed', 'rejected', 'in_doubt']),
  error: z.string().nullable(),
  /** Their first finished upload through their personal link. */
  uploadedAt: z.string().nullable(),
});
export type ReceiveRecipientStatus = z.infer<typeof ReceiveRecipientStatus>;

const ianaZone = z
  .string()
  .max(64)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'not a known time zone');
const languageTag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'not a language tag')
  .max(35);

// ---------------------------------------------------------------------------------------------------------------
// Requests (/request-files)

/**
 * POST /api/receive/requests (signed in; anonymous → 401 UNAUTHORIZED, the page asks to sign in) → 201
 * ReceiveRequestView. The receive form of spec §3. `linkMode` S1 needs `recipients` (each mailed a personal
 * upload link, at most the plan's `recipients` limit) and `allowInboxS1`; S2 refuses `recipients` and needs
 * `allowInboxS2` (403 FORBIDDEN, `details.setting`).
 */
export const ReceiveRequestCreate = z.object({
  linkMode: z.enum(RECEIVE_LINK_MODES).default('S2'),
  subject: text(255).pipe(z.string().trim()).optional(),
  message: text(100_000).optional(),
  recipients: z.array(Email).max(1000).optional(),
  /** Shown to uploaders and used as Reply-To; defaults to the account's name and address. */
  senderName: PersonName().optional(),
  senderEmail: Email.optional(),
  /** The request's address `/r/{customId}` instead of a random id (409 CONFLICT when taken). */
  customId: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/, '3 to 40 letters, digits or hyphens')
    .optional(),
  password: text(256).pipe(z.string().min(1)).optional(),
  /** Default 21 (paying) or 7 days (spec §5); at most the plan's file validity. */
  expiresInDays: z.number().int().min(1).max(3650).optional(),
  /** Remind asked people (S1) who have not uploaded, before expiry. Default: the owner's notificationSettings.receive.expiryReminder. */
  expiryReminder: z.boolean().optional(),
  /** Mail the requester on each upload. Default: the owner's notificationSettings.receive.upload. */
  uploadNotification: z.boolean().optional(),
  allowedExtensions: ExtensionList.optional(),
  /** Needs `receiveAllowCustomization` (403 FORBIDDEN otherwise). */
  customization: ReceiveThemeInput.optional(),
  locale: languageTag.optional(),
  timeZone: ianaZone.optional(),
});
export type ReceiveRequestCreate = z.input<typeof ReceiveRequestCreate>;

/** A request as its owner sees it (create, list, detail, close). */
export const ReceiveRequestView = z.object({
  requestId: ReceiveRequestId,
  kind: z.literal('request'),
  linkMode: z.enum(RECEIVE_LINK_MODES),
  state: z.enum(RECEIVE_POINT_STATES),
  /** The public upload page, absolute: `{origin}/r/{requestId}` (S1 people get their own `?userSecret=`). */
  link: z.string(),
  subject: z.string().nullable(),
  message: z.string().nullable(),
  senderName: z.string().nullable(),
  senderEmail: z.string().nullable(),
  passwordProtected: z.boolean(),
  expiresAt: z.string(),
  createdAt: z.string(),
  expiryReminder: z.boolean(),
  uploadNotification: z.boolean(),
  /** Effective list: the request's own intersected with the owner's `receiveAllowedExtensions`; [] = all. */
  allowedExtensions: z.array(z.string()),
  customization: ReceiveTheme,
  recipients: z.array(ReceiveRecipientStatus),
  /** Finished uploads (received S3 transfers) into this request. */
  uploadCount: z.number().int(),
});
export type ReceiveRequestView = z.infer<typeof ReceiveRequestView>;

/** GET /api/receive/requests → the signed-in user's requests, newest first (at most 200). */
export const ReceiveRequestListResponse = z.object({ items: z.array(ReceiveRequestView) });
export type ReceiveRequestListResponse = z.infer<typeof ReceiveRequestListResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Inboxes

/**
 * POST /api/receive/inboxes (signed in) → 201 InboxView. `linkMode` S1 (uploaders must give their e-mail and get
 * a receipt) needs `allowInboxS1`, S2 (link only) `allowInboxS2` (403 FORBIDDEN, `details.setting`). A slug
 * already used by any inbox → 409 CONFLICT. The owner's first inbox is their default (the one /push by e-mail
 * fills).
 */
export const InboxCreate = z.object({
  slug: InboxSlug,
  title: text(200).pipe(z.string().trim().min(1)),
  description: text(5000).optional(),
  linkMode: z.enum(RECEIVE_LINK_MODES).default('S2'),
  enabled: z.boolean().default(true),
  isDefault: z.boolean().optional(),
  password: text(256).pipe(z.string().min(1)).optional(),
  allowedExtensions: ExtensionList.optional(),
  /** Most bytes one upload may bring; at most the plan's upload size (400 LIMIT_EXCEEDED). Default: the plan's. */
  maxUploadBytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Days each received upload stays; default min(plan validity, 21), at most the plan's validity. */
  fileValidityDays: z.number().int().min(1).max(3650).optional(),
  fields: UploaderFields.optional(),
  uploadNotification: z.boolean().default(true),
  customization: ReceiveThemeInput.optional(),
});
export type InboxCreate = z.input<typeof InboxCreate>;

/** PATCH /api/receive/inboxes/{inboxId} (owner) → InboxView; `password: null` removes it, `enabled` switches it. */
export const InboxUpdate = z
  .object({
    slug: InboxSlug,
    title: text(200).pipe(z.string().trim().min(1)),
    description: text(5000).nullable(),
    linkMode: z.enum(RECEIVE_LINK_MODES),
    enabled: z.boolean(),
    isDefault: z.literal(true),
    password: text(256).pipe(z.string().min(1)).nullable(),
    allowedExtensions: ExtensionList,
    maxUploadBytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
    fileValidityDays: z.number().int().min(1).max(3650).nullable(),
    fields: UploaderFields,
    uploadNotification: z.boolean(),
    customization: ReceiveThemeInput,
  })
  .partial()
  .strict();
export type InboxUpdate = z.input<typeof InboxUpdate>;

export const InboxView = z.object({
  inboxId: InboxId,
  kind: z.literal('inbox'),
  slug: z.string(),
  /** `{origin}/i/{slug}`. */
  link: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  linkMode: z.enum(RECEIVE_LINK_MODES),
  enabled: z.boolean(),
  isDefault: z.boolean(),
  passwordProtected: z.boolean(),
  /** The inbox's own list (as set); uploads are also held to the owner's `receiveAllowedExtensions`. */
  allowedExtensions: z.array(z.string()),
  /** Effective list (own ∩ owner's); [] = all. */
  effectiveAllowedExtensions: z.array(z.string()),
  maxUploadBytes: z.number().int().nullable(),
  fileValidityDays: z.number().int().nullable(),
  fields: UploaderFields,
  uploadNotification: z.boolean(),
  customization: ReceiveTheme,
  uploadCount: z.number().int(),
  createdAt: z.string(),
});
export type InboxView = z.infer<typeof InboxView>;

/**
 * GET /api/receive/inboxes (signed in) → the user's inboxes and whether they may receive into inboxes (the
 * inbox panel at step 1, spec §2): `allowed` is `allowInboxS1 || allowInboxS2` of their (team's) uploader
 * settings.
 */
export const InboxListResponse = z.object({
  inboxUpload: z.object({
    allowed: z.boolean(),
    allowInboxS1: z.boolean(),
    allowInboxS2: z.boolean(),
    /** The owner's (team's) receiveAllowedExtensions; [] = all. */
    receiveAllowedExtensions: z.array(z.string()),
    receivePasswordOpt: z.boolean(),
    receiveRequirePassword: z.boolean(),
    receiveAllowCustomization: z.boolean(),
  }),
  items: z.array(InboxView),
});
export type InboxListResponse = z.infer<typeof InboxListResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Widgets

/** POST /api/receive/inboxes/{inboxId}/widgets (inbox owner) → 201 WidgetView. */
export const WidgetCreate = z.object({
  name: text(200).pipe(z.string().trim()).optional(),
  theme: ReceiveThemeInput.optional(),
  /** Default: name and e-mail optional, message optional, no questions (an S1 inbox still requires e-mail). */
  fields: UploaderFields.optional(),
});
export type WidgetCreate = z.input<typeof WidgetCreate>;

/** PATCH /api/receive/widgets/{widgetId} (owner) → WidgetView. */
export const WidgetUpdate = z
  .object({
    name: text(200).pipe(z.string().trim()).nullable(),
    theme: ReceiveThemeInput,
    fields: UploaderFields,
  })
  .partial()
  .strict();
export type WidgetUpdate = z.input<typeof WidgetUpdate>;

export const WidgetView = z.object({
  widgetId: WidgetId,
  inboxId: InboxId,
  name: z.string().nullable(),
  /** As set (null = the default colour). */
  theme: ReceiveTheme,
  fields: UploaderFields,
  /** The iframe page, absolute: `{origin}/widgets/{widgetId}`. */
  url: z.string(),
  /** One line to paste in a page: `<script src="{origin}/widget.js" data-ferry-widget="{widgetId}" async></script>`. */
  snippet: z.string(),
  /** The same without script: a plain `<iframe …>` tag. */
  iframe: z.string(),
  createdAt: z.string(),
});
export type WidgetView = z.infer<typeof WidgetView>;

export const WidgetListResponse = z.object({ items: z.array(WidgetView) });
export type WidgetListResponse = z.infer<typeof WidgetListResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Public side: what the upload pages read, and the upload itself

/**
 * GET /api/receive/points/request/{requestId}[?userSecret=], /points/inbox/{slug}, /points/widget/{widgetId},
 * and GET /api/receive/push?to={e-mail or inbox slug}: what an upload page shows; no secrets. Unknown (or a
 * wrong `userSecret`, or an account without an enabled inbox for /push) → 404 NOT_FOUND; an expired request →
 * 410 RECEIVE_EXPIRED; a closed request or switched-off inbox → 410 RECEIVE_CLOSED. Rate limited per client.
 */
export const ReceivePointPublic = z.object({
  kind: z.enum(RECEIVE_POINT_KINDS),
  /** The request id, or the inbox slug (widgets and /push: their inbox's slug). */
  id: z.string(),
  /** Set on the widget page. */
  widgetId: WidgetId.nullable(),
  linkMode: z.enum(RECEIVE_LINK_MODES),
  /** Request subject or inbox title (the title area of spec §2 for S3). */
  title: z.string().nullable(),
  message: z.string().nullable(),
  /** Who asks: the request's senderName (else its senderEmail); null for inboxes, whose title says who. */
  ownerName: z.string().nullable(),
  passwordProtected: z.boolean(),
  /** Effective list; [] = all. Files must end in one of these, case-insensitively (spec §5). */
  allowedExtensions: z.array(z.string()),
  /** Most bytes one upload may bring (inbox setting or the owner's plan). */
  maxUploadBytes: z.number().int(),
  /** Most files one upload may bring (the owner's plan). */
  maxFiles: z.number().int(),
  /** Requests only. */
  expiresAt: z.string().nullable(),
  fields: UploaderFields,
  /** Colours with the spec §3 defaults filled in. */
  theme: z.object({ backgroundColor: HexColor, actionColor: HexColor, startbtnColor: HexColor }),
  /**
   * The logo of the owner's account or team theme (a path on this server, `/api/theme/assets/{id}`), shown in the
   * page's header and the widget's band; null: Ferry's mark.
   */
  logoURL: z.string().nullable().default(null),
  /** S1 request opened with a valid `userSecret`: the asked person's address (they need not type it). */
  recipientEmail: z.string().nullable(),
});
export type ReceivePointPublic = z.infer<typeof ReceivePointPublic>;

/** Where an upload goes. */
export const ReceiveTarget = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('request'),
    requestId: ReceiveRequestId,
    userSecret: text(200).optional(),
  }),
  z.object({ kind: z.literal('inbox'), slug: InboxSlug }),
  z.object({ kind: z.literal('widget'), widgetId: WidgetId }),
  /** /push: an account's e-mail (its default inbox) or an inbox slug. */
  z.object({ kind: z.literal('push'), to: text(320).pipe(z.string().trim().min(1)) }),
]);
export type ReceiveTarget = z.infer<typeof ReceiveTarget>;

/** POST /api/receive/check-password `{ target, password }` → `{ ok: true }`; 403 WRONG_PASSWORD; 429 RATE_LIMITED. */
export const ReceiveCheckPasswordRequest = z.object({ target: ReceiveTarget, password: text(256) });
export type ReceiveCheckPasswordRequest = z.input<typeof ReceiveCheckPasswordRequest>;

export const UploaderAnswer = z.object({ questionId: z.string().max(40), answer: text(5000) });

/**
 * POST /api/receive/uploads (anyone; no cookie needed) → 201 ReceiveUploadCreateResponse. Checks, before any
 * byte is stored: the point is open, the password (403 WRONG_PASSWORD / 401 PASSWORD_REQUIRED, rate limited),
 * the required fields (400 VALIDATION_FAILED, `details.field`), file names (spec §5) and allowed extensions
 * (400 EXTENSION_NOT_AUTHORIZED, `details.allowedExtensions`, `details.files: [{ name, key:
 * "uploader:notif_extension_authorized", extensions }]`), the owner's plan limits and storage (400
 * LIMIT_EXCEEDED) and the inbox's `maxUploadBytes`. Rate limited per client (429, Retry-After).
 */
export const ReceiveUploadCreate = z.object({
  target: ReceiveTarget,
  password: text(256).optional(),
  uploaderName: PersonName().optional(),
  uploaderEmail: Email.optional(),
  message: text(10_000).optional(),
  answers: z.array(UploaderAnswer).max(20).default([]),
  files: z.array(TransferFileInput).min(1).max(100_000),
  /** The uploader's language and zone, for their receipt mail. */
  locale: languageTag.optional(),
  timeZone: ianaZone.optional(),
});
export type ReceiveUploadCreate = z.input<typeof ReceiveUploadCreate>;

export const ReceiveUploadCreateResponse = z.object({
  transferId: TransferId,
  /** Header `X-Upload-Token` of the tus requests and of …/complete; shown once. */
  uploadToken: z.string(),
  /** tus endpoint (`/api/transfer/uploads`), metadata `transferId` and `fileId`, as for any transfer. */
  uploadEndpoint: z.string(),
  files: z.array(TransferFile),
});
export type ReceiveUploadCreateResponse = z.infer<typeof ReceiveUploadCreateResponse>;

/** POST /api/receive/uploads/{transferId}/complete (X-Upload-Token) `{ files: [{ id, sha256? }] }` → ReceiveReceipt. */
export const ReceiveUploadComplete = z.object({
  files: z.array(z.object({ id: FileId, sha256: Sha256Hex.optional() })).default([]),
});
export type ReceiveUploadComplete = z.input<typeof ReceiveUploadComplete>;

/**
 * The uploader's receipt (complete) and upload state (GET /api/receive/uploads/{transferId} with X-Upload-Token,
 * to resume): what arrived, with SHA-256. No download link: the files are the requester's.
 */
export const ReceiveReceipt = z.object({
  transferId: TransferId,
  status: z.enum(TRANSFER_STATUSES),
  /** Who received it: the request subject or inbox title. */
  title: z.string().nullable(),
  ownerName: z.string().nullable(),
  files: z.array(TransferFile),
  totalSize: z.number().int(),
  /** When the upload was completed; null while uploading. */
  receivedAt: z.string().nullable(),
  /** An S1 inbox mails a copy of the receipt to the uploader. */
  receiptSentTo: z.string().nullable(),
});
export type ReceiveReceipt = z.infer<typeof ReceiveReceipt>;

/**
 * GET /api/receive/received/{transferId} (the owner or an authorized team manager) → who uploaded a received
 * (S3) transfer, through which point, and their answers. Others → 404 TRANSFER_NOT_FOUND.
 */
export const ReceivedUploadView = z.object({
  transferId: TransferId,
  point: z.object({
    kind: z.enum(RECEIVE_POINT_KINDS),
    /** Request id or inbox id. */
    id: z.string(),
    title: z.string().nullable(),
    widgetId: WidgetId.nullable(),
    viaPush: z.boolean(),
  }),
  uploader: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    /**
     * Whether `email` is known to be the uploader's: true for an upload through a request's personal link
     * (mailed to that address); false when the uploader typed it on a receive page (never checked).
     */
    emailVerified: z.boolean(),
    message: z.string().nullable(),
    answers: z.array(z.object({ questionId: z.string(), label: z.string(), answer: z.string() })),
  }),
  receivedAt: z.string().nullable(),
});
export type ReceivedUploadView = z.infer<typeof ReceivedUploadView>;
