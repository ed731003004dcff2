import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * The table the mail job keeps its promises in. Until the migration that creates it lands (see the SQL in
 * the mail-job docs), tests create it from here; IF NOT EXISTS keeps both working.
 */
export const MAIL_DELIVERIES_DDL = `
CREATE TABLE IF NOT EXISTS mail_deliveries (
  idempotency_key text PRIMARY KEY,
  status text NOT NULL
    CHECK (status IN ('sending', 'transmitting', 'sent', 'failed', 'rejected', 'in_doubt')),
  claim_token uuid,
  attempts integer NOT NULL DEFAULT 0,
  claimed_at timestamptz,
  transmitting_at timestamptz,
  sent_at timestamptz,
  message_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS mail_deliveries_attention_idx ON mail_deliveries (status, updated_at)
  WHERE status IN ('transmitting', 'in_doubt', 'rejected');
`;

/**
 * sending      an attempt holds the key; nothing went out yet (safe to take over)
 * transmitting the holder let the first byte go to the relay: from here it may be delivered
 * sent         the relay accepted it (final)
 * failed       it surely did not go out; the next attempt takes it (retry)
 * rejected     the relay refused it for good (final)
 * in_doubt     transmitting, then silence: maybe delivered, never sent again automatically (final)
 */
export type DeliveryStatus = 'sending' | 'transmitting' | 'sent' | 'failed' | 'rejected' | 'in_doubt';

export type Claim =
  | { kind: 'claimed'; token: string; attempts: number }
  | { kind: 'done'; status: 'sent' | 'rejected' | 'in_doubt'; messageId: string | null }
  /** Another attempt is transmitting right now (or was, too recently to call it in doubt). */
  | { kind: 'busy' };

export interface DeliveryRow {
  status: DeliveryStatus;
  attempts: number;
  messageId: string | null;
  error: string | null;
  sentAt: Date | null;
}

type Queryable = Pick<pg.Pool, 'query'>;

/** Idempotency of mail sending, one row per key, every transition a single conditional statement. */
export class PgMailDeliveries {
  constructor(private readonly db: Queryable) {}

  /**
   * Takes the key for one attempt. A key nobody holds, a failed one and one merely claimed (nothing sent: its
   * holder died or is slow, and its fence will fail) are taken over; `takeOverTransmitting` also takes one
   * that was transmitting, for a mailer that drops copies itself. A transmitting key older than
   * `staleAfterSeconds` becomes in_doubt: its holder is gone, and the relay may have the mail.
   */
  async claim(
    key: string,
    options: { takeOverTransmitting: boolean; staleAfterSeconds: number },
  ): Promise<Claim> {
    for (let round = 0; round < 3; round++) {
      const token = randomUUID();
      const taken = await this.db.query<{ attempts: number }>(
        `INSERT INTO mail_deliveries AS d (idempotency_key, status, claim_token, attempts, claimed_at)
         VALUES ($1, 'sending', $2, 1, now())
         ON CONFLICT (idempotency_key) DO UPDATE
           SET status = 'sending', claim_token = EXCLUDED.claim_token, attempts = d.attempts + 1,
               claimed_at = now(), updated_at = now(), error = NULL
           WHERE d.status IN ('sending', 'failed') OR ($3 AND d.status = 'transmitting')
         RETURNING attempts`,
        [key, token, options.takeOverTransmitting],
      );
      if (taken.rows[0]) return { kind: 'claimed', token, attempts: taken.rows[0].attempts };
      const marked = await this.db.query(
        `UPDATE mail_deliveries
            SET status = 'in_doubt', updated_at = now(),
                error = 'the attempt that was transmitting it never finished'
          WHERE idempotency_key = $1 AND status = 'transmitting'
            AND transmitting_at < now() - make_interval(secs => $2)`,
        [key, options.staleAfterSeconds],
      );
      if (marked.rowCount) return { kind: 'done', status: 'in_doubt', messageId: null };
      const row = await this.get(key);
      if (!row) continue;
      if (row.status === 'sent' || row.status === 'rejected' || row.status === 'in_doubt')
        return { kind: 'done', status: row.status, messageId: row.messageId };
      if (row.status === 'transmitting') return { kind: 'busy' };
      // It became claimable between our statements: try again.
    }
    return { kind: 'busy' };
  }

  /** The fence: true if this attempt still holds the key, which is now marked as going out. */
  async startTransmitting(key: string, token: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE mail_deliveries SET status = 'transmitting', transmitting_at = now(), updated_at = now()
        WHERE idempotency_key = $1 AND claim_token = $2 AND status = 'sending'`,
      [key, token],
    );
    return result.rowCount === 1;
  }

  /** Whoever held it: once a relay accepted the mail, that is the truth about this key. */
  async markSent(key: string, messageId: string): Promise<void> {
    await this.db.query(
      `UPDATE mail_deliveries SET status = 'sent', sent_at = now(), message_id = $2, error = NULL,
              updated_at = now()
        WHERE idempotency_key = $1`,
      [key, messageId],
    );
  }

  /** Ends this attempt with a final or retryable status; a no-op if another attempt took the key since. */
  async release(key: string, token: string, status: 'failed' | 'rejected' | 'in_doubt', error: string) {
    await this.db.query(
      `UPDATE mail_deliveries SET status = $3, error = $4, updated_at = now()
        WHERE idempotency_key = $1 AND claim_token = $2 AND status IN ('sending', 'transmitting')`,
      [key, token, status, error.slice(0, 2000)],
    );
  }

  async get(key: string): Promise<DeliveryRow | null> {
    const result = await this.db.query<DeliveryRow>(
      `SELECT status, attempts, message_id AS "messageId", error, sent_at AS "sentAt"
         FROM mail_deliveries WHERE idempotency_key = $1`,
      [key],
    );
    return result.rows[0] ?? null;
  }
}
