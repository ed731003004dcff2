import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMEOUT_SECONDS,
  type WebhookCreated,
  type WebhookCreateRequest,
  type WebhookDelivery,
  type WebhookInfo,
} from '@ferry/core';
import type { Logger } from 'pino';
import {
  type DeliveryRecord,
  deliveryInfo,
  type PgWebhookRepository,
  type WebhookRecord,
  webhookInfo,
} from '../db/webhook.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import { randomToken } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { SecurityLog } from './security-log.js';
import { checkWebhookUrl, type Resolver } from './webhook-address.js';

/** Webhooks an account may have. */
export const MAX_WEBHOOKS = 20;

/** The job that sends due deliveries, every minute (a singleton across instances). */
export const WEBHOOKS_TICK = 'webhooks.deliver';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function webhookSignature(secret: string, unixSeconds: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: deliver to loopback and private addresses, over http too (tests, closed networks). */
  allowPrivate: boolean;
  resolve?: Resolver;
  now?: () => Date;
}

/** An attempt's answer: a status code, or an error (timeout, refused connection, refused address). */
type Attempt = { code: number } | { error: string };

/**
 * Webhooks of a user or of a manager's team: managed by the owner (a session, or a token with the admin scope);
 * deliveries are queued by the database (triggers on transfer_events and downloads) and sent by {@link
 * deliverDue}, which the webhooks job runs every minute: a 2xx ends a delivery; otherwise it is tried again after
 * 1 min, 5 min, 30 min, 2 h, 6 h and 12 h, then failed.
 */
/** Who called, for the security log. */
export interface WebhookRequestContext {
  ip?: string;
  userAgent?: string;
}

export class WebhookService {
  private readonly now: () => Date;

  constructor(
    private readonly repo: PgWebhookRepository,
    private readonly settings: WebhookSettings,
    private readonly logger: Logger,
  ) {
    this.now = settings.now ?? (() => new Date());
  }

  private securityLog: SecurityLog | null = null;

  /** Adding and removing a webhook are written to the owner's team security log. */
  recordSecurity(log: SecurityLog): void {
    this.securityLog = log;
  }

  private async logged(
    auth: Authenticated,
    action: 'webhook-created' | 'webhook-removed',
    target: string,
    ctx: WebhookRequestContext,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    await this.securityLog?.record({
      userId: auth.user.id,
      action,
      actorUserId: auth.user.id,
      tokenId: auth.tokenId,
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent ?? null,
      target,
      details,
    });
  }

  async list(auth: Authenticated): Promise<WebhookInfo[]> {
    return (await this.repo.list(auth.user.id)).map(webhookInfo);
  }

  async create(
    auth: Authenticated,
    request: WebhookCreateRequest,
    ctx: WebhookRequestContext = {},
  ): Promise<WebhookCreated> {
    if (request.team && (auth.user.managerId || !['TEAM', 'ENTERPRISE'].includes(auth.planType)))
      throw new AppError('FORBIDDEN', 'Only a team manager adds a webhook for the whole team.');
    if ((await this.repo.list(auth.user.id)).length >= MAX_WEBHOOKS)
      throw new AppError('CONFLICT', `An account has at most ${MAX_WEBHOOKS} webhooks: remove one first.`);
    await checkWebhookUrl(request.url, this.settings);
    const secret = `whsec_${randomToken(24)}`;
    const hook = await this.repo.create({
      id: `wh_${randomAlphanumeric(16)}`,
      ownerId: auth.user.id,
      team: request.team ?? false,
      url: request.url,
      events: request.events
        ? WEBHOOK_EVENTS.filter((e) => request.events!.includes(e))
        : [...WEBHOOK_EVENTS],
      secret,
    });
    await this.logged(auth, 'webhook-created', hook.url, ctx, { webhookId: hook.id, team: hook.team });
    return { ...webhookInfo(hook), secret };
  }

  async remove(auth: Authenticated, id: string, ctx: WebhookRequestContext = {}): Promise<void> {
    const hook = await this.repo.get(auth.user.id, id);
    if (!hook || !(await this.repo.remove(auth.user.id, id)))
      throw new AppError('NOT_FOUND', 'No such webhook.');
    await this.logged(auth, 'webhook-removed', hook.url, ctx, { webhookId: id });
  }

  async deliveries(auth: Authenticated, id: string): Promise<WebhookDelivery[]> {
    if (!(await this.repo.get(auth.user.id, id))) throw new AppError('NOT_FOUND', 'No such webhook.');
    return (await this.repo.deliveries(id)).map(deliveryInfo);
  }

  async replay(auth: Authenticated, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.repo.replay(auth.user.id, deliveryId, this.now());
    if (!delivery) throw new AppError('NOT_FOUND', 'No such delivery.');
    return deliveryInfo(delivery);
  }

  /** Sends every delivery due now (a batch at a time); returns how many were tried. */
  async deliverDue(limit = 50): Promise<number> {
    const due = await this.repo.claimDue(this.now(), WEBHOOK_TIMEOUT_SECONDS * 3, limit);
    await Promise.all(due.map((d) => this.attempt(d, d.hook)));
    return due.length;
  }

  private async attempt(
    delivery: DeliveryRecord,
    hook: Pick<WebhookRecord, 'url' | 'secret'>,
  ): Promise<void> {
    const rawBody = JSON.stringify(delivery.body);
    const answer = await this.post(hook.url, hook.secret, rawBody);
    const attempts = delivery.attempts + 1;
    const now = this.now();
    if ('code' in answer && answer.code >= 200 && answer.code < 300) {
      await this.repo.finish(delivery.id, {
        status: 'delivered',
        attempts,
        responseCode: answer.code,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: now,
      });
      return;
    }
    const delay = WEBHOOK_RETRY_DELAYS_SECONDS[attempts - 1];
    await this.repo.finish(delivery.id, {
      status: delay === undefined ? 'failed' : 'pending',
      attempts,
      responseCode: 'code' in answer ? answer.code : null,
      lastError: 'error' in answer ? answer.error : `HTTP ${answer.code}`,
      nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay * 1000),
      deliveredAt: null,
    });
  }

  /** POSTs the body to an address checked now (the connection goes to it: no DNS rebinding in between). */
  private async post(url: string, secret: string, rawBody: string): Promise<Attempt> {
    let addresses: LookupAddress[];
    try {
      addresses = await checkWebhookUrl(url, this.settings);
    } catch (error) {
      return { error: error instanceof Error ? error.message : 'refused address' };
    }
    const target = addresses[0]!;
    const signature = webhookSignature(secret, Math.floor(this.now().getTime() / 1000), rawBody);
    const parsed = new URL(url);
    const client = parsed.protocol === 'https:' ? https : http;
    return new Promise<Attempt>((resolve) => {
      const request = client.request(
        parsed,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(rawBody),
            'user-agent': 'Ferry-Webhooks/1',
            [WEBHOOK_SIGNATURE_HEADER]: signature,
          },
          timeout: WEBHOOK_TIMEOUT_SECONDS * 1000,
          lookup: (_host, options, callback) => {
            if ((options as { all?: boolean }).all) callback(null, [target]);
            else callback(null, target.address, target.family);
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ code: response.statusCode ?? 0 }));
          response.on('error', () => resolve({ code: response.statusCode ?? 0 }));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer in ${WEBHOOK_TIMEOUT_SECONDS} s`)));
      request.on('error', (error) => {
        this.logger.debug({ err: error, url: parsed.origin }, 'webhook delivery failed');
        resolve({ error: error.message });
      });
      request.end(rawBody);
    });
  }
}
