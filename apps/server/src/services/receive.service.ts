import {
  addDays,
  defaultTransferValidityDays,
  GB,
  type LimitError,
  PLAN_LIMITS,
  ReceiveCheckPasswordRequest,
  type ReceivedUploadView,
  type ReceivePointPublic,
  type ReceiveReceipt,
  type ReceiveTarget,
  ReceiveUploadCreate,
  type ReceiveUploadCreateResponse,
} from '@ferry/core';
import type { PgReceiveRepository } from '../db/receive.repository.js';
import { newTransferId } from '../lib/ids.js';
import type { OutgoingMail } from '../mail/mailer.js';
import {
  type MailContext,
  passwordGuessing,
  uploadReceipt,
  uploadReceived,
} from '../mail/templates/index.js';
import { constantTimeEqual, randomToken, sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { belongsToHost } from './host-ports.js';
import type { MailQueue } from './notification.service.js';
import { PasswordGuard } from './password-guard.js';
import {
  type PasswordHasher,
  type RateLimiter,
  StorageQuotaExceeded,
  type TransferFileRecord,
  type TransferRecord,
  type TransferRepository,
} from './ports.js';
import { type ReceiveOwners, signedIn } from './receive-owner.js';
import type { OwnerReceiveBrand, ReceivePoints, ResolvedPoint } from './receive-points.js';
import {
  downloadLink,
  fileNameProblems,
  newFileRows,
  type TransferService,
  toFile,
} from './transfer.service.js';

/** Per client: how many public lookups and uploads, how often (guessable ids and abuse). */
export interface ReceiveRateLimits {
  lookups: { limit: number; windowSeconds: number };
  uploads: { limit: number; windowSeconds: number };
  /** Receipts mailed to one uploader address. */
  receipts: { limit: number; windowSeconds: number };
  passwords: { attempts: number; windowSeconds: number };
}

export const DEFAULT_RECEIVE_RATE_LIMITS: ReceiveRateLimits = {
  lookups: { limit: 120, windowSeconds: 60 },
  uploads: { limit: 60, windowSeconds: 600 },
  receipts: { limit: 10, windowSeconds: 3600 },
  passwords: { attempts: 5, windowSeconds: 900 },
};

export interface ReceiveContext {
  origin: string;
  ip: string;
  /** The owner's verified host the request came to (Ferry's table of hosts), whose origin `origin` is. */
  host?: string | null;
  /** Whose host that is: only what its owner's people make there keeps it (belongsToHost). */
  hostOwnerId?: string | null;
}

/** The host and origin what an owner makes through `ctx` keeps: the host it came to when it is the owner's own. */
export function keptHost(
  ctx: ReceiveContext,
  owner: { id: string; managerId: string | null },
  publicOrigin: () => string,
): { host: string | null; origin: string } {
  return ctx.host && belongsToHost({ ownerId: ctx.hostOwnerId ?? '' }, owner)
    ? { host: ctx.host, origin: ctx.origin }
    : { host: null, origin: publicOrigin() };
}

function rateLimited(retryAfterSeconds: number, message = 'Too many attempts; wait before trying again.') {
  return new AppError('RATE_LIMITED', message, {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
}

/**
 * Receiving files (S3): file requests (/request-files), the public side of every receive point (its page, its
 * password, uploads into it) and what follows an upload (the owner's notification, the uploader's receipt, the
 * asked people's reminders). Each upload is a transfer of type S3 owned by the point's owner.
 */
export class ReceiveService {
  constructor(
    private readonly repo: PgReceiveRepository,
    private readonly points: ReceivePoints,
    private readonly owners: ReceiveOwners,
    private readonly transfers: TransferRepository,
    private readonly transferService: TransferService,
    private readonly passwords: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly mail: MailQueue,
    private readonly settings: {
      productName: string;
      limits: ReceiveRateLimits;
      /** Where links in mails start, asked at send time; never a transfer's stored origin. */
      publicOrigin: () => string;
      /** The origin of an owner's verified host: an upload made there keeps its host for the owner's mail. */
      hostOrigin?: (host: string) => string;
    },
    private readonly now: () => Date = () => new Date(),
  ) {}

  // --- the public side -----------------------------------------------------------------------------------

  /** What an upload page (request, inbox, widget, /push) shows; rate limited per client. */
  async point(target: ReceiveTarget, ctx: ReceiveContext): Promise<ReceivePointPublic> {
    await this.hit(`rcv-look:${ctx.ip}`, this.settings.limits.lookups);
    const point = await this.points.resolve(target);
    const ownerTheme = this.ownerTheme ? await this.ownerTheme(point.owner.user.id) : null;
    return this.points.publicView(point, ownerTheme);
  }

  private ownerTheme: ((ownerId: string) => Promise<OwnerReceiveBrand | null>) | null = null;

  /** The colours of the owner's account or team theme, under a request's, inbox's or widget's own (customization). */
  brandWith(ownerTheme: (ownerId: string) => Promise<OwnerReceiveBrand | null>): void {
    this.ownerTheme = ownerTheme;
  }

  private mailBrand: ((ownerId: string) => Promise<MailContext['brand']>) | null = null;

  /**
   * The header image and colours of the owner's account or team in the mails of their receive points: the
   * received-files mail to them and the receipt to the uploader (CustomizationService).
   */
  brandMails(brand: (ownerId: string) => Promise<MailContext['brand']>): void {
    this.mailBrand = brand;
  }

  async checkPassword(input: ReceiveCheckPasswordRequest, ctx: ReceiveContext): Promise<void> {
    const { target, password } = ReceiveCheckPasswordRequest.parse(input);
    const point = await this.points.resolve(target);
    if (point.passwordHash) await this.checkPasswordOf(point, password, ctx);
  }

  /** Starts an upload into a point: every rule is checked before a byte is stored. */
  async createUpload(input: ReceiveUploadCreate, ctx: ReceiveContext): Promise<ReceiveUploadCreateResponse> {
    const upload = ReceiveUploadCreate.parse(input);
    await this.hit(
      `rcv-up:${ctx.ip}`,
      this.settings.limits.uploads,
      'Too many uploads from here; wait a while.',
    );
    const point = await this.points.resolve(upload.target);
    if (point.passwordHash) {
      if (upload.password === undefined)
        throw new AppError('PASSWORD_REQUIRED', 'This page is protected by a password.');
      await this.checkPasswordOf(point, upload.password, ctx);
    }
    const uploaderEmail = point.recipient?.email ?? upload.uploaderEmail ?? null;
    const uploaderName = upload.uploaderName || null;
    const message = upload.message?.trim() || null;
    const required = (field: 'name' | 'email' | 'message', value: string | null, what: string) => {
      if (point.fields[field] === 'required' && !value)
        throw new AppError('VALIDATION_FAILED', `Give ${what}.`, { details: { field: `uploader.${field}` } });
    };
    required('name', uploaderName, 'your name');
    required('email', uploaderEmail, 'your e-mail address');
    required('message', message, 'a message');
    const given = new Map(upload.answers.map((a) => [a.questionId, a.answer.trim()]));
    const answers = point.fields.questions.map((q) => ({
      questionId: q.id,
      label: q.label,
      answer: given.get(q.id) ?? '',
    }));
    for (const a of answers)
      if (!a.answer && point.fields.questions.find((q) => q.id === a.questionId)?.required)
        throw new AppError('VALIDATION_FAILED', `Answer “${a.label}”.`, {
          details: { field: `answers.${a.questionId}` },
        });
    this.checkNames(upload.files, point.allowedExtensions);

    const plan = PLAN_LIMITS[point.owner.team.plan];
    const totalSize = upload.files.reduce((sum, f) => sum + f.size, 0);
    const broken: LimitError[] = [];
    if (upload.files.length > plan.files)
      broken.push({ limit: 'files', max: plan.files, actual: upload.files.length });
    if (totalSize > point.maxUploadBytes)
      broken.push({ limit: 'uploadSize', max: point.maxUploadBytes, actual: totalSize });
    const messageLength = Array.from(message ?? '').length;
    if (messageLength > plan.messageLength)
      broken.push({ limit: 'messageLength', max: plan.messageLength, actual: messageLength });
    if (broken.length > 0)
      throw new AppError('LIMIT_EXCEEDED', 'These files exceed what this page accepts.', {
        limitErrors: broken,
      });

    const validityDays =
      point.inbox?.fileValidityDays ??
      point.owner.team.forcedFileValidityInDays ??
      defaultTransferValidityDays(plan.fileValidityInDays);
    const id = newTransferId();
    const uploadToken = randomToken();
    const now = this.now();
    const madeOn = keptHost(ctx, point.owner.user, this.settings.publicOrigin);
    const files = newFileRows(id, upload.files);
    // A personal link (S1 request) was mailed to its recipient: that address is theirs. Any other address was
    // typed by the visitor and never checked: recorded as such, so no view shows it as fact.
    const actor = point.recipient
      ? `recipient:${point.recipient.email}`
      : uploaderEmail
        ? `uploader:${uploaderEmail}`
        : 'anonymous';
    try {
      await this.transfers.create(
        {
          id,
          type: 'S3',
          status: 'UPLOADING',
          name: point.title,
          message,
          passwordHash: null,
          uploadTokenHash: sha256Hex(uploadToken),
          ownerId: point.owner.user.id,
          senderEmail: uploaderEmail,
          senderName: uploaderName,
          // Mails about a received transfer go to its owner: in their language.
          locale: point.owner.user.locale,
          timeZone: point.request?.timeZone ?? null,
          allowPreview: true,
          maxDownloads: null,
          totalSize,
          fileCount: files.length,
          expiresAt: addDays(now, validityDays),
          downloadConfirmation: false,
          expiryReminder: false,
          notifySummary: false,
          forceEmailWhenDownloadS2: false,
          senderVerification: 'not_needed',
          origin: madeOn.origin,
          host: madeOn.host,
          storageRegion: point.owner.team.forcedRegion,
          sseC: this.transferService.sseCFor(point.owner.team.disableSSEC),
          priceAmount: null,
          priceCurrency: null,
        },
        files,
        [
          {
            type: 'CREATED',
            actor,
            data: { type: 'S3', files: files.length, totalSize, via: via(point) },
          },
        ],
        [],
        { teamId: point.owner.team.teamId, maxBytes: point.owner.team.storageGB * GB },
      );
    } catch (error) {
      if (!(error instanceof StorageQuotaExceeded)) throw error;
      throw new AppError('LIMIT_EXCEEDED', 'The recipient’s storage is full.', {
        limitErrors: [{ limit: 'storage', max: error.max, actual: error.used + totalSize }],
      });
    }
    let receiptTo: string | null = null;
    if (point.linkMode === 'S1' && point.kind === 'inbox' && uploaderEmail) {
      const hit = await this.limiter.hit(
        `rcv-receipt:${uploaderEmail.toLowerCase()}`,
        this.settings.limits.receipts.limit,
        this.settings.limits.receipts.windowSeconds,
      );
      receiptTo = hit.allowed ? uploaderEmail : null;
    }
    try {
      await this.repo.recordUpload({
        transferId: id,
        requestId: point.request?.id ?? null,
        inboxId: point.inbox?.id ?? null,
        widgetId: point.widget?.id ?? null,
        viaPush: point.viaPush,
        pointTitle: point.title,
        recipientId: point.recipient?.id ?? null,
        uploaderName,
        uploaderEmail,
        message,
        answers,
        uploadNotification: point.uploadNotification,
        receiptTo,
        uploaderLocale: upload.locale ?? null,
        uploaderTimeZone: upload.timeZone ?? null,
      });
    } catch (error) {
      await this.transfers.deleteUnfinished(id).catch(() => undefined);
      throw error;
    }
    return {
      transferId: id,
      uploadToken,
      uploadEndpoint: '/api/transfer/uploads',
      files: files.map((f) => toFile({ ...f, createdAt: now })),
    };
  }

  /** Completes an upload (every file there, SHA-256 as the client computed); the owner is told by the dispatch job. */
  async completeUpload(
    transferId: string,
    token: string | undefined,
    clientFiles: Array<{ id: string; sha256?: string }>,
    ctx: ReceiveContext,
  ): Promise<ReceiveReceipt> {
    await this.received(transferId, token);
    await this.transferService.complete(transferId, token, clientFiles, {
      userId: null,
      plan: 'NONE',
      // "Upload finished" names the same uploader as "Created", not "an anonymous sender".
      recordedAs: await this.uploaderActor(transferId),
      ip: ctx.ip,
      origin: ctx.origin,
    });
    const row = await this.repo.receivedUpload(transferId);
    if (row?.recipientId) await this.repo.markRecipientUploaded(row.recipientId);
    return this.receipt(transferId, token);
  }

  /** The receipt so far, to resume an upload (upload token). */
  async receipt(transferId: string, token: string | undefined): Promise<ReceiveReceipt> {
    const transfer = await this.received(transferId, token);
    const row = await this.repo.receivedUpload(transferId);
    const files = await this.transfers.files(transferId);
    const events = transfer.status === 'UPLOADING' ? [] : await this.transfers.events(transferId);
    const uploaded = events.find((e) => e.type === 'UPLOADED');
    return {
      transferId,
      status: transfer.status,
      title: row?.pointTitle ?? transfer.name,
      ownerName: await this.ownerName(row?.requestId ?? null),
      files: files.map(toFile),
      totalSize: transfer.totalSize,
      receivedAt: uploaded ? uploaded.createdAt.toISOString() : null,
      receiptSentTo: row?.receiptTo ?? null,
    };
  }

  /** The actor the upload was created with (its CREATED event): see createUpload. */
  private async uploaderActor(transferId: string): Promise<string> {
    const created = (await this.transfers.events(transferId)).find((e) => e.type === 'CREATED');
    return created?.actor ?? 'anonymous';
  }

  /**
   * Whether the uploader's address is known to be theirs: the upload came through a personal link mailed to it
   * (a `recipient:` uploader, or a row still tied to the request's recipient). A typed address never is.
   */
  private uploaderEmailVerified(
    row: { recipientId: number | null },
    events: ReadonlyArray<{ type: string; actor: string }>,
  ): boolean {
    if (row.recipientId !== null) return true;
    return events.find((e) => e.type === 'CREATED')?.actor.startsWith('recipient:') ?? false;
  }

  /** Who receives: a request's requester as they signed it; for an inbox, its title says it (null here). */
  private async ownerName(requestId: string | null): Promise<string | null> {
    const request = requestId ? await this.repo.request(requestId) : null;
    return request ? (request.senderName ?? request.senderEmail) : null;
  }

  /** A received transfer, for the holder of its upload token; anything else is not found. */
  private async received(transferId: string, token: string | undefined): Promise<TransferRecord> {
    const transfer = await this.transfers.find(transferId);
    if (transfer?.type !== 'S3' || !token || !constantTimeEqual(sha256Hex(token), transfer.uploadTokenHash))
      throw new AppError('TRANSFER_NOT_FOUND', 'Unknown upload or wrong upload token.');
    return transfer;
  }

  /** Who uploaded a received transfer, through what, and their answers (the owner or a team manager). */
  async receivedView(auth: Authenticated | null, transferId: string): Promise<ReceivedUploadView> {
    const caller = signedIn(auth);
    const transfer = await this.transfers.find(transferId);
    const row = transfer?.type === 'S3' ? await this.repo.receivedUpload(transferId) : null;
    if (!transfer?.ownerId || !row || !(await this.owners.mayManage(transfer.ownerId, caller)))
      throw new AppError('TRANSFER_NOT_FOUND', 'No such received transfer, or not yours.');
    const events = await this.transfers.events(transferId);
    const uploaded = events.find((e) => e.type === 'UPLOADED');
    return {
      transferId,
      point: {
        kind: row.requestId || (!row.inboxId && !row.viaPush && !row.widgetId) ? 'request' : 'inbox',
        id: row.requestId ?? row.inboxId ?? '',
        title: row.pointTitle,
        widgetId: row.widgetId,
        viaPush: row.viaPush,
      },
      uploader: {
        name: row.uploaderName,
        email: row.uploaderEmail,
        emailVerified: row.uploaderEmail !== null && this.uploaderEmailVerified(row, events),
        message: row.message,
        answers: row.answers,
      },
      receivedAt: uploaded ? uploaded.createdAt.toISOString() : null,
    };
  }

  /** Whether `userId` may download a received (S3) transfer: its owner or an authorized team manager. */
  async mayDownload(transfer: TransferRecord, userId: string | null): Promise<boolean> {
    if (!userId || !transfer.ownerId) return false;
    if (transfer.ownerId === userId) return true;
    const caller = await this.owners.user(userId);
    return caller !== null && (await this.owners.mayManage(transfer.ownerId, caller));
  }

  // --- after an upload (the dispatch job) and the maintenance tick ---------------------------------------

  /**
   * A received transfer became available: the owner's notification (when the point and their settings want
   * it) and the S1 inbox uploader's receipt. Keys name each mail for good, so a rerun sends nothing twice.
   */
  async delivered(transferId: string): Promise<void> {
    const transfer = await this.transfers.find(transferId);
    const row = await this.repo.receivedUpload(transferId);
    if (!transfer?.ownerId || !row) return;
    if (row.recipientId) await this.repo.markRecipientUploaded(row.recipientId);
    const owner = await this.owners.byId(transfer.ownerId);
    const files = (await this.transfers.files(transferId)).filter((f) => f.uploadedAt);
    const brand = this.mailBrand ? await this.mailBrand(transfer.ownerId) : null;
    if (owner && row.uploadNotification && owner.notify.upload) {
      const rendered = await uploadReceived(
        {
          locale: owner.user.locale,
          timeZone: transfer.timeZone ?? undefined,
          productName: this.settings.productName,
          brand,
        },
        {
          uploaderName: row.uploaderName,
          uploaderEmail: row.uploaderEmail,
          uploaderEmailVerified: this.uploaderEmailVerified(row, await this.transfers.events(transferId)),
          pointTitle: row.pointTitle,
          message: row.message,
          answers: row.answers,
          files: mailFiles(files),
          totalSize: transfer.totalSize,
          expiresAt: transfer.expiresAt,
          transferUrl: downloadLink(
            transfer.host && this.settings.hostOrigin
              ? this.settings.hostOrigin(transfer.host)
              : this.settings.publicOrigin(),
            transferId,
          ),
        },
      );
      await this.mail.enqueue({
        ...outgoing(rendered, [owner.user.email], `rcv-${transferId}`),
        replyTo: row.uploaderEmail ?? undefined,
      });
    }
    if (row.receiptTo) {
      const rendered = await uploadReceipt(
        {
          locale: row.uploaderLocale,
          timeZone: row.uploaderTimeZone ?? undefined,
          productName: this.settings.productName,
          brand,
        },
        {
          ownerName: await this.ownerName(row.requestId),
          pointTitle: row.pointTitle,
          files: files.map((f) => ({ name: f.relativePath ?? f.name, size: f.size, sha256: f.sha256 })),
          totalSize: transfer.totalSize,
          receivedAt: this.now(),
        },
      );
      await this.mail.enqueue(outgoing(rendered, [row.receiptTo], `rcpt-up-${transferId}`));
    }
  }

  // --- helpers -------------------------------------------------------------------------------------------

  private async hit(key: string, rule: { limit: number; windowSeconds: number }, message?: string) {
    const hit = await this.limiter.hit(key, rule.limit, rule.windowSeconds);
    if (!hit.allowed) throw rateLimited(hit.retryAfterSeconds, message);
  }

  /**
   * As download passwords: per point and client, then per point from everywhere (which, once full, refuses every
   * password until the window ends, and tells the point's owner once); a right one clears the client's count.
   */
  private async checkPasswordOf(point: ResolvedPoint, password: string, ctx: ReceiveContext): Promise<void> {
    await new PasswordGuard(this.limiter, this.settings.limits.passwords, this.now).check(
      `rpw:${point.key}`,
      ctx.ip,
      () => this.passwords.verify(point.passwordHash!, password),
      async (info) => {
        const owner = point.owner.user;
        const rendered = await passwordGuessing(
          { locale: owner.locale, productName: this.settings.productName },
          {
            kind: point.kind,
            name: point.title,
            failures: info.failures,
            lockedUntil: info.lockedUntil,
          },
        );
        // Mail keys allow [A-Za-z0-9._-]: the point's key "r:<id>" becomes "r-<id>".
        const key = `rpwg-${point.key.replace(':', '-')}-${info.lockedUntil.getTime()}`;
        await this.mail.enqueue(outgoing(rendered, [owner.email], key));
      },
    );
  }

  /** Spec §5 names, then the point's allowed extensions (EXTENSION_NOT_AUTHORIZED when that is all that is wrong). */
  private checkNames(files: ReceiveUploadCreate['files'], allowed: string[]): void {
    const problems = fileNameProblems(files, allowed);
    if (problems.length === 0) return;
    const details = { files: problems, allowedExtensions: allowed };
    if (problems.every((p) => p.key === 'uploader:notif_extension_authorized'))
      throw new AppError(
        'EXTENSION_NOT_AUTHORIZED',
        `Only these file types are accepted here: ${allowed.join(', ')}.`,
        { details },
      );
    throw new AppError('INVALID_FILENAME', `${problems.length} file name(s) are not allowed.`, { details });
  }
}

function via(point: ResolvedPoint): string {
  if (point.request) return 'request';
  if (point.widget) return 'widget';
  return point.viaPush ? 'push' : 'inbox';
}

export function uniqueEmails(emails: string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const mailFiles = (files: TransferFileRecord[]) =>
  files.map((f) => ({ name: f.relativePath ?? f.name, size: f.size }));

export function outgoing(
  rendered: { subject: string; html: string; text: string },
  to: string[],
  idempotencyKey: string,
): OutgoingMail {
  return { to, subject: rendered.subject, html: rendered.html, text: rendered.text, idempotencyKey };
}
