import {
  addDays,
  CUSTOM_LINK_PROBLEM_MESSAGES,
  checkFileName,
  checkRelativePath,
  customLinkProblem,
  defaultTransferValidityDays,
  GB,
  isPayingPlan,
  type LimitError,
  PLAN_LIMITS,
  type PlanType,
  parseEventActor,
  type SenderVerificationResendResponse,
  type SenderVerificationResponse,
  TransferCreateRequest,
  type TransferCreateResponse,
  type TransferEventList,
  type TransferEventType,
  type TransferFile,
  TransferNotificationsUpdate,
  type TransferStatus,
  type TransferSummary,
  type TransferType,
  type UploaderSettings,
} from '@ferry/core';
import { newFileId, newTransferId } from '../lib/ids.js';
import { constantTimeEqual, randomToken, sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { TransferCustomizer } from './customization.service.js';
import type { LimitsService, SenderLimits } from './limits.service.js';
import { checkLinkPreviewAllowed } from './link-preview-rules.js';
import { NotificationService } from './notification.service.js';
import {
  CustomLinkTaken,
  type NewTransferEvent,
  type NewTransferFileRecord,
  type PasswordHasher,
  PendingUploadsExceeded,
  type RateLimiter,
  StorageQuotaExceeded,
  type TransferFileRecord,
  type TransferRecord,
  type TransferRepository,
} from './ports.js';
import type { SecurityLog } from './security-log.js';
import {
  type FilesArrivedListener,
  HELD_STATUSES,
  type HeldStatus,
  type TransferHold,
} from './transfer-holds.js';

/** Who is acting: an anonymous visitor (plan NONE) or a signed-in user with their plan. */
export interface Actor {
  userId: string | null;
  plan: PlanType;
  /**
   * How the history names who acts when it is neither a signed-in user nor an anonymous visitor: an uploader
   * through a receive page (`uploader:<typed address>` or `recipient:<address of the personal link>`), so that
   * every event of one upload names the same person.
   */
  recordedAs?: string;
  /** The signed-in user's (verified) address. */
  email?: string;
  /** The API token the call came with (the security log names a team token rather than its account). */
  tokenId?: string | null;
  /** The account's own limit settings (PUT /transfer/limits/{id}/by-user). */
  forcedFileValidityInDays?: number | null;
  forcedRegion?: string | null;
  disableSSEC?: boolean;
  /** Storage (GB) of the team's plan code, when it raises the plan type's (LimitsService.forSender). */
  storageGB?: number;
  /** A signed-in user's notification settings (spec §3), the defaults of their transfers' switches. */
  notificationDefaults?: {
    summary: boolean;
    expiryReminder: boolean;
    downloadConfirmation: boolean;
    downloadConfirmationS2: boolean;
  };
  ip?: string;
  /** Origin the links stored, mailed and handed back start with: PUBLIC_URL, else http://localhost:PORT. */
  origin: string;
  /** The owner's verified host the request came to (from Ferry's table of hosts), whose origin `origin` is. */
  host?: string | null;
}

export interface UploadStorage {
  /** Deletes a (partial or finished) upload so the file can be sent again. */
  discardUpload(uploadId: string): Promise<void>;
  uploadBlobKey(uploadId: string): string;
}

/** Where a signed-in sender's recipients are remembered (ContactsService); it never throws. */
export interface RecipientMemory {
  rememberRecipients(userId: string, emails: readonly string[]): Promise<void>;
}

/**
 * Uploads of files added to a transfer that went out already (the dashboard's "add files", FileAdditionService):
 * the same tus route, authorised by the addition's own upload token instead of the transfer's.
 */
export interface AddedFileUploads {
  /** Binds the upload of a file being added when `token` is its addition's; null when it is not (nothing done). */
  authorizeCreate(
    token: string | undefined,
    transferId: string,
    fileId: string,
    length: number,
  ): Promise<{ uploadId: string; size: number } | null>;
  /** Whether `token` is the upload token of the addition this file being added belongs to. */
  allows(token: string | undefined, transferId: string, fileId: string): Promise<boolean>;
  /** Records the finished upload of a file being added; false when no file is being added under that id. */
  uploaded(
    transferId: string,
    fileId: string,
    digest: { sha256: string; crc32: number; blobKey: string },
  ): Promise<boolean>;
}

/** Anonymous transfer creation, per client address (config `anonymous`). */
export interface AnonymousLimits {
  limiter: RateLimiter;
  transfersPerWindow: number;
  windowSeconds: number;
  maxPendingBytes: number;
}

const UPLOAD_ID = /^([A-Za-z0-9]{16})-([A-Za-z0-9]{6})$/;

export class TransferService {
  constructor(
    private readonly repo: TransferRepository,
    private readonly passwords: PasswordHasher,
    private readonly storage: UploadStorage,
    private readonly notifications: NotificationService,
    /** A signed-in sender's team limits (spec §4: a member is held to the manager's); none: the actor's own. */
    private readonly teamLimits: Pick<LimitsService, 'forSender'> | null = null,
    /** The address book: a signed-in sender's S1 recipients are saved as contacts (addressBookSettings.autoSave). */
    private readonly recipientMemory: RecipientMemory | null = null,
    /** Files added from the dashboard to a transfer that went out already: their uploads take the same route. */
    private readonly addedFiles: AddedFileUploads | null = null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private anonymousLimits: AnonymousLimits | null = null;
  private selling = false;
  private customizer: TransferCustomizer | null = null;

  /** Checks the spec §3 `customization` of new transfers (CustomizationService); without one it is refused. */
  customizeWith(customizer: TransferCustomizer): void {
    this.customizer = customizer;
  }

  /** Files may be sold (a price on S2 transfers) only when the server takes cards (STRIPE or PAYPAL). */
  allowSelling(enabled: boolean): void {
    this.selling = enabled;
  }

  private sseC = false;

  /** New transfers are stored with SSE-C (STORAGE=s3 with STORAGE_ENCRYPTION_KEY_FILE), unless disableSSEC. */
  storeWithSseC(enabled: boolean): void {
    this.sseC = enabled;
  }

  /** Whether a new transfer of a team with these limit settings is stored with SSE-C. */
  sseCFor(disableSSEC: boolean | undefined): boolean {
    return this.sseC && !disableSSEC;
  }

  private security: SecurityLog | null = null;

  /** A signed-in sender's transfers are written to their team's security log (transfer-created). */
  recordSecurity(log: SecurityLog): void {
    this.security = log;
  }

  /** Holds anonymous creation to a rate and a cap on unfinished declared bytes, per client address. */
  limitAnonymous(limits: AnonymousLimits): void {
    this.anonymousLimits = limits;
  }

  private checkSelling(type: TransferType, actor: { userId: string | null; plan: PlanType }): void {
    if (type !== 'S2')
      throw new AppError('VALIDATION_FAILED', 'Only transfers shared by link (S2) can be sold.', {
        details: { field: 'price' },
      });
    if (!actor.userId || actor.plan === 'NONE')
      throw new AppError('FORBIDDEN', 'Selling files needs a paid plan.', { details: { field: 'price' } });
    if (!this.selling)
      throw new AppError(
        'PAYMENT_PROVIDER_NOT_AVAILABLE',
        'This server does not take card payments, so files cannot be sold here.',
        { details: { field: 'price' } },
      );
  }

  async create(
    input: TransferCreateRequest,
    requested: Actor,
  ): Promise<TransferCreateResponse & { uploadToken: string }> {
    const request = TransferCreateRequest.parse(input);
    // Received transfers are made by an upload into a request or inbox (ReceiveService), never directly.
    if (request.type === 'S3')
      throw new AppError(
        'VALIDATION_FAILED',
        'Received transfers (S3) are made by uploading into a request or inbox.',
        {
          details: { field: 'type' },
        },
      );
    const actor = await this.withTeamLimits(requested);
    if (request.price) this.checkSelling(request.type, actor);
    const ogTitle = request.openGraph?.title || null;
    const ogDescription = request.openGraph?.description || null;
    if (ogTitle || ogDescription) checkLinkPreviewAllowed(actor.userId, actor.plan);
    if (request.customLink !== undefined) checkCustomLink(request.customLink, actor);
    if (actor.memberSettings) checkMemberSettings(request, actor.memberSettings);
    this.checkNames(request.files, actor.memberSettings?.sendAllowedExtensions);
    const customization = request.customization ? await this.customized(actor, request.customization) : null;
    const isS1 = request.type === 'S1';
    // A signed-in user sends as themselves unless they name another address.
    const senderEmail = request.senderEmail ?? actor.email ?? null;
    const recipients = uniqueEmails(request.recipients ?? []);
    if (isS1 && recipients.length === 0)
      throw new AppError('VALIDATION_FAILED', 'An e-mail transfer needs at least one recipient.', {
        details: { field: 'recipients' },
      });
    if (isS1 && !senderEmail)
      throw new AppError('VALIDATION_FAILED', 'An e-mail transfer needs your e-mail address.', {
        details: { field: 'senderEmail' },
      });
    if (!isS1 && recipients.length > 0)
      throw new AppError('VALIDATION_FAILED', 'Recipients are for transfers sent by e-mail (S1).', {
        details: { field: 'recipients' },
      });
    const defaults = actor.notificationDefaults;
    // Spec §3 notificationOpt off: a member does not choose the mails, the account's defaults apply.
    const chosen =
      actor.memberSettings && !actor.memberSettings.notificationOpt
        ? { ...request, downloadConfirmation: undefined, expiryReminder: undefined, summary: undefined }
        : request;
    const notify = {
      downloadConfirmation:
        chosen.downloadConfirmation ??
        (defaults ? (isS1 ? defaults.downloadConfirmation : defaults.downloadConfirmationS2) : isS1),
      expiryReminder: isS1 && (chosen.expiryReminder ?? defaults?.expiryReminder ?? true),
      summary: chosen.summary ?? (isS1 ? (defaults?.summary ?? true) : false),
      forceEmailWhenDownloadS2:
        request.type === 'S2' &&
        // Spec §5: enforced for managed users when their settings require it.
        (request.forceEmailWhenDownloadS2 || actor.memberSettings?.requireForceEmailWhenDownloadS2 === true),
    };
    if ((request.downloadConfirmation || request.summary) && !senderEmail)
      throw new AppError('VALIDATION_FAILED', 'Notifications to you need your e-mail address.', {
        details: { field: 'senderEmail' },
      });
    const limits = PLAN_LIMITS[actor.plan];
    const totalSize = request.files.reduce((sum, f) => sum + f.size, 0);
    // A forced validity (spec §3 limits) is the account's or its team's rule: it wins over the request.
    const validityDays =
      actor.forcedFileValidityInDays ??
      request.expiresInDays ??
      defaultTransferValidityDays(limits.fileValidityInDays);
    const availableFrom = this.windowStart(request.availableFrom, limits.fileValidityInDays);
    const broken: LimitError[] = [];
    if (request.files.length > limits.files)
      broken.push({ limit: 'files', max: limits.files, actual: request.files.length });
    if (totalSize > limits.uploadSizeGB * GB)
      broken.push({ limit: 'uploadSize', max: limits.uploadSizeGB * GB, actual: totalSize });
    const messageLength = Array.from(request.message ?? '').length;
    if (messageLength > limits.messageLength)
      broken.push({ limit: 'messageLength', max: limits.messageLength, actual: messageLength });
    if (validityDays > limits.fileValidityInDays) {
      broken.push({ limit: 'fileValidityInDays', max: limits.fileValidityInDays, actual: validityDays });
    }
    if (recipients.length > limits.recipients)
      broken.push({ limit: 'recipients', max: limits.recipients, actual: recipients.length });
    if (broken.length > 0)
      throw new AppError('LIMIT_EXCEEDED', 'The transfer exceeds the limits of your plan.', {
        limitErrors: broken,
      });
    const anonymous = await this.checkAnonymousRate(actor);

    const senderVerification =
      !senderEmail ||
      !this.notifications.needsVerification(
        { type: request.type, senderEmail, ...notify },
        actor.email ?? null,
      )
        ? ('not_needed' as const)
        : this.notifications.senderTokenProves(request.senderVerificationToken, senderEmail)
          ? ('verified' as const)
          : ('pending' as const);
    // Before anything is stored: an address or a client that asked for too many codes is refused now.
    if (senderVerification === 'pending' && senderEmail)
      await this.notifications.checkCodeAllowance(senderEmail, actor.ip);

    const id = newTransferId();
    const uploadToken = randomToken();
    const now = this.now();
    const files = newFileRows(id, request.files);
    const transfer = {
      id,
      type: request.type,
      status: 'UPLOADING' as const,
      name: request.name || null,
      message: request.message || null,
      passwordHash: request.password ? await this.passwords.hash(request.password) : null,
      uploadTokenHash: sha256Hex(uploadToken),
      ownerId: actor.userId,
      senderEmail,
      senderName: request.senderName || null,
      locale: request.locale ?? null,
      timeZone: request.timeZone ?? null,
      allowPreview: request.allowPreview,
      maxDownloads: request.maxDownloads ?? null,
      totalSize,
      fileCount: files.length,
      // The validity counts from the window's opening: recipients get the whole of it.
      expiresAt: addDays(availableFrom ?? now, validityDays),
      customLink: request.customLink ?? null,
      availableFrom,
      downloadConfirmation: notify.downloadConfirmation,
      expiryReminder: notify.expiryReminder,
      notifySummary: notify.summary,
      forceEmailWhenDownloadS2: notify.forceEmailWhenDownloadS2,
      senderVerification,
      origin: actor.origin,
      host: actor.host ?? null,
      storageRegion: actor.forcedRegion ?? null,
      sseC: this.sseCFor(actor.disableSSEC),
      priceAmount: request.price?.amount ?? null,
      priceCurrency: request.price?.currency ?? null,
      ogTitle,
      ogDescription,
      customization,
    };
    const who = actorName(actor);
    const events: NewTransferEvent[] = [
      { type: 'CREATED', actor: who, data: { type: request.type, files: files.length, totalSize } },
      ...recipients.map((email) => ({ type: 'RECIPIENT_ADDED' as const, actor: who, data: { email } })),
      ...(notify.downloadConfirmation
        ? [{ type: 'DOWNLOAD_CONFIRMATION_ENABLED' as const, actor: who }]
        : []),
      ...(notify.expiryReminder ? [{ type: 'EXPIRY_REMINDER_ENABLED' as const, actor: who }] : []),
      ...(notify.forceEmailWhenDownloadS2
        ? [{ type: 'FORCE_EMAIL_WHEN_DOWNLOAD_S2_ADDED' as const, actor: who }]
        : []),
    ];
    try {
      await this.repo.create(
        transfer,
        files,
        events,
        recipients.map((email) => ({
          email,
          secretHash: NotificationService.secretHash(this.notifications.recipientSecret(id, email)),
        })),
        actor.userId
          ? { teamId: actor.teamId ?? actor.userId, maxBytes: (actor.storageGB ?? limits.storageGB) * GB }
          : undefined,
        anonymous,
      );
    } catch (error) {
      if (error instanceof CustomLinkTaken)
        throw new AppError('CUSTOM_LINK_TAKEN', 'Another transfer already uses this custom link.', {
          details: { field: 'customLink', customLink: error.link },
        });
      if (error instanceof PendingUploadsExceeded)
        throw new AppError(
          'LIMIT_EXCEEDED',
          'Too many unfinished uploads from your address: finish one, or sign in to send more.',
          {
            limitErrors: [
              { limit: 'anonymousPendingBytes', max: error.max, actual: error.pending + totalSize },
            ],
          },
        );
      if (!(error instanceof StorageQuotaExceeded)) throw error;
      throw new AppError(
        'LIMIT_EXCEEDED',
        'Your storage is full: delete transfers or wait for some to expire.',
        {
          limitErrors: [{ limit: 'storage', max: error.max, actual: error.used + totalSize }],
        },
      );
    }
    if (actor.userId)
      await this.security?.record({
        userId: actor.userId,
        action: 'transfer-created',
        actorUserId: actor.userId,
        tokenId: actor.tokenId ?? null,
        ip: actor.ip ?? null,
        target: id,
        details: { type: transfer.type, files: files.length, bytes: totalSize },
      });
    // After the transfer is stored, outside its transaction: the address book never fails a send.
    if (isS1 && actor.userId && this.recipientMemory)
      await this.recipientMemory.rememberRecipients(actor.userId, recipients).catch(() => undefined);
    if (senderVerification === 'pending') {
      const stored = await this.repo.find(id);
      await this.notifications.sendCode(stored!, { resend: false, ip: actor.ip });
    }
    return {
      transferId: id,
      type: transfer.type,
      status: transfer.status,
      link: this.notifications.senderLink(transfer, actor.origin),
      expiresAt: transfer.expiresAt.toISOString(),
      customLink: transfer.customLink,
      availableFrom: availableFrom?.toISOString() ?? null,
      uploadToken,
      uploadEndpoint: '/api/transfer/uploads',
      files: files.map((f) => toFile({ ...f, createdAt: now })),
      senderVerification,
    };
  }

  /**
   * An anonymous creation counts against its client's rate (429 past it, before anything is stored) and gives
   * the cap on its unfinished declared bytes, which the repository checks with the insert.
   */
  private async checkAnonymousRate(
    actor: Actor,
  ): Promise<{ clientIp: string; maxPendingBytes: number } | undefined> {
    const limits = this.anonymousLimits;
    if (actor.userId || !actor.ip || !limits) return undefined;
    const hit = await limits.limiter.hit(
      `anon-create:${actor.ip}`,
      limits.transfersPerWindow,
      limits.windowSeconds,
    );
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many transfers from your address; wait a while or sign in.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
    return { clientIp: actor.ip, maxPendingBytes: limits.maxPendingBytes };
  }

  /** The sender's 6-digit code: when right, the transfer goes out (once uploaded). */
  async verifySender(
    transferId: string,
    token: string | undefined,
    code: string,
    actor: Actor,
  ): Promise<SenderVerificationResponse> {
    const transfer = await this.authorizedTransfer(transferId, token, true);
    const proof = await this.notifications.verify(transfer, code, actor.ip);
    const verified = (await this.repo.find(transferId))!;
    return { transfer: await this.summaryOf(verified, actor.origin), ...proof };
  }

  async resendSenderCode(
    transferId: string,
    token: string | undefined,
    actor: Actor,
  ): Promise<SenderVerificationResendResponse> {
    const transfer = await this.authorizedTransfer(transferId, token, true);
    return this.notifications.sendCode(transfer, { resend: true, ip: actor.ip });
  }

  /** Turns the transfer's notifications on or off; each change is an event. */
  async updateNotifications(
    transferId: string,
    token: string | undefined,
    input: TransferNotificationsUpdate,
    actor: Actor,
  ): Promise<TransferSummary> {
    const transfer = await this.authorizedTransfer(transferId, token, true);
    return this.summaryOf(await this.applyNotifications(transfer, input, actor), actor.origin);
  }

  /**
   * The switches of {@link updateNotifications} on a transfer the caller may change (upload token, or the
   * dashboard's owner or team manager); returns the transfer as it is now. `actor.email` is the account address
   * that needs no proof (the transfer owner's).
   */
  async applyNotifications(
    current: TransferRecord,
    input: TransferNotificationsUpdate,
    actor: Actor,
  ): Promise<TransferRecord> {
    const patch = TransferNotificationsUpdate.parse(input);
    const transferId = current.id;
    let transfer = current;
    if (patch.expiryReminder !== undefined && transfer.type !== 'S1' && patch.expiryReminder)
      throw new AppError(
        'VALIDATION_FAILED',
        'Expiry reminders go to the recipients of e-mail transfers (S1).',
      );
    if (patch.forceEmailWhenDownloadS2 && transfer.type !== 'S2')
      throw new AppError(
        'VALIDATION_FAILED',
        'Asking downloaders for their e-mail is for link transfers (S2).',
      );
    if (patch.downloadConfirmation && !transfer.senderEmail)
      throw new AppError('VALIDATION_FAILED', 'Download confirmations need your e-mail address.');
    const who = actorName(actor);
    const changes: Record<string, boolean> = {};
    const events: NewTransferEvent[] = [];
    const change = (
      column: 'download_confirmation' | 'expiry_reminder' | 'force_email_when_download_s2',
      current: boolean,
      wanted: boolean | undefined,
      on: TransferEventType,
      off: TransferEventType,
    ) => {
      if (wanted === undefined || wanted === current) return;
      changes[column] = wanted;
      events.push({ type: wanted ? on : off, actor: who });
    };
    change(
      'download_confirmation',
      transfer.downloadConfirmation,
      patch.downloadConfirmation,
      'DOWNLOAD_CONFIRMATION_ENABLED',
      'DOWNLOAD_CONFIRMATION_DISABLED',
    );
    change(
      'expiry_reminder',
      transfer.expiryReminder,
      patch.expiryReminder,
      'EXPIRY_REMINDER_ENABLED',
      'EXPIRY_REMINDER_DISABLED',
    );
    change(
      'force_email_when_download_s2',
      transfer.forceEmailWhenDownloadS2,
      patch.forceEmailWhenDownloadS2,
      'FORCE_EMAIL_WHEN_DOWNLOAD_S2_ADDED',
      'FORCE_EMAIL_WHEN_DOWNLOAD_S2_REMOVED',
    );
    await this.notifications.setNotifications(transferId, changes, events);
    transfer = (await this.repo.find(transferId))!;
    // Mails to an anonymous sender's address wait until they prove it.
    if (
      transfer.downloadConfirmation &&
      this.notifications.needsVerification(
        {
          type: transfer.type,
          senderEmail: transfer.senderEmail,
          downloadConfirmation: true,
          summary: transfer.notifySummary,
        },
        actor.email ?? null,
      ) &&
      (await this.notifications.requireVerification(transfer, actor.ip))
    )
      transfer = (await this.repo.find(transferId))!;
    return transfer;
  }

  /**
   * The availability window's start of a new transfer: null when none is asked or the moment is not ahead (it
   * opens once uploaded); at most the plan's validity ahead, so files are never kept waiting longer than they
   * would be kept available.
   */
  private windowStart(wanted: string | undefined, validityLimitDays: number): Date | null {
    if (!wanted) return null;
    const at = new Date(wanted);
    const now = this.now();
    if (at.getTime() <= now.getTime()) return null;
    const latest = addDays(now, validityLimitDays);
    if (at > latest)
      throw new AppError(
        'VALIDATION_FAILED',
        `A transfer can open at most ${validityLimitDays} days ahead on your plan.`,
        { details: { field: 'availableFrom', latest: latest.toISOString() } },
      );
    return at;
  }

  /** Checks a tus creation request: right token, a file of this transfer still to upload, the declared size. */
  async authorizeUploadCreate(
    token: string | undefined,
    meta: { transferId?: string; fileId?: string },
    length: number,
  ) {
    if (!meta.transferId || !meta.fileId)
      throw new AppError('VALIDATION_FAILED', 'Upload-Metadata needs transferId and fileId.');
    // The transfer and its file in one look-up; a file added later to a sent transfer (its addition's own token)
    // is asked for only when the transfer's own files and token do not answer.
    const found = await this.repo.findWithFile(meta.transferId, meta.fileId);
    if (!found?.file || !this.holdsUploadToken(found.transfer, token)) {
      const added = await this.addedFiles?.authorizeCreate(token, meta.transferId, meta.fileId, length);
      if (added) return added;
    }
    const transfer = this.uploading(found?.transfer ?? null, token);
    const file = found?.file;
    if (!file) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
    if (file.uploadedAt) throw new AppError('CONFLICT', 'This file is already uploaded.');
    if (length !== file.size) {
      throw new AppError(
        'VALIDATION_FAILED',
        `Upload-Length ${length} differs from the declared size ${file.size}.`,
      );
    }
    const uploadId = `${transfer.id}-${file.id}`;
    if (!(await this.repo.bindUpload(transfer.id, file.id, uploadId)))
      throw new AppError('CONFLICT', 'This file is already being uploaded.');
    return { uploadId, size: file.size };
  }

  /** Checks every later tus request (HEAD, PATCH, DELETE) against the transfer's upload token. */
  async authorizeUploadRequest(token: string | undefined, uploadId: string): Promise<void> {
    const match = UPLOAD_ID.exec(uploadId);
    if (!match) throw new AppError('NOT_FOUND', 'Unknown upload.');
    const transfer = await this.repo.find(match[1]!);
    if (transfer && this.holdsUploadToken(transfer, token) && transfer.status === 'UPLOADING') return;
    if (await this.addedFiles?.allows(token, match[1]!, match[2]!)) return;
    this.uploading(transfer, token);
  }

  async uploadFinished(uploadId: string, digest: { sha256: string; crc32: number }): Promise<void> {
    const match = UPLOAD_ID.exec(uploadId);
    if (!match) throw new AppError('NOT_FOUND', 'Unknown upload.');
    const finished = { ...digest, blobKey: this.storage.uploadBlobKey(uploadId) };
    if (await this.repo.markFileUploaded(match[1]!, match[2]!, finished)) return;
    await this.addedFiles?.uploaded(match[1]!, match[2]!, finished);
  }

  async uploadState(transferId: string, token: string | undefined, origin: string): Promise<TransferSummary> {
    const transfer = await this.authorizedTransfer(transferId, token, true);
    return this.summaryOf(transfer, origin);
  }

  /**
   * The transfer's history (spec §3 events), oldest first, for whoever holds its upload token or owns it.
   * Anyone else learns nothing, not even that it exists.
   */
  async history(transferId: string, token: string | undefined, actor: Actor): Promise<TransferEventList> {
    const transfer = await this.repo.find(transferId);
    const owner = transfer !== null && actor.userId !== null && transfer.ownerId === actor.userId;
    const holder =
      transfer !== null &&
      token !== undefined &&
      constantTimeEqual(sha256Hex(token), transfer.uploadTokenHash);
    if (!transfer || !(owner || holder))
      throw new AppError('TRANSFER_NOT_FOUND', 'Unknown transfer, or not yours to read.');
    const events = await this.repo.events(transferId);
    return {
      transferId,
      events: events.map((e) => ({
        type: e.type,
        at: e.createdAt.toISOString(),
        actor: parseEventActor(e.actor),
        data: e.data ?? {},
      })),
    };
  }

  /** Verifies every file arrived and matches the client's own hash, then makes the transfer available. */
  async complete(
    transferId: string,
    token: string | undefined,
    clientFiles: Array<{ id: string; sha256?: string }>,
    actor: Actor,
  ) {
    const before = await this.authorizedTransfer(transferId, token, true);
    // The holds are asked before the row lock is taken: they read through their own connections, which racing
    // completes waiting on the lock could have taken all of (the pool exhausted, nobody moving). Their answer
    // depends on this transfer alone and their writes are once per transfer, so a racing call asks the same.
    const arrived = before.status === 'UPLOADING' ? await this.repo.files(transferId) : [];
    const held =
      arrived.length > 0 && arrived.every((f) => f.uploadedAt)
        ? await this.heldStatus(before, arrived, 'uploaded')
        : null;
    // Under the transfer's row lock: racing completes see each other's resets and enables, so a transfer can
    // never be enabled while one of its files is being reset.
    const outcome = await this.repo.withTransferLock(transferId, async (repo) => {
      const transfer = (await repo.find(transferId))!;
      const files = await repo.files(transferId);
      if (transfer.status !== 'UPLOADING') return { transfer, files, mismatched: [] as ChecksumMismatch[] };
      assertAllUploaded(files);
      const mismatched = checksumMismatches(files, clientFiles);
      if (mismatched.length > 0) {
        for (const m of mismatched) await repo.resetFile(transferId, m.id);
        return { transfer, files, mismatched };
      }
      const uploaded: NewTransferEvent = {
        type: 'UPLOADED',
        actor: actorName(actor),
        data: { files: files.length, totalSize: transfer.totalSize },
      };
      if (held) {
        await repo.hold(transferId, held, [uploaded], ['UPLOADING']);
        return { transfer: { ...transfer, status: held }, files, mismatched, arrived: true };
      }
      await repo.enable(transferId, [uploaded, availableEvent(transfer)]);
      return {
        transfer: { ...transfer, status: 'ENABLED' as const },
        files,
        mismatched,
        enabled: true,
        arrived: true,
      };
    });
    let transfer = outcome.transfer;
    let enabled = 'enabled' in outcome;
    if (enabled) {
      // A hold that began after the holds were asked (an operator holding the upload meanwhile) is seen here, after
      // the enable committed: the transfer is held before anything goes out. A hold begun after this is the hold of
      // an enabled transfer, which its holder applies itself.
      const late = await this.heldStatus(transfer, outcome.files, 'recheck');
      if (late && (await this.repo.hold(transferId, late, [], ['ENABLED']))) {
        transfer = { ...transfer, status: late };
        enabled = false;
      }
    }
    if ('arrived' in outcome) await this.filesArrived(transfer, outcome.files);
    if (outcome.mismatched.length > 0) {
      // The rows are reset (committed); now the bytes, outside the lock.
      for (const m of outcome.mismatched) if (m.uploadId) await this.storage.discardUpload(m.uploadId);
      throw checksumMismatchError(outcome.mismatched);
    }
    if (enabled && transfer.senderVerification !== 'pending')
      await this.notifications.transferReady(transferId);
    return this.summary(
      transfer,
      outcome.files,
      actor.origin,
      await this.notifications.recipientStatuses(transfer),
    );
  }

  private readonly holds: TransferHold[] = [];
  private readonly arrivals: FilesArrivedListener[] = [];

  /** Adds a hold asked, in order, whether a transfer whose files all arrived may go out (transfer-holds.ts). */
  addHold(hold: TransferHold): void {
    this.holds.push(hold);
  }

  /** Adds a listener told whenever a transfer's files have arrived (scans and thumbnails start there). */
  onFilesArrived(listener: FilesArrivedListener): void {
    this.arrivals.push(listener);
  }

  /** Tells the listeners that files of a transfer arrived: at completion here; clones and added files call it too. */
  async filesArrived(transfer: TransferRecord, files: TransferFileRecord[]): Promise<void> {
    for (const listener of this.arrivals) await listener.filesArrived(transfer, files);
  }

  private async heldStatus(
    transfer: TransferRecord,
    files: TransferFileRecord[],
    phase: 'uploaded' | 'recheck',
  ): Promise<HeldStatus | null> {
    for (const hold of this.holds) {
      const status = await hold.statusFor(transfer, files, phase);
      if (status) return status;
    }
    return null;
  }

  /**
   * A hold on a transfer ended (its files were scanned, an operator released it): asks the holds again, moves the
   * transfer to the next held status or to ENABLED, and sends it out if it went out never before. Returns the
   * status it is in now; a transfer that is not held is left as it is.
   */
  async releaseHeld(transferId: string, actor = 'system'): Promise<TransferStatus | null> {
    // The holds are asked outside the row lock (see complete); the move is made under it only if the status is
    // still the one they were asked about, else they are asked again.
    for (;;) {
      const transfer = await this.repo.find(transferId);
      if (!transfer) return null;
      if (!(HELD_STATUSES as readonly TransferStatus[]).includes(transfer.status)) return transfer.status;
      const held = await this.heldStatus(transfer, await this.repo.files(transferId), 'recheck');
      const outcome = await this.repo.withTransferLock(transferId, async (repo) => {
        const current = await repo.find(transferId);
        if (current?.status !== transfer.status) return null;
        if (held) {
          if (held !== current.status) await repo.hold(transferId, held, [], [current.status]);
          return { status: held, enabled: false, transfer: current };
        }
        await repo.enable(transferId, [{ ...availableEvent(current), actor }], [current.status]);
        return { status: 'ENABLED' as const, enabled: true, transfer: current };
      });
      if (!outcome) continue;
      if (outcome.enabled && outcome.transfer.senderVerification !== 'pending' && !outcome.transfer.sentAt)
        await this.notifications.transferReady(transferId);
      return outcome.status;
    }
  }

  private async authorizedTransfer(
    transferId: string,
    token: string | undefined,
    allowFinished = false,
  ): Promise<TransferRecord> {
    return this.uploading(await this.repo.find(transferId), token, allowFinished);
  }

  private holdsUploadToken(transfer: TransferRecord, token: string | undefined): boolean {
    return token !== undefined && constantTimeEqual(sha256Hex(token), transfer.uploadTokenHash);
  }

  /** The transfer when the token is its upload token (and, unless `allowFinished`, it is still UPLOADING). */
  private uploading(transfer: TransferRecord | null, token: string | undefined, allowFinished = false) {
    if (!transfer || !this.holdsUploadToken(transfer, token)) {
      throw new AppError('TRANSFER_NOT_FOUND', 'Unknown transfer or wrong upload token.');
    }
    if (!allowFinished && transfer.status !== 'UPLOADING') {
      throw new AppError('TRANSFER_NOT_UPLOADING', 'This transfer no longer accepts uploads.');
    }
    return transfer;
  }

  /** A signed-in sender is held to their team's plan and settings and shares its storage (LimitsService). */
  private async withTeamLimits(
    actor: Actor,
  ): Promise<Actor & { teamId: string | null; memberSettings: SenderLimits['memberSettings'] }> {
    const team = actor.userId && this.teamLimits ? await this.teamLimits.forSender(actor.userId) : null;
    return team ? { ...actor, ...team } : { ...actor, teamId: actor.userId, memberSettings: null };
  }

  private async customized(
    actor: Actor & { teamId: string | null; memberSettings: SenderLimits['memberSettings'] },
    input: NonNullable<TransferCreateRequest['customization']>,
  ): Promise<Record<string, unknown>> {
    if (!this.customizer)
      throw new AppError('FORBIDDEN', 'Download pages cannot be customized here.', {
        details: { field: 'customization' },
      });
    return this.customizer.check(
      { userId: actor.userId, plan: actor.plan, teamId: actor.teamId, memberSettings: actor.memberSettings },
      input,
    );
  }

  private checkNames(files: TransferCreateRequest['files'], allowedExtensions?: readonly string[]): void {
    const problems = fileNameProblems(files, allowedExtensions);
    if (problems.length > 0) {
      throw new AppError('INVALID_FILENAME', `${problems.length} file name(s) are not allowed.`, {
        details: { files: problems },
      });
    }
  }

  private async summaryOf(transfer: TransferRecord, origin: string): Promise<TransferSummary> {
    return this.summary(
      transfer,
      await this.repo.files(transfer.id),
      origin,
      await this.notifications.recipientStatuses(transfer),
    );
  }

  summary(
    transfer: TransferRecord,
    files: TransferFileRecord[],
    origin: string,
    recipients: TransferSummary['recipients'],
  ): TransferSummary {
    return {
      transferId: transfer.id,
      type: transfer.type,
      status: transfer.status,
      name: transfer.name,
      link: this.notifications.senderLink(transfer, origin),
      customLink: transfer.customLink ?? null,
      availableFrom: transfer.availableFrom?.toISOString() ?? null,
      expiresAt: transfer.expiresAt.toISOString(),
      totalSize: transfer.totalSize,
      files: files.map(toFile),
      senderEmail: transfer.senderEmail,
      senderVerification: transfer.senderVerification,
      sentAt: transfer.sentAt ? transfer.sentAt.toISOString() : null,
      recipients,
      notifications: {
        downloadConfirmation: transfer.downloadConfirmation,
        expiryReminder: transfer.expiryReminder,
        summary: transfer.notifySummary,
        forceEmailWhenDownloadS2: transfer.forceEmailWhenDownloadS2,
      },
    };
  }
}

/**
 * A custom link breaking the rule (core customLinkProblem) is refused with the reason in words (400); custom links
 * are for paying plans (the team's plan for a member): anyone else hears why (403).
 */
function checkCustomLink(link: string, actor: { userId: string | null; plan: PlanType }): void {
  const problem = customLinkProblem(link);
  if (problem)
    throw new AppError('VALIDATION_FAILED', CUSTOM_LINK_PROBLEM_MESSAGES[problem], {
      details: { field: 'customLink', problem },
    });
  if (!actor.userId || !isPayingPlan(actor.plan))
    throw new AppError('FORBIDDEN', 'Custom links come with a paid plan (Premium, Team or Enterprise).', {
      details: { field: 'customLink' },
    });
}

/** The AVAILABLE event: the transfer can be downloaded, until its expiry. */
function availableEvent(transfer: TransferRecord): NewTransferEvent {
  return { type: 'AVAILABLE', actor: 'system', data: { expiresAt: transfer.expiresAt.toISOString() } };
}

/** Addresses in the order given, without repeats (compared case-insensitively). */
function uniqueEmails(emails: string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The link recipients open: {origin}/dl/{transferId} (spec §1), or {origin}/dl/{customLink} when given one. */
export function downloadLink(origin: string, transferId: string, customLink?: string | null): string {
  return `${origin}/dl/${customLink ?? transferId}`;
}

export function toFile(f: Omit<TransferFileRecord, 'scanStatus'>): TransferFile {
  return {
    id: f.id,
    name: f.name,
    relativePath: f.relativePath,
    size: f.size,
    sha256: f.sha256,
    uploaded: f.uploadedAt !== null,
  };
}

/** A file whose bytes on the server are not those the client hashed. */
export interface ChecksumMismatch {
  id: string;
  name: string;
  expected: string;
  actual: string | null;
  uploadId: string | null;
}

/** UPLOAD_INCOMPLETE (details.files: their ids) while a file has not arrived in full. */
export function assertAllUploaded(files: ReadonlyArray<Pick<TransferFileRecord, 'id' | 'uploadedAt'>>): void {
  const missing = files.filter((f) => !f.uploadedAt).map((f) => f.id);
  if (missing.length > 0) {
    throw new AppError('UPLOAD_INCOMPLETE', `${missing.length} file(s) are not uploaded yet.`, {
      details: { files: missing },
    });
  }
}

/** The files whose SHA-256 as the client computed it differs from the server's (unhashed ones are not compared). */
export function checksumMismatches(
  files: ReadonlyArray<Pick<TransferFileRecord, 'id' | 'name' | 'sha256' | 'uploadId'>>,
  clientFiles: ReadonlyArray<{ id: string; sha256?: string }>,
): ChecksumMismatch[] {
  const byId = new Map(files.map((f) => [f.id, f]));
  const mismatched: ChecksumMismatch[] = [];
  for (const c of clientFiles) {
    const f = byId.get(c.id);
    if (f && c.sha256 && c.sha256 !== f.sha256)
      mismatched.push({
        id: f.id,
        name: f.name,
        expected: c.sha256,
        actual: f.sha256,
        uploadId: f.uploadId,
      });
  }
  return mismatched;
}

/** CHECKSUM_MISMATCH with the files to upload again (their upload ids stay on the server). */
export function checksumMismatchError(mismatched: readonly ChecksumMismatch[]): AppError {
  return new AppError(
    'CHECKSUM_MISMATCH',
    'The server received different bytes than were sent; upload those files again.',
    { details: { files: mismatched.map(({ uploadId: _, ...m }) => m) } },
  );
}

export function actorName(actor: Actor): string {
  if (actor.recordedAs) return actor.recordedAs;
  return actor.userId ? `user:${actor.userId}` : 'anonymous';
}

/**
 * What a team's manager lets members do (spec §3 uploaderSettings, §4, §6), enforced here so that no client
 * can get around it: the transfer types allowed, a password required or not offered, download limits and
 * previews only where offered. Each refusal says which setting, in `details.setting`.
 */
export function checkMemberSettings(request: TransferCreateRequest, settings: UploaderSettings): void {
  const refuse = (
    setting: keyof UploaderSettings,
    message: string,
    status: 'FORBIDDEN' | 'VALIDATION_FAILED',
  ) => {
    throw new AppError(status, message, { details: { setting } });
  };
  if (request.type === 'S1' && !settings.allowS1)
    refuse('allowS1', 'Your team sends by link only: sending by e-mail is turned off.', 'FORBIDDEN');
  if (request.type === 'S2' && !settings.allowS2)
    refuse('allowS2', 'Your team sends by e-mail only: links are turned off.', 'FORBIDDEN');
  if (settings.requirePassword && !request.password)
    refuse('requirePassword', 'Your team requires a password on every transfer.', 'VALIDATION_FAILED');
  if (request.password && !settings.passwordOpt && !settings.requirePassword)
    refuse('passwordOpt', 'Your team does not use passwords on transfers.', 'FORBIDDEN');
  if (request.maxDownloads !== undefined && !settings.downloadLimitOpt)
    refuse('downloadLimitOpt', 'Your team does not limit downloads.', 'FORBIDDEN');
  if (request.allowPreview === false && !settings.filePreviewOpt)
    refuse(
      'filePreviewOpt',
      'Your team decides about previews: they cannot be turned off here.',
      'FORBIDDEN',
    );
}

/** A file name refused by spec §5 (or an allowed-extension list), with the i18n key of its notice. */
export interface FileNameRefusal {
  name: string;
  key: string;
  extensions?: string[];
}

/** Every file whose name (or folder path) breaks spec §5 or is not in `allowedExtensions` (when non-empty). */
export function fileNameProblems(
  files: ReadonlyArray<{ name: string; relativePath?: string }>,
  allowedExtensions?: readonly string[],
): FileNameRefusal[] {
  const problems: FileNameRefusal[] = [];
  for (const f of files) {
    const problem =
      checkFileName(f.name, {
        allowedExtensions: allowedExtensions ? [...allowedExtensions] : undefined,
      }) ??
      (f.relativePath !== undefined
        ? (checkRelativePath(f.relativePath) ??
          (f.relativePath === f.name || f.relativePath.endsWith(`/${f.name}`)
            ? null
            : { key: 'uploader:notif_invalid_filename' as const }))
        : null);
    if (problem)
      problems.push({
        name: f.relativePath ?? f.name,
        key: problem.key,
        ...('extensions' in problem && problem.extensions ? { extensions: problem.extensions } : {}),
      });
  }
  return problems;
}

/** The rows of a new transfer's files, in the order given, each with its own random id. */
export function newFileRows(
  transferId: string,
  files: ReadonlyArray<{ name: string; size: number; relativePath?: string }>,
): NewTransferFileRecord[] {
  const usedIds = new Set<string>();
  return files.map((f, position) => {
    let fileId = newFileId();
    while (usedIds.has(fileId)) fileId = newFileId();
    usedIds.add(fileId);
    return {
      transferId,
      id: fileId,
      position,
      name: f.name,
      relativePath: f.relativePath ?? null,
      size: f.size,
      sha256: null,
      crc32: null,
      uploadId: null,
      blobKey: null,
      uploadedAt: null,
    };
  });
}
