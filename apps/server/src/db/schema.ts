import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
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
    /** The address links in this transfer's e-mails start with (PUBLIC_URL, or the origin it was created at). */
    origin: text('origin'),
    /** When the expiry sweep deleted the bytes; the metadata stays. */
    expiredAt: ts('expired_at'),
  },
  (t) => [
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
    // Substring search (ILIKE '%…%') by name, with pg_trgm.
    index('transfers_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    // Counts by status and type without reading the rows.
    index('transfers_owner_status_idx').on(t.ownerId, t.status, t.type),
    // Storage in use (LimitsService, the quota check of every creation) from the index alone.
    index('transfers_owner_stored_idx')
      .on(t.ownerId, t.totalSize)
      .where(sql`${t.expiredAt} IS NULL AND ${t.status} NOT IN ('DELETED', 'RETAINED')`),
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
    index('transfer_recipients_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);

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
  },
  (t) => [
    primaryKey({ columns: [t.transferId, t.id] }),
    index('transfer_files_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
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
    /** The sender's download confirmation: null (none wanted), 'pending', 'sent'. */
    confirmation: text('confirmation'),
  },
  (t) => [
    index('downloads_transfer_idx').on(t.transferId, t.createdAt),
    index('downloads_recipient_idx').on(t.recipientId),
    index('downloads_confirmation_idx').on(t.createdAt).where(sql`${t.confirmation} = 'pending'`),
  ],
);

/** One browser visit or CLI run (spec §3 `browserCode`): its link calls count as one download together. */
export const downloadSessions = pgTable(
  'download_sessions',
  {
    transferId: text('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    browserCode: text('browser_code').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.browserCode] })],
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
    managerId: text('manager_id'),
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
