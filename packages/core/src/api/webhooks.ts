import { z } from 'zod';
import { TRANSFER_EVENTS } from '../enums.js';

/** What a webhook may subscribe to: the §3 transfer events, and DOWNLOADED (a download or a zip of a transfer). */
export const WEBHOOK_EVENTS = [...TRANSFER_EVENTS, 'DOWNLOADED'] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** Seconds between a failed attempt and the next one: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h; then failed. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 21_600, 43_200] as const;
/** An attempt that has no answer by then fails. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Ferry-Signature';

export const WebhookCreateRequest = z.object({
  url: z.string().url().max(2000),
  /** Default: every event. */
  events: z.array(WebhookEvent).min(1).max(WEBHOOK_EVENTS.length).optional(),
  /** A manager's webhook for the transfers of the whole team (the manager's and every member's). */
  team: z.boolean().optional(),
});
export type WebhookCreateRequest = z.input<typeof WebhookCreateRequest>;

export const WebhookInfo = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEvent),
  team: z.boolean(),
  createdAt: z.string(),
});
export type WebhookInfo = z.infer<typeof WebhookInfo>;

/** The signing secret is shown once, at creation. */
export const WebhookCreated = WebhookInfo.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  event: WebhookEvent,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The HTTP status of the last attempt (null: no answer, or not tried yet). */
  responseCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** When the next attempt is due (null once delivered or failed). */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** The JSON body POSTed to a webhook. */
export interface WebhookPayload {
  id: string;
  event: WebhookEvent;
  createdAt: string;
  transfer: Record<string, unknown>;
}

export const WebhookList = z.array(WebhookInfo);
export const WebhookDeliveryList = z.array(WebhookDelivery);
