import type { ReceiveLinkMode } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** A file request (receive_requests). */
export interface RequestRecord {
  id: string;
  ownerId: string;
  linkMode: ReceiveLinkMode;
  subject: string | null;
  message: string | null;
  senderName: string | null;
  senderEmail: string | null;
  passwordHash: string | null;
  expiresAt: Date;
  closedAt: Date | null;
  expiryReminder: boolean;
  uploadNotification: boolean;
  allowedExtensions: string[];
  customization: Record<string, unknown>;
  locale: string | null;
  timeZone: string | null;
  origin: string | null;
  /** The owner's verified host the request was made on; its links use it (null: PUBLIC_URL). */
  host?: string | null;
  remindedAt: Date | null;
  createdAt: Date;
}

export type NewRequestRecord = Omit<RequestRecord, 'closedAt' | 'remindedAt' | 'createdAt'>;

/** A person an S1 request asks, with their upload mail's delivery. */
export interface RequestRecipientRecord {
  id: number;
  requestId: string;
  position: number;
  email: string;
  uploadedAt: Date | null;
  delivery: 'sending' | 'transmitting' | 'sent' | 'failed' | 'rejected' | 'in_doubt' | null;
  deliveryError: string | null;
}

export interface InboxRecord {
  id: string;
  ownerId: string;
  slug: string;
  title: string;
  description: string | null;
  linkMode: ReceiveLinkMode;
  enabled: boolean;
  isDefault: boolean;
  passwordHash: string | null;
  allowedExtensions: string[];
  maxUploadBytes: number | null;
  fileValidityDays: number | null;
  fields: Record<string, unknown>;
  uploadNotification: boolean;
  customization: Record<string, unknown>;
  createdAt: Date;
}

export type NewInboxRecord = Omit<InboxRecord, 'createdAt'>;

export interface WidgetRecord {
  id: string;
  inboxId: string;
  name: string | null;
  theme: Record<string, unknown>;
  fields: Record<string, unknown>;
  createdAt: Date;
}

export interface ReceivedUploadRecord {
  transferId: string;
  requestId: string | null;
  inboxId: string | null;
  widgetId: string | null;
  viaPush: boolean;
  pointTitle: string | null;
  recipientId: number | null;
  uploaderName: string | null;
  uploaderEmail: string | null;
  message: string | null;
  answers: Array<{ questionId: string; label: string; answer: string }>;
  uploadNotification: boolean;
  receiptTo: string | null;
  uploaderLocale: string | null;
  uploaderTimeZone: string | null;
  createdAt: Date;
}

/** The idempotency key of an asked person's upload-link mail (its row in mail_deliveries gives its delivery). */
export const requestMailKey = (requestId: string, recipientId: number) => `rreq-${requestId}-${recipientId}`;

const REQUEST = `id, owner_id AS "ownerId", link_mode AS "linkMode", subject, message, sender_name AS "senderName",
  sender_email AS "senderEmail", password_hash AS "passwordHash", expires_at AS "expiresAt", closed_at AS "closedAt",
  expiry_reminder AS "expiryReminder", upload_notification AS "uploadNotification",
  allowed_extensions AS "allowedExtensions", customization, locale, time_zone AS "timeZone", origin,
  host, reminded_at AS "remindedAt", created_at AS "createdAt"`;
const INBOX = `id, owner_id AS "ownerId", slug, title, description, link_mode AS "linkMode", enabled,
  is_default AS "isDefault", password_hash AS "passwordHash", allowed_extensions AS "allowedExtensions",
  max_upload_bytes::float8 AS "maxUploadBytes", file_validity_days AS "fileValidityDays", fields,
  upload_notification AS "uploadNotification", customization, created_at AS "createdAt"`;
const WIDGET = `id, inbox_id AS "inboxId", name, theme, fields, created_at AS "createdAt"`;
const RECEIVED = `transfer_id AS "transferId", request_id AS "requestId", inbox_id AS "inboxId",
  widget_id AS "widgetId", via_push AS "viaPush", point_title AS "pointTitle", recipient_id::float8 AS "recipientId",
  uploader_name AS "uploaderName", uploader_email AS "uploaderEmail", message, answers,
  upload_notification AS "uploadNotification", receipt_to AS "receiptTo", uploader_locale AS "uploaderLocale",
  uploader_time_zone AS "uploaderTimeZone", created_at AS "createdAt"`;

/** PostgreSQL's unique_violation: an id or slug already taken. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** Inbox columns a PATCH may change (camelCase field → column). */
const INBOX_COLUMNS = {
  slug: 'slug',
  title: 'title',
  description: 'description',
  linkMode: 'link_mode',
  enabled: 'enabled',
  passwordHash: 'password_hash',
  allowedExtensions: 'allowed_extensions',
  maxUploadBytes: 'max_upload_bytes',
  fileValidityDays: 'file_validity_days',
  fields: 'fields',
  uploadNotification: 'upload_notification',
  customization: 'customization',
} as const;
export type InboxPatch = Partial<{ [K in keyof typeof INBOX_COLUMNS]: InboxRecord[K] }>;

/** Requests, inboxes, widgets and the record of each received upload; every change is one statement. */
export class PgReceiveRepository {
  constructor(private readonly db: Queryable & Pick<pg.Pool, 'connect'>) {}

  // --- requests ------------------------------------------------------------------------------------------

  /** Stores a request and its asked people; false when the id is taken (a custom id). */
  async createRequest(
    request: NewRequestRecord,
    recipients: Array<{ email: string; secretHash: string }>,
  ): Promise<Array<{ id: number; email: string }> | null> {
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO receive_requests (id, owner_id, link_mode, subject, message, sender_name, sender_email,
           password_hash, expires_at, expiry_reminder, upload_notification, allowed_extensions, customization,
           locale, time_zone, origin, host)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)`,
        [
          request.id,
          request.ownerId,
          request.linkMode,
          request.subject,
          request.message,
          request.senderName,
          request.senderEmail,
          request.passwordHash,
          request.expiresAt,
          request.expiryReminder,
          request.uploadNotification,
          request.allowedExtensions,
          JSON.stringify(request.customization),
          request.locale,
          request.timeZone,
          request.origin,
          request.host ?? null,
        ],
      );
      const created: Array<{ id: number; email: string }> = [];
      for (const [position, r] of recipients.entries()) {
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO receive_request_recipients (request_id, position, email, secret_hash)
           VALUES ($1, $2, $3, $4) RETURNING id::float8 AS id`,
          [request.id, position, r.email, r.secretHash],
        );
        created.push({ id: rows[0]!.id, email: r.email });
      }
      await client.query('COMMIT');
      return created;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (isUniqueViolation(error)) return null;
      throw error;
    } finally {
      client.release();
    }
  }

  async request(id: string): Promise<RequestRecord | null> {
    const { rows } = await this.db.query<RequestRecord>(
      `SELECT ${REQUEST} FROM receive_requests WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async requestsOf(ownerId: string, limit: number): Promise<RequestRecord[]> {
    const { rows } = await this.db.query<RequestRecord>(
      `SELECT ${REQUEST} FROM receive_requests WHERE owner_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [ownerId, limit],
    );
    return rows;
  }

  async closeRequest(id: string): Promise<void> {
    await this.db.query('UPDATE receive_requests SET closed_at = coalesce(closed_at, now()) WHERE id = $1', [
      id,
    ]);
  }

  async requestRecipients(requestId: string): Promise<RequestRecipientRecord[]> {
    const { rows } = await this.db.query<RequestRecipientRecord>(
      `SELECT r.id::float8 AS id, r.request_id AS "requestId", r.position, r.email, r.uploaded_at AS "uploadedAt",
              d.status AS delivery, d.error AS "deliveryError"
         FROM receive_request_recipients r
         LEFT JOIN mail_deliveries d ON d.idempotency_key = 'rreq-' || r.request_id || '-' || r.id
        WHERE r.request_id = $1
        ORDER BY r.position, r.id`,
      [requestId],
    );
    return rows;
  }

  async recipientBySecretHash(requestId: string, secretHash: string): Promise<RequestRecipientRecord | null> {
    const rows = (await this.requestRecipientsWhere('r.request_id = $1 AND r.secret_hash = $2', [
      requestId,
      secretHash,
    ])) as RequestRecipientRecord[];
    return rows[0] ?? null;
  }

  private async requestRecipientsWhere(where: string, params: unknown[]) {
    const { rows } = await this.db.query<RequestRecipientRecord>(
      `SELECT r.id::float8 AS id, r.request_id AS "requestId", r.position, r.email, r.uploaded_at AS "uploadedAt",
              NULL AS delivery, NULL AS "deliveryError"
         FROM receive_request_recipients r WHERE ${where}`,
      params,
    );
    return rows;
  }

  async markRecipientUploaded(recipientId: number): Promise<void> {
    await this.db.query(
      'UPDATE receive_request_recipients SET uploaded_at = coalesce(uploaded_at, now()) WHERE id = $1',
      [recipientId],
    );
  }

  /** Open requests with reminders on whose reminder time came (`hours` before expiry, or half-way). */
  async requestsDueForReminder(now: Date, hours: number, limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM receive_requests
        WHERE expiry_reminder AND reminded_at IS NULL AND closed_at IS NULL AND link_mode = 'S1'
          AND expires_at > $1
          AND $1 >= greatest(expires_at - make_interval(hours => $2), created_at + (expires_at - created_at) / 2)
        ORDER BY expires_at LIMIT $3`,
      [now, hours, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Marks a request reminded; false when another instance did it first. */
  async markRequestReminded(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE receive_requests SET reminded_at = now() WHERE id = $1 AND reminded_at IS NULL',
      [id],
    );
    return rowCount === 1;
  }

  /** Finished uploads (enabled or later, not still uploading) per request or inbox id. */
  async uploadCounts(column: 'request_id' | 'inbox_id', ids: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (ids.length === 0) return out;
    const { rows } = await this.db.query<{ id: string; n: number }>(
      `SELECT u.${column} AS id, count(*)::int AS n
         FROM received_uploads u JOIN transfers t ON t.id = u.transfer_id
        WHERE u.${column} = ANY($1::text[]) AND t.status NOT IN ('UPLOADING', 'CLONING')
        GROUP BY u.${column}`,
      [ids],
    );
    for (const r of rows) out.set(r.id, r.n);
    return out;
  }

  // --- inboxes -------------------------------------------------------------------------------------------

  /** Stores an inbox (the owner's first becomes the default); null when the slug is taken. */
  async createInbox(inbox: NewInboxRecord): Promise<InboxRecord | null> {
    try {
      const { rows } = await this.db.query<InboxRecord>(
        `INSERT INTO inboxes (id, owner_id, slug, title, description, link_mode, enabled, is_default,
           password_hash, allowed_extensions, max_upload_bytes, file_validity_days, fields, upload_notification,
           customization)
         VALUES ($1,$2,$3,$4,$5,$6,$7,
           $8 OR NOT EXISTS (SELECT 1 FROM inboxes WHERE owner_id = $2 AND is_default),
           $9,$10,$11,$12,$13,$14,$15)
         RETURNING ${INBOX}`,
        [
          inbox.id,
          inbox.ownerId,
          inbox.slug,
          inbox.title,
          inbox.description,
          inbox.linkMode,
          inbox.enabled,
          false,
          inbox.passwordHash,
          inbox.allowedExtensions,
          inbox.maxUploadBytes,
          inbox.fileValidityDays,
          JSON.stringify(inbox.fields),
          inbox.uploadNotification,
          JSON.stringify(inbox.customization),
        ],
      );
      const created = rows[0]!;
      if (inbox.isDefault && !created.isDefault) await this.makeDefault(created.ownerId, created.id);
      return inbox.isDefault ? ((await this.inbox(created.id)) ?? created) : created;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async inbox(id: string): Promise<InboxRecord | null> {
    const { rows } = await this.db.query<InboxRecord>(`SELECT ${INBOX} FROM inboxes WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async inboxBySlug(slug: string): Promise<InboxRecord | null> {
    const { rows } = await this.db.query<InboxRecord>(
      `SELECT ${INBOX} FROM inboxes WHERE lower(slug) = lower($1)`,
      [slug],
    );
    return rows[0] ?? null;
  }

  async inboxesOf(ownerId: string): Promise<InboxRecord[]> {
    const { rows } = await this.db.query<InboxRecord>(
      `SELECT ${INBOX} FROM inboxes WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return rows;
  }

  async defaultInboxOf(ownerId: string): Promise<InboxRecord | null> {
    const { rows } = await this.db.query<InboxRecord>(
      `SELECT ${INBOX} FROM inboxes WHERE owner_id = $1 AND is_default`,
      [ownerId],
    );
    return rows[0] ?? null;
  }

  /** Changes an inbox; false when the new slug is taken. */
  async updateInbox(id: string, patch: InboxPatch): Promise<boolean> {
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [field, column] of Object.entries(INBOX_COLUMNS)) {
      const value = patch[field as keyof InboxPatch];
      if (value === undefined) continue;
      values.push(field === 'fields' || field === 'customization' ? JSON.stringify(value) : value);
      sets.push(`${column} = $${values.length}`);
    }
    if (sets.length === 0) return true;
    try {
      await this.db.query(`UPDATE inboxes SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, values);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Makes this inbox the owner's default (the one /push by e-mail fills). */
  async makeDefault(ownerId: string, id: string): Promise<void> {
    // One statement: the partial unique index sees the old default cleared and the new one set together.
    await this.db.query(
      `UPDATE inboxes SET is_default = (id = $2), updated_at = now()
        WHERE owner_id = $1 AND (is_default OR id = $2)`,
      [ownerId, id],
    );
  }

  /** Deletes an inbox and its widgets; another inbox of the owner (the oldest) becomes the default. */
  async deleteInbox(inbox: InboxRecord): Promise<void> {
    await this.db.query('DELETE FROM inboxes WHERE id = $1', [inbox.id]);
    if (inbox.isDefault)
      await this.db.query(
        `UPDATE inboxes SET is_default = true
          WHERE id = (SELECT id FROM inboxes WHERE owner_id = $1 ORDER BY created_at, id LIMIT 1)
            AND NOT EXISTS (SELECT 1 FROM inboxes WHERE owner_id = $1 AND is_default)`,
        [inbox.ownerId],
      );
  }

  // --- widgets -------------------------------------------------------------------------------------------

  async createWidget(widget: Omit<WidgetRecord, 'createdAt'>): Promise<WidgetRecord> {
    const { rows } = await this.db.query<WidgetRecord>(
      `INSERT INTO widgets (id, inbox_id, name, theme, fields) VALUES ($1, $2, $3, $4, $5) RETURNING ${WIDGET}`,
      [widget.id, widget.inboxId, widget.name, JSON.stringify(widget.theme), JSON.stringify(widget.fields)],
    );
    return rows[0]!;
  }

  async widget(id: string): Promise<WidgetRecord | null> {
    const { rows } = await this.db.query<WidgetRecord>(`SELECT ${WIDGET} FROM widgets WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async widgetsOf(inboxId: string): Promise<WidgetRecord[]> {
    const { rows } = await this.db.query<WidgetRecord>(
      `SELECT ${WIDGET} FROM widgets WHERE inbox_id = $1 ORDER BY created_at, id`,
      [inboxId],
    );
    return rows;
  }

  async updateWidget(
    id: string,
    patch: Partial<Pick<WidgetRecord, 'name' | 'theme' | 'fields'>>,
  ): Promise<void> {
    await this.db.query(
      `UPDATE widgets SET
         name = CASE WHEN $2 THEN $3 ELSE name END,
         theme = coalesce($4::jsonb, theme),
         fields = coalesce($5::jsonb, fields)
       WHERE id = $1`,
      [
        id,
        patch.name !== undefined,
        patch.name ?? null,
        patch.theme ? JSON.stringify(patch.theme) : null,
        patch.fields ? JSON.stringify(patch.fields) : null,
      ],
    );
  }

  async deleteWidget(id: string): Promise<void> {
    await this.db.query('DELETE FROM widgets WHERE id = $1', [id]);
  }

  // --- received uploads ----------------------------------------------------------------------------------

  async recordUpload(upload: Omit<ReceivedUploadRecord, 'createdAt'>): Promise<void> {
    await this.db.query(
      `INSERT INTO received_uploads (transfer_id, request_id, inbox_id, widget_id, via_push, point_title,
         recipient_id, uploader_name, uploader_email, message, answers, upload_notification, receipt_to,
         uploader_locale, uploader_time_zone)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
      [
        upload.transferId,
        upload.requestId,
        upload.inboxId,
        upload.widgetId,
        upload.viaPush,
        upload.pointTitle,
        upload.recipientId,
        upload.uploaderName,
        upload.uploaderEmail,
        upload.message,
        JSON.stringify(upload.answers),
        upload.uploadNotification,
        upload.receiptTo,
        upload.uploaderLocale,
        upload.uploaderTimeZone,
      ],
    );
  }

  async receivedUpload(transferId: string): Promise<ReceivedUploadRecord | null> {
    const { rows } = await this.db.query<ReceivedUploadRecord>(
      `SELECT ${RECEIVED} FROM received_uploads WHERE transfer_id = $1`,
      [transferId],
    );
    return rows[0] ?? null;
  }
}
