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
    allowPreview: boolean('allow_preview').notNull().default(true),
    maxDownloads: integer('max_downloads'),
    downloadCount: integer('download_count').notNull().default(0),
    totalSize: bigint('total_size', { mode: 'number' }).notNull(),
    fileCount: integer('file_count').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('transfers_owner_idx').on(t.ownerId, t.createdAt),
    index('transfers_expires_idx').on(t.expiresAt),
  ],
);

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
  (t) => [primaryKey({ columns: [t.transferId, t.id] })],
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
  },
  (t) => [index('downloads_transfer_idx').on(t.transferId, t.createdAt)],
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
