import type { WebhookDelivery, WebhookEvent, WebhookInfo } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export interface WebhookRecord {
  id: string;
  ownerId: string;
  team: boolean;
  url: string;
  events: WebhookEvent[];
  secret: string;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  event: WebhookEvent;
  body: Record<string, unknown>;
  status: WebhookDelivery['status'];
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const HOOK = `id, owner_id AS "ownerId", team, url, events, secret, created_at AS "createdAt"`;
const DELIVERY = `id, webhook_id AS "webhookId", event, body, status, attempts, response_code AS "responseCode",
  last_error AS "lastError", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt",
  delivered_at AS "deliveredAt"`;

/** Webhooks and their deliveries (the deliveries are queued by triggers, see the migration). */
export class PgWebhookRepository {
  constructor(private readonly db: Queryable) {}

  async create(hook: Omit<WebhookRecord, 'createdAt'>): Promise<WebhookRecord> {
    const { rows } = await this.db.query<WebhookRecord>(
      `INSERT INTO webhooks (id, owner_id, team, url, events, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${HOOK}`,
      [hook.id, hook.ownerId, hook.team, hook.url, hook.events, hook.secret],
    );
    return rows[0]!;
  }

  async list(ownerId: string): Promise<WebhookRecord[]> {
    const { rows } = await this.db.query<WebhookRecord>(
      `SELECT ${HOOK} FROM webhooks WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return rows;
  }

  async get(ownerId: string, id: string): Promise<WebhookRecord | null> {
    const { rows } = await this.db.query<WebhookRecord>(
      `SELECT ${HOOK} FROM webhooks WHERE owner_id = $1 AND id = $2`,
      [ownerId, id],
    );
    return rows[0] ?? null;
  }

  async remove(ownerId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM webhooks WHERE owner_id = $1 AND id = $2', [
      ownerId,
      id,
    ]);
    return rowCount === 1;
  }

  async deliveries(webhookId: string, limit = 100): Promise<DeliveryRecord[]> {
    const { rows } = await this.db.query<DeliveryRecord>(
      `SELECT ${DELIVERY} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
      [webhookId, limit],
    );
    return rows;
  }

  /** Sends a delivery of the owner's webhooks again: pending, due now, its attempts counted afresh. */
  async replay(ownerId: string, deliveryId: string, now: Date): Promise<DeliveryRecord | null> {
    const { rows } = await this.db.query<DeliveryRecord>(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $3, delivered_at = NULL
        WHERE id = $2 AND webhook_id IN (SELECT id FROM webhooks WHERE owner_id = $1)
       RETURNING ${DELIVERY}`,
      [ownerId, deliveryId, now],
    );
    return rows[0] ?? null;
  }

  /**
   * Claims up to `limit` deliveries due at `now`: pushes their next attempt `leaseSeconds` ahead, so that
   * another instance does not send them at the same time; the outcome is written by {@link finish}.
   */
  async claimDue(
    now: Date,
    leaseSeconds: number,
    limit: number,
  ): Promise<(DeliveryRecord & { hook: WebhookRecord })[]> {
    const { rows } = await this.db.query<DeliveryRecord & { hook: WebhookRecord }>(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
          ORDER BY next_attempt_at NULLS FIRST, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET next_attempt_at = $1::timestamptz + make_interval(secs => $2)
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.webhook_id AS "webhookId", d.event, d.body, d.status, d.attempts,
         (SELECT json_build_object('id', w.id, 'ownerId', w.owner_id, 'team', w.team, 'url', w.url,
                 'events', w.events, 'secret', w.secret) FROM webhooks w WHERE w.id = d.webhook_id) AS hook`,
      [now, leaseSeconds, limit],
    );
    return rows;
  }

  async finish(
    id: string,
    outcome: {
      status: DeliveryRecord['status'];
      attempts: number;
      responseCode: number | null;
      lastError: string | null;
      nextAttemptAt: Date | null;
      deliveredAt: Date | null;
    },
  ): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, response_code = $4, last_error = $5,
         next_attempt_at = $6, delivered_at = $7 WHERE id = $1`,
      [
        id,
        outcome.status,
        outcome.attempts,
        outcome.responseCode,
        outcome.lastError,
        outcome.nextAttemptAt,
        outcome.deliveredAt,
      ],
    );
  }
}

export function webhookInfo(h: WebhookRecord): WebhookInfo {
  return { id: h.id, url: h.url, events: h.events, team: h.team, createdAt: h.createdAt.toISOString() };
}

export function deliveryInfo(d: DeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    webhookId: d.webhookId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}
