import {
  addDays,
  isPayingPlan,
  isReservedReceiveAddress,
  type LimitError,
  PLAN_LIMITS,
  RECEIVE_DEFAULT_DAYS_FREE,
  RECEIVE_DEFAULT_DAYS_PAYING,
  ReceiveRequestCreate,
  type ReceiveRequestListResponse,
  type ReceiveRequestView,
} from '@ferry/core';
import { type PgReceiveRepository, type RequestRecord, requestMailKey } from '../db/receive.repository.js';
import { newTransferId } from '../lib/ids.js';
import { receiveRequest } from '../mail/templates/index.js';
import type { Signer } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { MailQueue } from './notification.service.js';
import type { PasswordHasher } from './ports.js';
import { keptHost, outgoing, type ReceiveContext, uniqueEmails } from './receive.service.js';
import {
  checkPointSettings,
  effectiveExtensions,
  type ReceiveOwners,
  signedIn,
  storedTheme,
} from './receive-owner.js';
import { requestSecretHash } from './receive-points.js';

const REQUEST_LIST_LIMIT = 200;

/**
 * File requests (/request-files, S3) for their owner: made (S1 mails each asked person a personal upload link),
 * listed, read, closed; and the reminders to asked people who have not uploaded before the request expires.
 */
export class ReceiveRequestService {
  constructor(
    private readonly repo: PgReceiveRepository,
    private readonly owners: ReceiveOwners,
    private readonly passwords: PasswordHasher,
    private readonly signer: Signer,
    private readonly mail: MailQueue,
    private readonly settings: {
      productName: string;
      expiryReminderHours: number;
      /** Where request links (answers and mails) start, asked each time; never a request's stored origin. */
      publicOrigin: () => string;
      /** The origin of an owner's verified host (a request made there keeps its host for its links). */
      hostOrigin?: (host: string) => string;
    },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async createRequest(
    auth: Authenticated | null,
    input: ReceiveRequestCreate,
    ctx: ReceiveContext,
  ): Promise<ReceiveRequestView> {
    const request = ReceiveRequestCreate.parse(input);
    const owner = await this.owners.of(signedIn(auth));
    checkPointSettings(owner.settings, {
      linkMode: request.linkMode,
      password: request.password !== undefined,
      customization: request.customization !== undefined && Object.keys(request.customization).length > 0,
      uploadNotificationOff: request.uploadNotification === false,
      allowedExtensions: request.allowedExtensions,
      availability: request.expiresInDays !== undefined,
    });
    const recipients = uniqueEmails(request.recipients ?? []);
    if (request.linkMode === 'S1' && recipients.length === 0)
      throw new AppError('VALIDATION_FAILED', 'A request by e-mail needs at least one person to ask.', {
        details: { field: 'recipients' },
      });
    if (request.linkMode === 'S2' && recipients.length > 0)
      throw new AppError('VALIDATION_FAILED', 'People to ask are for requests by e-mail (S1).', {
        details: { field: 'recipients' },
      });
    const plan = PLAN_LIMITS[owner.team.plan];
    const days =
      request.expiresInDays ??
      Math.min(
        isPayingPlan(owner.team.plan) ? RECEIVE_DEFAULT_DAYS_PAYING : RECEIVE_DEFAULT_DAYS_FREE,
        plan.fileValidityInDays,
      );
    const broken: LimitError[] = [];
    if (days > plan.fileValidityInDays)
      broken.push({ limit: 'fileValidityInDays', max: plan.fileValidityInDays, actual: days });
    if (recipients.length > plan.recipients)
      broken.push({ limit: 'recipients', max: plan.recipients, actual: recipients.length });
    const messageLength = Array.from(request.message ?? '').length;
    if (messageLength > plan.messageLength)
      broken.push({ limit: 'messageLength', max: plan.messageLength, actual: messageLength });
    if (broken.length > 0)
      throw new AppError('LIMIT_EXCEEDED', 'The request exceeds the limits of your plan.', {
        limitErrors: broken,
      });

    if (request.customId && isReservedReceiveAddress(request.customId))
      throw new AppError('CONFLICT', 'This custom address is reserved: choose another.', {
        details: { field: 'customId', reason: 'reserved' },
      });
    const id = request.customId ?? newTransferId();
    const record = {
      id,
      ownerId: owner.user.id,
      linkMode: request.linkMode,
      subject: request.subject || null,
      message: request.message?.trim() || null,
      senderName: request.senderName || owner.user.firstname?.trim() || null,
      senderEmail: request.senderEmail ?? owner.user.email,
      passwordHash: request.password ? await this.passwords.hash(request.password) : null,
      expiresAt: addDays(this.now(), days),
      expiryReminder: request.linkMode === 'S1' && (request.expiryReminder ?? owner.notify.expiryReminder),
      uploadNotification: request.uploadNotification ?? owner.notify.upload,
      allowedExtensions: request.allowedExtensions ?? [],
      customization: storedTheme(request.customization),
      locale: request.locale ?? owner.user.locale,
      timeZone: request.timeZone ?? null,
      ...keptHost(ctx, owner.user, this.settings.publicOrigin),
    };
    const asked = await this.repo.createRequest(
      record,
      recipients.map((email) => ({ email, secretHash: requestSecretHash(this.recipientSecret(id, email)) })),
    );
    if (!asked)
      throw new AppError('CONFLICT', 'This custom address is taken: choose another.', {
        details: { field: 'customId' },
      });
    const stored = (await this.repo.request(id))!;
    for (const r of asked) await this.mailAsked(stored, r, false);
    return this.requestView(stored, 0);
  }

  async requests(auth: Authenticated | null): Promise<ReceiveRequestListResponse> {
    const user = signedIn(auth);
    const requests = await this.repo.requestsOf(user.id, REQUEST_LIST_LIMIT);
    const counts = await this.repo.uploadCounts(
      'request_id',
      requests.map((r) => r.id),
    );
    return { items: await Promise.all(requests.map((r) => this.requestView(r, counts.get(r.id) ?? 0))) };
  }

  async request(auth: Authenticated | null, requestId: string): Promise<ReceiveRequestView> {
    const request = await this.ownRequest(auth, requestId);
    return this.requestView(request, await this.requestUploads(request.id));
  }

  async closeRequest(auth: Authenticated | null, requestId: string): Promise<ReceiveRequestView> {
    const request = await this.ownRequest(auth, requestId);
    await this.repo.closeRequest(request.id);
    return this.requestView((await this.repo.request(request.id))!, await this.requestUploads(request.id));
  }

  /** An asked person's link secret: derived from the server key, so a reminder can carry it again. */
  private recipientSecret(requestId: string, email: string): string {
    return this.signer.derive(`receive-request:${requestId}:${email.toLowerCase()}`);
  }

  private async ownRequest(auth: Authenticated | null, requestId: string): Promise<RequestRecord> {
    const user = signedIn(auth);
    const request = await this.repo.request(requestId);
    if (!request || request.ownerId !== user.id)
      throw new AppError('NOT_FOUND', 'No such request, or not yours.');
    return request;
  }

  private async requestUploads(requestId: string): Promise<number> {
    return (await this.repo.uploadCounts('request_id', [requestId])).get(requestId) ?? 0;
  }

  private async requestView(request: RequestRecord, uploadCount: number): Promise<ReceiveRequestView> {
    const owner = await this.owners.byId(request.ownerId);
    const recipients = await this.repo.requestRecipients(request.id);
    const state = request.closedAt
      ? 'closed'
      : request.expiresAt.getTime() <= this.now().getTime()
        ? 'expired'
        : 'open';
    return {
      requestId: request.id,
      kind: 'request',
      linkMode: request.linkMode,
      state,
      link: `${this.originFor(request)}/r/${request.id}`,
      subject: request.subject,
      message: request.message,
      senderName: request.senderName,
      senderEmail: request.senderEmail,
      passwordProtected: request.passwordHash !== null,
      expiresAt: request.expiresAt.toISOString(),
      createdAt: request.createdAt.toISOString(),
      expiryReminder: request.expiryReminder,
      uploadNotification: request.uploadNotification,
      allowedExtensions: owner
        ? effectiveExtensions(request.allowedExtensions, owner.settings)
        : request.allowedExtensions,
      customization: storedTheme(undefined, request.customization),
      recipients: recipients.map((r) => ({
        email: r.email,
        delivery:
          r.delivery === null || r.delivery === 'sending' || r.delivery === 'transmitting'
            ? 'queued'
            : r.delivery,
        error: r.delivery === 'sent' ? null : r.deliveryError,
        uploadedAt: r.uploadedAt ? r.uploadedAt.toISOString() : null,
      })),
      uploadCount,
    };
  }

  private originFor(request: Pick<RequestRecord, 'host'>): string {
    const { hostOrigin, publicOrigin } = this.settings;
    return request.host && hostOrigin ? hostOrigin(request.host) : publicOrigin();
  }

  private async mailAsked(request: RequestRecord, r: { id: number; email: string }, reminder: boolean) {
    const rendered = await receiveRequest(
      {
        locale: request.locale,
        timeZone: request.timeZone ?? undefined,
        productName: this.settings.productName,
      },
      {
        requesterName: request.senderName,
        requesterEmail: request.senderEmail,
        subject: request.subject,
        message: request.message,
        expiresAt: request.expiresAt,
        uploadUrl: `${this.originFor(request)}/r/${request.id}?userSecret=${this.recipientSecret(request.id, r.email)}`,
        allowedExtensions: request.allowedExtensions,
        passwordProtected: request.passwordHash !== null,
        reminder,
      },
    );
    await this.mail.enqueue({
      ...outgoing(
        rendered,
        [r.email],
        reminder ? `rrem-${request.id}-${r.id}` : requestMailKey(request.id, r.id),
      ),
      replyTo: request.senderEmail ?? undefined,
    });
  }

  /** Reminds asked people who have not uploaded, before their request expires (once per request). */
  async remindDue(now: Date = this.now()): Promise<number> {
    let count = 0;
    for (const id of await this.repo.requestsDueForReminder(now, this.settings.expiryReminderHours, 50)) {
      if (!(await this.repo.markRequestReminded(id))) continue;
      const request = await this.repo.request(id);
      if (!request) continue;
      for (const r of await this.repo.requestRecipients(id)) {
        if (r.uploadedAt) continue;
        await this.mailAsked(request, r, true);
        count++;
      }
    }
    return count;
  }
}
