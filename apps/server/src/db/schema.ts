import type { ScanStatus } from '@ferry/core';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const transfers = pgTable(
  'transfers',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    name: text('name'),
    message: text('message'),
    passwordHash: text('password_hash'),
    uploadTokenHash: text('upload_token_hash').notNull(),
    ownerId: text('owner_id'),
    senderEmail: text('sender_email'),
    senderName: text('sender_name'),
    locale: text('locale'),
    timeZone: text('time_zone'),
    allowPreview: boolean('allow_preview').notNull().default(true),
    maxDownloads: integer('max_downloads'),
    downloadCount: integer('download_count').notNull().default(0),
    totalSize: bigint('total_size', { mode: 'number' }).notNull(),
    fileCount: integer('file_count').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** Notification switches of the transfer form (spec §3): to the sender, and reminders to recipients. */
    downloadConfirmation: boolean('download_confirmation').notNull().default(false),
    expiryReminder: boolean('expiry_reminder').notNull().default(false),
    notifySummary: boolean('notify_summary').notNull().default(false),
    forceEmailWhenDownloadS2: boolean('force_email_when_download_s2').notNull().default(false),
    /** not_needed | pending | verified: whether the sender proved their e-mail address. */
    senderVerification: text('sender_verification').notNull().default('not_needed'),
    /** When the transfer went out: uploaded and (if needed) verified, its e-mails queued. */
    sentAt: ts('sent_at'),
    /** The expiry date the recipients were last reminded of (a changed expiry date reminds again). */
    remindedFor: ts('reminded_for'),
    /** Storage region the bytes live in (spec §3 forcedRegion); null: the main storage. */
    storageRegion: text('storage_region'),
    /** Stored on S3 with SSE-C under a key derived for this transfer (spec §3 sseC; docs/encryption.md). */
    sseC: boolean('sse_c').notNull().default(false),
    /**
     * The public origin when the transfer was created, kept for information only: links (in mails too) are built
     * from the public origin at send time, since rows made before links stopped following the request's Host may
     * hold a forged one.
     */
    origin: text('origin'),
    /**
     * The verified host (an owner's subdomain or custom domain) the transfer was made on, from Ferry's table of
     * hosts (never from a raw header): its links and mails use https://{host}. Null: PUBLIC_URL.
     */
    host: text('host'),
    /** When the expiry sweep deleted the bytes; the metadata stays. */
    expiredAt: ts('expired_at'),
    /** The transfer this one is a clone of (the dashboard's "clone"): its files are copied from there. */
    clonedFrom: text('cloned_from'),
    /**
     * The client address that created an anonymous transfer, kept while its upload is unfinished (the per-client
     * cap on declared but unfinished bytes, counted in anonymous_pending); cleared when the upload completes.
     */
    clientIp: text('client_ip'),
    /**
     * Written into every signed download URL; raised when a recipient is removed, the password changed or the
     * transfer disabled or deleted, so every URL handed out before stops working.
     */
    accessEpoch: integer('access_epoch').notNull().default(0),
    /** Selling files (spec §3 price and currency): a priced S2 transfer is downloaded after a purchase. */
    priceAmount: integer('price_amount'),
    priceCurrency: text('price_currency'),
    /** A RETAINED transfer's files are kept until then for legal requests (RETENTION_DAYS), then purged. */
    retainedUntil: ts('retained_until'),
    /** In-page previews given (link calls with preview=true), counted apart from downloads (PREVIEWS_PER_TRANSFER). */
    previewCount: integer('preview_count').notNull().default(0),
    /** The download page's link preview chosen by its sender (spec §3 open-graph customization); null: default. */
    ogTitle: text('og_title'),
    ogDescription: text('og_description'),
    /** The sender's custom link (`/dl/{customLink}`, lowercase); unique case-insensitively across the instance. */
    customLink: text('custom_link'),
    /** The availability window's start: PENDING until then (spec §3 "from" date); null: open when uploaded. */
    availableFrom: ts('available_from'),
    /** Spec §3 transfer form `customization`: this transfer's download page colours and wallpaper. */
    customization: jsonb('customization').$type<Record<string, unknown>>(),
    /**
     * What the dashboard's search (`q`) looks in, kept by triggers (migration 0043): the name, then each file's
     * name and each recipient's address, one per line (a search holding no newline cannot match across two).
     * Null while the transfer has no owner (no dashboard lists it).
     */
    searchText: text('search_text'),
  },
  (t) => [
    uniqueIndex('transfers_custom_link_idx').on(sql`lower(${t.customLink})`),
    // Transfers waiting for their window (the safety-net sweep releases those whose moment passed).
    index('transfers_pending_idx').on(t.availableFrom).where(sql`${t.status} = 'PENDING'`),
    index('transfers_owner_idx').on(t.ownerId, t.createdAt),
    index('transfers_expires_idx').on(t.expiresAt),
    index('transfers_to_expire_idx').on(t.expiresAt).where(sql`${t.expiredAt} IS NULL`),
    index('transfers_unsent_idx').on(t.updatedAt).where(sql`${t.sentAt} IS NULL AND ${t.status} = 'ENABLED'`),
    index('transfers_reminders_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiryReminder} AND ${t.sentAt} IS NOT NULL AND ${t.expiredAt} IS NULL`),
    // The dashboard's list: one keyset index per sort order (scanned either way for asc and desc).
    index('transfers_owner_created_id_idx').on(t.ownerId, t.createdAt, t.id),
    index('transfers_owner_expires_id_idx').on(t.ownerId, t.expiresAt, t.id),
    index('transfers_owner_size_id_idx').on(t.ownerId, t.totalSize, t.id),
    index('transfers_owner_name_id_idx').on(t.ownerId, sql`coalesce(lower(${t.name}), '')`, t.id),
    // The dashboard's search (ILIKE '%…%' on search_text), with pg_trgm…
    index('transfers_search_trgm_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .where(sql`${t.searchText} IS NOT NULL`),
    // …and searches of one or two characters, which trigrams cannot serve (ferry_short_grams, migration 0041).
    index('transfers_search_grams_idx')
      .using('gin', sql`ferry_short_grams(${t.searchText})`)
      .where(sql`${t.searchText} IS NOT NULL`),
    // Counts by status and type without reading the rows.
    index('transfers_owner_status_idx').on(t.ownerId, t.status, t.type),
    // Clones whose copy job a crash lost (the hourly sweep queues them again).
    index('transfers_cloning_idx').on(t.updatedAt).where(sql`${t.status} = 'CLONING'`),
    // Storage in use (LimitsService, the quota check of every creation) from the index alone.
    index('transfers_owner_stored_idx')
      .on(t.ownerId, t.totalSize)
      .where(sql`${t.expiredAt} IS NULL AND ${t.status} NOT IN ('DELETED', 'RETAINED')`),
    // Retained transfers whose retention ends (the expiry sweep purges their files then, not at their expiry).
    index('transfers_retained_idx')
      .on(t.retainedUntil)
      .where(sql`${t.status} = 'RETAINED' AND ${t.expiredAt} IS NULL`),
  ],
);

/** S1 recipients, each with a personal link (`userSecret`; only its hash is kept). */
export const transferRecipients = pgTable(
  'transfer_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    email: text('email').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** The recipient turned expiry reminders off (unsubscribe link). */
    remindersOff: boolean('reminders_off').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** First visit of the personal link's page (the dashboard's timeline). */
    openedAt: ts('opened_at'),
  },
  (t) => [
    uniqueIndex('transfer_recipients_email_idx').on(t.transferId, sql`lower(${t.email})`),
    uniqueIndex('transfer_recipients_secret_idx').on(t.secretHash),
    /** Transfers received by an address (the dashboard's `received`). */
    index('transfer_recipients_address_idx').on(sql`lower(${t.email})`),
  ],
);

/**
 * The bytes each owner's stored transfers hold (those the quota counts: not expired, deleted or retained), kept by
 * triggers on transfers (migration 0043), so a team's storage in use is a few rows' sum instead of all its transfers'.
 */
export const ownerStorage = pgTable('owner_storage', {
  ownerId: text('owner_id').primaryKey(),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
});

/** The 6-digit code an anonymous sender proves their address with (one live code per transfer). */
export const senderVerifications = pgTable('sender_verifications', {
  transferId: text('transfer_id')
    .primaryKey()
    .references(() => transfers.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  codeHash: text('code_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  codesSent: integer('codes_sent').notNull().default(1),
  lastSentAt: ts('last_sent_at').notNull().defaultNow(),
  verifiedAt: ts('verified_at'),
});

/**
 * The declared bytes of every client address's unfinished anonymous uploads (the per-address cap): the sum of
 * total_size over its transfers that are UPLOADING with that client_ip. A creation adds its bytes and checks the
 * cap in one statement (ferry_reserve_pending); triggers on transfers take them off when a transfer leaves
 * UPLOADING, loses its address or is deleted (migration 0042). A row at zero is removed.
 */
export const anonymousPending = pgTable('anonymous_pending', {
  clientIp: text('client_ip').primaryKey(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
});

export const transferFiles = pgTable(
  'transfer_files',
  {
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    relativePath: text('relative_path'),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256'),
    crc32: bigint('crc32', { mode: 'number' }),
    uploadId: text('upload_id'),
    blobKey: text('blob_key'),
    uploadedAt: ts('uploaded_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The virus scan (core SCAN_STATUSES): files from before scanning existed, or without clamd, are not-scanned. */
    scanStatus: text('scan_status').$type<ScanStatus>().notNull().default('not-scanned'),
    /** What clamd named an infected file's signature. */
    scanSignature: text('scan_signature'),
    scannedAt: ts('scanned_at'),
  },
  (t) => [
    primaryKey({ columns: [t.transferId, t.id] }),
    // The scans still to do (requeued by the hourly sweep after a long clamd outage).
    index('transfer_files_scan_pending_idx').on(t.transferId).where(sql`scan_status = 'pending'`),
  ],
);

/**
 * Thumbnails and previews of a file, made by a background job after upload: `pending` until the job ran, then
 * `ready` (renditions stored as blobs under derived keys) or `none` (no kind, no tool, too large, or it failed).
 * `renditions` lists { role: 'thumb' | 'preview', page, key, contentType, width, height, size }.
 */
export const filePreviews = pgTable(
  'file_previews',
  {
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    fileId: text('file_id').notNull(),
    status: text('status').notNull(),
    /** image | video | audio | pdf | text; null when the file is none of them. */
    kind: text('kind'),
    renditions: jsonb('renditions').notNull().default([]),
    pageCount: integer('page_count'),
    /** Why there is none (logged too): unsupported, too-large, tool-missing, failed. */
    reason: text('reason'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.fileId] })],
);

/**
 * Files being added to a transfer that was sent already (the dashboard's "add files"): one batch, with its own
 * upload token for the same tus route. Its files join `transfer_files` only once the batch is completed, so no
 * downloader sees a file still uploading.
 */
export const transferAdditions = pgTable(
  'transfer_additions',
  {
    id: text('id').primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    uploadTokenHash: text('upload_token_hash').notNull(),
    /** Who started it (`user:<uid>`), for the FILES_ADDED event. */
    actor: text('actor').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('transfer_additions_transfer_idx').on(t.transferId),
    index('transfer_additions_created_idx').on(t.createdAt),
  ],
);

/** The files of an addition until it completes (same columns as `transfer_files`; ids unique in the transfer). */
export const transferAddedFiles = pgTable(
  'transfer_added_files',
  {
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    additionId: text('addition_id')
      .notNull()
      .references(() => transferAdditions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    relativePath: text('relative_path'),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256'),
    crc32: bigint('crc32', { mode: 'number' }),
    uploadId: text('upload_id'),
    blobKey: text('blob_key'),
    uploadedAt: ts('uploaded_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.transferId, t.id] }),
    index('transfer_added_files_addition_idx').on(t.additionId),
  ],
);

export const transferEvents = pgTable(
  'transfer_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actor: text('actor').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('transfer_events_transfer_idx').on(t.transferId, t.id)],
);

export const downloads = pgTable(
  'downloads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    fileId: text('file_id'),
    kind: text('kind').notNull(),
    downloaderEmail: text('downloader_email'),
    userSecret: text('user_secret'),
    browserCode: text('browser_code'),
    orderId: text('order_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The S1 recipient whose personal link was used. */
    recipientId: bigint('recipient_id', { mode: 'number' }).references(() => transferRecipients.id, {
      onDelete: 'set null',
    }),
    /** Bytes this link call handed out (the file, or the whole ZIP), for the 7-day download limit. */
    bytes: bigint('bytes', { mode: 'number' }),
    /** Downloaded from the team's admin transfers page (admin-dashboard flag, by the manager or a transfer manager). */
    admin: boolean('admin').notNull().default(false),
    /** The sender's download confirmation: null (none wanted), 'pending', 'sent'. */
    confirmation: text('confirmation'),
  },
  (t) => [
    index('downloads_transfer_idx').on(t.transferId, t.createdAt),
    index('downloads_recipient_idx').on(t.recipientId),
    index('downloads_confirmation_idx').on(t.createdAt).where(sql`${t.confirmation} = 'pending'`),
  ],
);

/**
 * One browser visit or CLI run (spec §3 `browserCode`) of one client: its link calls count as one download
 * together for an hour from `countedAt`. The same code from another client is another visit.
 */
export const downloadSessions = pgTable(
  'download_sessions',
  {
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    browserCode: text('browser_code').notNull(),
    /** SHA-256 of the client's address and user agent: the code is bound to the client that used it first. */
    client: text('client').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When this visit was last counted: the start of its fixed window. */
    countedAt: ts('counted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.browserCode, t.client] })],
);

/** One row per e-mail idempotency key: what the mail job did with it (see jobs/mail-job.ts for the guarantee). */
export const mailDeliveries = pgTable(
  'mail_deliveries',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    status: text('status').notNull(),
    claimToken: uuid('claim_token'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: ts('claimed_at'),
    transmittingAt: ts('transmitting_at'),
    sentAt: ts('sent_at'),
    messageId: text('message_id'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check(
      'mail_deliveries_status_check',
      sql`${t.status} IN ('sending', 'transmitting', 'sent', 'failed', 'rejected', 'in_doubt')`,
    ),
    index('mail_deliveries_attention_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} IN ('transmitting', 'in_doubt', 'rejected')`),
  ],
);

/** Accounts (spec §3 user). `email` is unique case-insensitively; a user can sign in once it is verified. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    emailVerifiedAt: ts('email_verified_at'),
    passwordHash: text('password_hash'),
    firstname: text('firstname'),
    locale: text('locale'),
    planType: text('plan_type').notNull().default('NONE'),
    /** The subscription's plan code (spec §3: PREMIUM_2TB, TEAM10, CUSTOM …), set by billing; null for none. */
    planCode: text('plan_code'),
    /** The plan falls back to NONE at this moment (an operator's end date, a cancelled subscription's end). */
    planEndsAt: ts('plan_ends_at'),
    /** Set by an operator: no sign-in, and the account's transfers answer 403 ACCOUNT_SUSPENDED. */
    suspendedAt: ts('suspended_at'),
    /** Set while the team's manager has the member disabled: no sign-in, sessions revoked; transfers keep working. */
    teamDisabledAt: ts('team_disabled_at'),
    managerId: text('manager_id'),
    /** The member's user group in their team (its policy overrides apply over the team's uploader settings). */
    groupId: text('group_id').references((): AnyPgColumn => userGroups.id, { onDelete: 'set null' }),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    /** The plan picked on /register?type=…, waiting for the billing step. */
    chosenPlan: jsonb('chosen_plan').$type<Record<string, unknown>>(),
    lastLoginAt: ts('last_login_at'),
    lastSignInProvider: text('last_sign_in_provider'),
    /** Second factor: the TOTP secret (encrypted with the server key), once confirmed with a first code. */
    totpSecret: text('totp_secret'),
    totpEnabledAt: ts('totp_enabled_at'),
    /** The last accepted TOTP time step: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Hashes of the unused recovery codes. */
    recoveryCodes: text('recovery_codes').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Bumped by a password change, a reset and "sign out everywhere": an id token carries the value it was minted
     * under (`gen`) and makes a session only while it is still current.
     */
    signInGeneration: integer('sign_in_generation').notNull().default(0),
    /** Spec §3 user settings: notificationSettings, templates, uploaderSettings, addressBookSettings, … */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** The account's own limit settings (forcedFileValidityInDays, forcedRegion, disableSSEC). */
    limitSettings: jsonb('limit_settings')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(sql`lower(${t.email})`),
    /** A team is its manager's uid: members are found by manager_id (limits and storage count over the team). */
    index('users_manager_idx').on(t.managerId),
    // The operator console's substring search (LIKE '%…%') by address and first name, with pg_trgm.
    index('users_email_trgm_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
    index('users_firstname_trgm_idx').using('gin', sql`lower(coalesce(${t.firstname}, '')) gin_trgm_ops`),
  ],
);

/** Server-side session records: a session token is accepted only while its record is live. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    provider: text('provider').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.expiresAt)],
);

/** Personal API tokens (`fry_…`); only a hash is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** What the token may do (core API_TOKEN_SCOPES); tokens made before scopes keep every scope but admin. */
    scopes: text('scopes')
      .array()
      .notNull()
      .default(sql`ARRAY['transfers:read', 'transfers:write', 'receive']::text[]`),
    /**
     * A team token: made by the team's manager for the team (user_id is the manager, the team's account); it is
     * listed and revoked with the team, and the security log names it rather than the manager.
     */
    team: boolean('team').notNull().default(false),
    /** Who made it (for a team token, the manager who did); null once that account is gone. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('api_tokens_hash_idx').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);

/** One-time links mailed to a user: e-mail verification and password reset (hash of the token only). */
export const authLinks = pgTable(
  'auth_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    /**
     * A verification link's own sign-up (password hash, firstname, locale, chosen plan): following the link
     * activates what was chosen in that sign-up, not in a later one by someone else.
     */
    signUp: jsonb('sign_up').$type<Record<string, unknown>>(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('auth_links_purpose_check', sql`${t.purpose} IN ('verify_email', 'reset_password')`),
    index('auth_links_user_idx').on(t.userId, t.purpose),
  ],
);

/**
 * Accounts at OpenID Connect providers (OIDC_PROVIDERS) linked to a user: a sign-in through `provider` whose
 * `sub` claim is `subject` is this user, whatever address the provider gives later.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    /** The provider's name in OIDC_PROVIDERS (also the session's sign_in_provider). */
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the provider gave when the link was made. */
    email: text('email'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

/** The /register/enterprise form (POST /api/sales/enterprise-contact): kept, and mailed to SALES_EMAIL. */
export const enterpriseContacts = pgTable(
  'enterprise_contacts',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull(),
    phone: text('phone'),
    teamSize: integer('team_size'),
    message: text('message'),
    locale: text('locale'),
    /** The client address it came from (rate limits, abuse reports). */
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('enterprise_contacts_created_idx').on(t.createdAt)],
);

/** The general form of /contact (POST /api/sales/contact): kept, and mailed to SUPPORT_EMAIL. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    locale: text('locale'),
    /** The client address it came from (rate limits, abuse reports). */
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);

/** The address book (spec §1 "address books"): one contact per address and account, case-insensitively. */
export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    company: text('company'),
    notes: text('notes'),
    /** manual | auto (a sent transfer's recipient, addressBookSettings.autoSave) | import. */
    source: text('source').notNull(),
    /** Transfers of the account sent to the address since it was saved, and the last one's time. */
    useCount: integer('use_count').notNull().default(0),
    lastUsedAt: ts('last_used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('contacts_source_check', sql`${t.source} IN ('manual', 'auto', 'import')`),
    /** The target of the group members' composite key: a member is always a contact of the group's account. */
    unique('contacts_user_id_id_unique').on(t.userId, t.id),
    uniqueIndex('contacts_user_email_idx').on(t.userId, sql`lower(${t.email})`),
    index('contacts_user_name_idx').on(t.userId, sql`lower(coalesce(${t.name}, ${t.email}))`, t.id),
    index('contacts_user_recent_idx').on(
      t.userId,
      sql`coalesce(${t.lastUsedAt}, '-infinity'::timestamptz)`,
      t.id,
    ),
  ],
);

/** Named groups of contacts (spec §1 "contact groups"); a name is unique per account, case-insensitively. */
export const contactGroups = pgTable(
  'contact_groups',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('contact_groups_user_id_id_unique').on(t.userId, t.id),
    uniqueIndex('contact_groups_user_name_idx').on(t.userId, sql`lower(${t.name})`),
  ],
);

/** A group's members: both keys carry the account, so a group can only hold its own account's contacts. */
export const contactGroupMembers = pgTable(
  'contact_group_members',
  {
    userId: text('user_id').notNull(),
    groupId: text('group_id').notNull(),
    contactId: text('contact_id').notNull(),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.contactId] }),
    foreignKey({
      name: 'contact_group_members_group_fk',
      columns: [t.userId, t.groupId],
      foreignColumns: [contactGroups.userId, contactGroups.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'contact_group_members_contact_fk',
      columns: [t.userId, t.contactId],
      foreignColumns: [contacts.userId, contacts.id],
    }).onDelete('cascade'),
    index('contact_group_members_contact_idx').on(t.contactId),
  ],
);

/** File requests (/request-files, S3): one-off receive points owned by a user; S1 mails personal upload links. */
export const receiveRequests = pgTable(
  'receive_requests',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkMode: text('link_mode').notNull(),
    subject: text('subject'),
    message: text('message'),
    senderName: text('sender_name'),
    senderEmail: text('sender_email'),
    passwordHash: text('password_hash'),
    expiresAt: ts('expires_at').notNull(),
    closedAt: ts('closed_at'),
    expiryReminder: boolean('expiry_reminder').notNull().default(false),
    uploadNotification: boolean('upload_notification').notNull().default(true),
    allowedExtensions: text('allowed_extensions').array().notNull().default(sql`'{}'::text[]`),
    customization: jsonb('customization')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    locale: text('locale'),
    timeZone: text('time_zone'),
    /** The public origin when the request was created, for information only: its links use today's (see transfers). */
    origin: text('origin'),
    /** The verified host the request was made on (see transfers.host); its links use it. Null: PUBLIC_URL. */
    host: text('host'),
    /** When the asked people who had not uploaded were reminded (once). */
    remindedAt: ts('reminded_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('receive_requests_link_mode_check', sql`${t.linkMode} IN ('S1', 'S2')`),
    index('receive_requests_owner_idx').on(t.ownerId, t.createdAt),
    index('receive_requests_reminders_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiryReminder} AND ${t.remindedAt} IS NULL AND ${t.closedAt} IS NULL`),
  ],
);

/** The people an S1 request asks, each with a personal upload link (only the secret's hash is kept). */
export const receiveRequestRecipients = pgTable(
  'receive_request_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: text('request_id')
      .notNull()
      .references(() => receiveRequests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    email: text('email').notNull(),
    secretHash: text('secret_hash').notNull(),
    uploadedAt: ts('uploaded_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('receive_request_recipients_email_idx').on(t.requestId, sql`lower(${t.email})`),
    uniqueIndex('receive_request_recipients_secret_idx').on(t.secretHash),
  ],
);

/** Upload inboxes: permanent receive points with their own address (/i/{slug}), switched on and off. */
export const inboxes = pgTable(
  'inboxes',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    linkMode: text('link_mode').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** The inbox /push by the owner's e-mail fills; at most one per owner. */
    isDefault: boolean('is_default').notNull().default(false),
    passwordHash: text('password_hash'),
    allowedExtensions: text('allowed_extensions').array().notNull().default(sql`'{}'::text[]`),
    maxUploadBytes: bigint('max_upload_bytes', { mode: 'number' }),
    fileValidityDays: integer('file_validity_days'),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    uploadNotification: boolean('upload_notification').notNull().default(true),
    customization: jsonb('customization')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('inboxes_link_mode_check', sql`${t.linkMode} IN ('S1', 'S2')`),
    uniqueIndex('inboxes_slug_idx').on(sql`lower(${t.slug})`),
    index('inboxes_owner_idx').on(t.ownerId, t.createdAt),
    uniqueIndex('inboxes_one_default_idx').on(t.ownerId).where(sql`${t.isDefault}`),
  ],
);

/** Embeddable upload widgets (/widgets/{widgetId}) of an inbox. */
export const widgets = pgTable(
  'widgets',
  {
    id: text('id').primaryKey(),
    inboxId: text('inbox_id')
      .notNull()
      .references(() => inboxes.id, { onDelete: 'cascade' }),
    name: text('name'),
    theme: jsonb('theme').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('widgets_inbox_idx').on(t.inboxId, t.createdAt)],
);

/** What a received (S3) transfer came through, and what its uploader typed. */
export const receivedUploads = pgTable(
  'received_uploads',
  {
    transferId: text('transfer_id')
      .primaryKey()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    requestId: text('request_id').references(() => receiveRequests.id, { onDelete: 'set null' }),
    inboxId: text('inbox_id').references(() => inboxes.id, { onDelete: 'set null' }),
    widgetId: text('widget_id'),
    viaPush: boolean('via_push').notNull().default(false),
    /** The request subject or inbox title when it was uploaded. */
    pointTitle: text('point_title'),
    recipientId: bigint('recipient_id', { mode: 'number' }).references(() => receiveRequestRecipients.id, {
      onDelete: 'set null',
    }),
    uploaderName: text('uploader_name'),
    uploaderEmail: text('uploader_email'),
    message: text('message'),
    answers: jsonb('answers').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** Whether the owner is mailed about it (the point's switch and the owner's setting, when uploaded). */
    uploadNotification: boolean('upload_notification').notNull().default(true),
    /** An S1 inbox mails the uploader a receipt at this address. */
    receiptTo: text('receipt_to'),
    uploaderLocale: text('uploader_locale'),
    uploaderTimeZone: text('uploader_time_zone'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('received_uploads_request_idx').on(t.requestId),
    index('received_uploads_inbox_idx').on(t.inboxId),
  ],
);

/** What operators did (the console's journal): who, when, what, on whom. Never updated, never deleted. */
export const operatorActions = pgTable(
  'operator_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    operatorId: text('operator_id').notNull(),
    operatorEmail: text('operator_email').notNull(),
    action: text('action').notNull(),
    /** The account, invoice or transfer acted on, as shown to people (an e-mail, an invoice number…). */
    target: text('target'),
    targetUserId: text('target_user_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('operator_actions_at_idx').on(t.at), index('operator_actions_target_idx').on(t.targetUserId)],
);

/** Who pays (spec §7 billing customer): one row per paying account (a team's manager, or the user). */
export const billingCustomers = pgTable('billing_customers', {
  userId: text('user_id').primaryKey(),
  countryCode: text('country_code'),
  vatNumber: text('vat_number'),
  vatNumberValid: boolean('vat_number_valid'),
  companyName: text('company_name'),
  address: text('address'),
  currency: text('currency'),
  provider: text('provider'),
  /** The card providers' customer ids, by provider name ({"STRIPE": "cus_…"}). */
  providerRefs: jsonb('provider_refs').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  /** Set once the account has had its trial: one per account, ever. */
  trialUsedAt: ts('trial_used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Subscriptions (spec §3): Ferry's own record of what an account pays for; a card provider's subscription is
 * mirrored here through its events. At most one live (not canceled) subscription per account.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    planCode: text('plan_code').notNull(),
    frequency: text('frequency').notNull(),
    currency: text('currency').notNull(),
    /** Per period, VAT excluded, minor units. */
    amount: integer('amount').notNull(),
    taxRate: doublePrecision('tax_rate').notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    /** incomplete | trialing | active | past_due | canceled */
    status: text('status').notNull(),
    currentPeriodStart: ts('current_period_start'),
    currentPeriodEnd: ts('current_period_end'),
    trialEndsAt: ts('trial_ends_at'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade waiting for the next period: {planCode, frequency, amount}. */
    pendingChange: jsonb('pending_change').$type<Record<string, unknown>>(),
    intentStatus: text('intent_status'),
    failedIntentClientSecret: text('failed_intent_client_secret'),
    /** The open invoice a MANUAL subscription waits on (its first or a renewal), voided if it ends unpaid. */
    openInvoice: text('open_invoice'),
    /** The renewal invoice issued ahead of the period's end (MANUAL), so it is issued once. */
    renewalInvoiceFor: ts('renewal_invoice_for'),
    /** Dunning: when the renewal failed (day 0), how many retries were made (0, 1 on day 3, 2 on day 7). */
    pastDueSince: ts('past_due_since'),
    dunningAttempt: integer('dunning_attempt').notNull().default(0),
    nextRetryAt: ts('next_retry_at'),
    canceledAt: ts('canceled_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_one_live_idx').on(t.userId).where(sql`${t.status} <> 'canceled'`),
    uniqueIndex('subscriptions_provider_ref_idx').on(t.provider, t.providerRef),
    index('subscriptions_period_end_idx').on(t.currentPeriodEnd),
  ],
);

/** The last invoice number given per prefix and year: locked by the issuing transaction, so numbers have no gaps. */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    prefix: text('prefix').notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.prefix, t.year] })],
);

/**
 * Invoices and receipts (spec §3, §7): numbered `${prefix}-${year}-000001`, with the buyer and seller as they were
 * when issued, the tax decision and how the VAT number was checked. Never deleted; a mistaken one is voided.
 * subscription_id and purchase_id point at rows of other areas: plain text, no foreign keys.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    number: text('number').notNull(),
    /** The buyer's account; null for a priced transfer's buyer without one (their address is in `buyer`). */
    userId: text('user_id').references(() => users.id),
    /** open, paid, void. */
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    /** InvoiceLine[]: VAT excluded, minor units. */
    lines: jsonb('lines').$type<unknown[]>().notNull(),
    subtotal: bigint('subtotal', { mode: 'number' }).notNull(),
    taxRate: doublePrecision('tax_rate').notNull(),
    tax: bigint('tax', { mode: 'number' }).notNull(),
    total: bigint('total', { mode: 'number' }).notNull(),
    amountDue: bigint('amount_due', { mode: 'number' }).notNull(),
    reverseCharge: boolean('reverse_charge').notNull(),
    countryCode: text('country_code').notNull(),
    vatNumber: text('vat_number'),
    vatNumberValid: boolean('vat_number_valid'),
    /** none, format, vies. */
    vatCheck: text('vat_check').notNull(),
    /** Set when VIES_CHECK was on and VIES could not answer: the format decided. */
    viesUnavailable: text('vies_unavailable'),
    /** Buyer (name, company, address, e-mail, locale) and seller (name, address, country, VAT id, bank) as issued. */
    buyer: jsonb('buyer').$type<Record<string, unknown>>().notNull(),
    seller: jsonb('seller').$type<Record<string, unknown>>().notNull(),
    locale: text('locale'),
    provider: text('provider').notNull(),
    subscriptionId: text('subscription_id'),
    purchaseId: text('purchase_id'),
    paymentRef: text('payment_ref'),
    issuedAt: ts('issued_at').notNull(),
    /** MANUAL: pay by then (INVOICE_DUE_DAYS). */
    dueAt: ts('due_at'),
    paidAt: ts('paid_at'),
    /** The operator who marked it paid; null for a provider's payment. */
    paidBy: text('paid_by'),
    voidedAt: ts('voided_at'),
    voidedBy: text('voided_by'),
  },
  (t) => [
    uniqueIndex('invoices_number_idx').on(t.number),
    index('invoices_user_idx').on(t.userId, t.issuedAt),
    index('invoices_open_idx').on(t.status, t.issuedAt),
    index('invoices_subscription_idx').on(t.subscriptionId),
    index('invoices_purchase_idx').on(t.purchaseId),
    check('invoices_status_check', sql`${t.status} IN ('open', 'paid', 'void')`),
  ],
);

/**
 * Purchases of priced transfers. The buyer pays through a card provider; once paid, the purchase token (derived
 * from the purchase's id, never stored) unlocks that transfer's downloads until it expires.
 */
export const purchases = pgTable(
  'purchases',
  {
    id: text('id').primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    /** The seller: the transfer's owner when bought. */
    sellerId: text('seller_id'),
    email: text('email').notNull(),
    countryCode: text('country_code').notNull(),
    vatNumber: text('vat_number'),
    locale: text('locale'),
    currency: text('currency').notNull(),
    /** Minor units: the price (VAT excluded), the VAT and what the buyer pays. */
    amount: integer('amount').notNull(),
    taxRate: numeric('tax_rate', { precision: 5, scale: 2 }).notNull(),
    tax: integer('tax').notNull(),
    total: integer('total').notNull(),
    reverseCharge: boolean('reverse_charge').notNull().default(false),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    /** pending | paid | failed */
    status: text('status').notNull().default('pending'),
    intentStatus: text('intent_status'),
    receiptNumber: text('receipt_number'),
    createdAt: ts('created_at').notNull().defaultNow(),
    paidAt: ts('paid_at'),
  },
  (t) => [
    index('purchases_transfer_idx').on(t.transferId, t.paidAt),
    uniqueIndex('purchases_provider_ref_idx').on(t.provider, t.providerRef),
  ],
);

/**
 * Webhook events of the payment providers (STRIPE, PAYPAL), by the provider's event id: each is processed once
 * across instances. A row without processed_at is one whose handling failed; the provider's retry handles it anew.
 */
export const providerEvents = pgTable(
  'provider_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    processedAt: ts('processed_at'),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * Teams' security logs: one row per action (sign-ins, keys, transfers, members, policies), kept for the team's
 * retention. `team_id` is the manager's uid (an account without a team: its own).
 */
export const securityLog = pgTable(
  'security_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: text('team_id').notNull(),
    at: ts('at').notNull().defaultNow(),
    actorUserId: text('actor_user_id'),
    /** The actor as shown: an account's e-mail, or an API token's name. */
    actorLabel: text('actor_label'),
    tokenId: text('token_id'),
    action: text('action').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    target: text('target'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('security_log_team_at_idx').on(t.teamId, t.at),
    index('security_log_team_action_idx').on(t.teamId, t.action, t.at),
    index('security_log_actor_idx').on(t.teamId, t.actorUserId, t.at),
  ],
);

/** A team's security-log settings: how many days entries are kept (365 without a row). */
export const securityLogSettings = pgTable('security_log_settings', {
  teamId: text('team_id').primaryKey(),
  retentionDays: integer('retention_days').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
/**
 * Invitations to join a team (a team is its manager's uid): a one-time link `/join?token=…` (only its hash is kept),
 * valid 7 days. A pending one (not accepted, not withdrawn, not expired) holds a seat.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    /** A user group the member joins on accepting (groups are not built yet). */
    groupId: text('group_id'),
    inviterId: text('inviter_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    withdrawnAt: ts('withdrawn_at'),
  },
  (t) => [
    uniqueIndex('team_invitations_token_idx').on(t.tokenHash),
    index('team_invitations_team_idx').on(t.teamId, t.expiresAt),
    index('team_invitations_email_idx').on(sql`lower(${t.email})`),
  ],
);

/** A team's user groups: members in a group are held to the team's uploader settings with the group's overrides. */
export const userGroups = pgTable(
  'user_groups',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A partial UploaderSettings: each flag set here wins over the team's for the group's members. */
    overrides: jsonb('overrides').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_groups_team_name_idx').on(t.teamId, sql`lower(${t.name})`)],
);

/**
 * Webhooks of a user, or of a manager's whole team (`team`): HTTPS endpoints told of transfer events. The secret
 * signs each body (HMAC-SHA256); it is kept to sign, and shown to its owner once.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    team: boolean('team').notNull().default(false),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhooks_owner_idx').on(t.ownerId)],
);

/**
 * One event to deliver to one webhook: made by the triggers on transfer_events and downloads (migration), sent by
 * the webhooks job with retries; `body` is fixed when the event happens, so a replay sends the same bytes' data.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt),
  ],
);

/**
 * Abuse reports of transfers (POST /api/transfer/reports): open until an operator releases, retains or dismisses.
 * The reporter is kept as a key (their account, else a keyed hash of their client address) to count distinct
 * reporters; their address only when they gave one.
 */
export const transferReports = pgTable(
  'transfer_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    details: text('details'),
    reporterEmail: text('reporter_email'),
    reporterUserId: text('reporter_user_id'),
    reporterKey: text('reporter_key').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** released | retained | dismissed, with when and which operator (the journal has the rest). */
    closedAs: text('closed_as'),
    closedAt: ts('closed_at'),
    closedBy: text('closed_by'),
  },
  (t) => [
    index('transfer_reports_open_idx').on(t.transferId, t.createdAt).where(sql`${t.closedAt} IS NULL`),
    index('transfer_reports_created_idx').on(t.createdAt),
  ],
);

/**
 * Transfers under review (MODERATING): one row while the hold lasts. No foreign key: the hold is decided while
 * TransferService holds the transfer's row lock (a key-share lock from another connection would wait on it).
 * Rows of transfers that are gone are ignored by every read.
 */
export const moderationHolds = pgTable('moderation_holds', {
  transferId: text('transfer_id').primaryKey(),
  /** reports | operator | rule */
  source: text('source').notNull(),
  /** The operator's address, or `system` for an automatic hold. */
  heldBy: text('held_by').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  heldAt: ts('held_at').notNull().defaultNow(),
});

/**
 * Anonymous S1 transfers about to be delivered, with their sender's address, client address and recipient count:
 * what the automatic hold rule counts over its window (MODERATION_HOLD_*). Rows older than a day are dropped.
 */
export const moderationSends = pgTable(
  'moderation_sends',
  {
    transferId: text('transfer_id').primaryKey(),
    senderEmail: text('sender_email'),
    clientIp: text('client_ip'),
    recipients: integer('recipients').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [
    index('moderation_sends_sender_idx').on(sql`lower(${t.senderEmail})`, t.at),
    index('moderation_sends_client_idx').on(t.clientIp, t.at),
    index('moderation_sends_at_idx').on(t.at),
  ],
);

/**
 * Ferry's table of hosts served for an account or team (the owner: an account's uid, a team's manager's uid): its
 * subdomain of BASE_DOMAIN (claimed: verified at once) and custom domains (pending until their DNS TXT proof is
 * found). Requests are matched only against rows that are verified; a host is verified for one owner at most.
 */
export const hostClaims = pgTable(
  'host_claims',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    host: text('host').notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    /** The random part of the TXT proof `ferry-verify=<token>` (custom domains). */
    token: text('token'),
    createdAt: ts('created_at').notNull().defaultNow(),
    verifiedAt: ts('verified_at'),
    lastCheckedAt: ts('last_checked_at'),
    /** The first daily check that did not find the proof since it was last found. */
    missingSince: ts('missing_since'),
  },
  (t) => [
    check('host_claims_kind_check', sql`${t.kind} IN ('subdomain', 'custom')`),
    check('host_claims_status_check', sql`${t.status} IN ('pending', 'verified', 'suspended')`),
    uniqueIndex('host_claims_owner_host_idx').on(t.ownerId, t.host),
    // One owner per served host: a pending claim of another owner never blocks the one who proves it first.
    uniqueIndex('host_claims_served_idx').on(t.host).where(sql`${t.status} <> 'pending'`),
    uniqueIndex('host_claims_one_subdomain_idx').on(t.ownerId).where(sql`${t.kind} = 'subdomain'`),
  ],
);

/** Hand-off tokens already redeemed (spec §4 customToken): each works once; rows go when they could not anyway. */
export const hostHandoffs = pgTable(
  'host_handoffs',
  {
    jti: text('jti').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('host_handoffs_expires_idx').on(t.expiresAt)],
);

/** Spec §3 Theme of an account or a team (keyed by the account's or the team manager's uid). */
export const themes = pgTable('themes', {
  ownerId: text('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The saved fields (colours, asset paths, uploader texts); what is absent takes the default. */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Images (re-encoded by Ferry) and videos of a theme, each one blob of the blob store. */
export const themeAssets = pgTable(
  'theme_assets',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** logo | wallpaper | mailHeader | video */
    kind: text('kind').notNull(),
    blobKey: text('blob_key').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('theme_assets_owner_idx').on(t.ownerId, t.kind, t.createdAt)],
);
