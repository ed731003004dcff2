import {
  addDays,
  checkFileName,
  defaultTransferValidityDays,
  GB,
  type LimitError,
  PLAN_LIMITS,
  TransferCloneRequest,
  type TransferDetail,
  type TransferStatus,
  type TransferType,
  transferStatusLabel,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { DashboardRepository } from '../db/dashboard.repository.js';
import type { PgCloneRepository } from '../db/dashboard-clone.repository.js';
import { newTransferId } from '../lib/ids.js';
import { randomToken, sha256Hex } from '../security/secrets.js';
import { BlobMissingError, type Storage } from '../storage/blob-store.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { DashboardService } from './dashboard.service.js';
import { actor, type DashboardAccess, type DashboardContext, isLive } from './dashboard-access.js';
import { expiryFrom } from './dashboard-view.js';
import type { LimitsService } from './limits.service.js';
import { type JobSender, NotificationService } from './notification.service.js';
import {
  type NewTransferEvent,
  type PasswordHasher,
  StorageQuotaExceeded,
  type TransferFileRecord,
  type TransferRecord,
  type TransferRepository,
} from './ports.js';
import { checkMemberSettings } from './transfer.service.js';

/** The queue of clone copies: one job per clone, retried with backoff; any instance works it. */
export const TRANSFER_CLONE = 'transfer.clone';

export interface CloneJob {
  transferId: string;
}

/** A clone still CLONING after this long has lost its job (a crash between its commit and its enqueue). */
const STUCK_AFTER_MS = 10 * 60_000;
/** Statuses a transfer can be cloned from: sent, whether or not it is enabled. */
const CLONEABLE: readonly TransferStatus[] = ['ENABLED', 'DISABLED', 'PENDING', 'SCANNING'];

/**
 * Cloning (the dashboard's "clone"): a new transfer with the source's files, held to the caller's plan as any new
 * transfer, in status CLONING while a pg-boss job copies the files — inside the storage, never through Ferry, and
 * without storing them twice where the storage allows (Storage.copyUpload: hard links on disk, server-side copies on
 * S3). The job is idempotent: after a crash it resumes with the files not copied yet. Then the clone is ENABLED
 * (AVAILABLE) and goes out as any transfer (S1 recipients mailed). CLONED is recorded on both transfers.
 */
export class TransferCloneService {
  constructor(
    private readonly repo: PgCloneRepository,
    private readonly dashboard: Pick<DashboardRepository, 'recipientEmails'>,
    private readonly transfers: TransferRepository,
    private readonly access: DashboardAccess,
    private readonly reader: Pick<DashboardService, 'detailOf'>,
    private readonly limits: Pick<LimitsService, 'forSender'>,
    private readonly notifications: NotificationService,
    private readonly passwords: PasswordHasher,
    private readonly storage: Pick<Storage, 'copyUpload' | 'uploadBlobKey'>,
    private readonly jobs: JobSender,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST …/clone → the new transfer's detail (status CLONING; the copy runs in the background). */
  async clone(
    auth: Authenticated | null,
    sourceId: string,
    input: TransferCloneRequest,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const request = TransferCloneRequest.parse(input);
    const { transfer: source, caller } = await this.access.check(auth, sourceId);
    const now = this.now();
    if (source.status === 'UPLOADING' || source.status === 'CLONING')
      throw new AppError('CONFLICT', 'This transfer is still being uploaded: clone it once it is sent.', {
        details: { status: source.status },
      });
    // A copy of a transfer under review would go out without the review: it waits for the operator's decision.
    if (source.status === 'MODERATING')
      throw new AppError('CONFLICT', 'This transfer is pending: it can be cloned once it is enabled again.', {
        details: { status: source.status },
      });
    if (!CLONEABLE.includes(source.status) || !isLive(source, now))
      throw new AppError(
        'CONFLICT',
        `A transfer that is ${source.status === 'DELETED' || source.status === 'RETAINED' ? transferStatusLabel(source.status) : 'expired'} cannot be cloned: its files are gone.`,
        { details: { status: source.status } },
      );
    const files = (await this.transfers.files(sourceId)).filter((f) => f.uploadedAt && f.blobKey);
    if (files.length === 0) throw new AppError('CONFLICT', 'This transfer has no file to clone.');

    // The clone is the caller's new transfer: their plan, their team's settings and storage, their address.
    const team = await this.limits.forSender(caller.id);
    const plan = team?.plan ?? caller.planType;
    const limits = PLAN_LIMITS[plan];
    const type: TransferType = request.type ?? (source.type === 'S1' ? 'S1' : 'S2');
    const recipients = uniqueEmails(
      type === 'S1'
        ? (request.recipients ??
            (source.type === 'S1'
              ? (await this.dashboard.recipientEmails(sourceId)).map((r) => r.email)
              : []))
        : (request.recipients ?? []),
    );
    if (type === 'S1' && recipients.length === 0)
      throw new AppError('VALIDATION_FAILED', 'An e-mail transfer needs at least one recipient.', {
        details: { field: 'recipients' },
      });
    if (type !== 'S1' && recipients.length > 0)
      throw new AppError('VALIDATION_FAILED', 'Recipients are for transfers sent by e-mail (S1).', {
        details: { field: 'recipients' },
      });
    const name = request.name === undefined ? source.name : request.name || null;
    const message = request.message === undefined ? source.message : request.message || null;
    const maxDownloads = request.maxDownloads === undefined ? source.maxDownloads : request.maxDownloads;
    const allowPreview = request.allowPreview ?? source.allowPreview;
    const keepsPassword = request.password === undefined && source.passwordHash !== null;
    const settings = team?.memberSettings;
    if (settings)
      checkMemberSettings(
        {
          type,
          files: [],
          // The check asks whether there is a password, not what it is: the source's kept one counts.
          password: request.password ?? (keepsPassword ? 'kept' : undefined),
          maxDownloads: maxDownloads ?? undefined,
          allowPreview,
        },
        settings,
      );
    const refused = files
      .map((f) => ({
        name: f.name,
        problem: checkFileName(f.name, { allowedExtensions: settings?.sendAllowedExtensions }),
      }))
      .filter((f) => f.problem);
    if (refused.length > 0)
      throw new AppError('INVALID_FILENAME', `${refused.length} file name(s) are not allowed.`, {
        details: { files: refused.map((f) => ({ name: f.name, ...f.problem })) },
      });

    const totalSize = files.reduce((sum, f) => sum + f.size, 0);
    const broken: LimitError[] = [];
    if (files.length > limits.files) broken.push({ limit: 'files', max: limits.files, actual: files.length });
    if (totalSize > limits.uploadSizeGB * GB)
      broken.push({ limit: 'uploadSize', max: limits.uploadSizeGB * GB, actual: totalSize });
    const messageLength = Array.from(message ?? '').length;
    if (messageLength > limits.messageLength)
      broken.push({ limit: 'messageLength', max: limits.messageLength, actual: messageLength });
    if (recipients.length > limits.recipients)
      broken.push({ limit: 'recipients', max: limits.recipients, actual: recipients.length });
    const expiresAt = this.expiry(request.expiresAt, team?.forcedFileValidityInDays ?? null, limits, broken);
    if (broken.length > 0)
      throw new AppError('LIMIT_EXCEEDED', 'The clone exceeds the limits of your plan.', {
        limitErrors: broken,
      });

    const id = newTransferId();
    const who = actor(caller);
    const sameType = type === source.type;
    const notify = {
      downloadConfirmation: source.downloadConfirmation,
      expiryReminder: type === 'S1' && (sameType ? source.expiryReminder : true),
      notifySummary: type === 'S1' && (sameType ? source.notifySummary : true),
      forceEmailWhenDownloadS2:
        type === 'S2' &&
        ((sameType && source.forceEmailWhenDownloadS2) || settings?.requireForceEmailWhenDownloadS2 === true),
    };
    const events: NewTransferEvent[] = [
      { type: 'CREATED', actor: who, data: { type, files: files.length, totalSize } },
      { type: 'CLONED', actor: who, data: { sourceId } },
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
      await this.repo.create({
        transfer: {
          id,
          type,
          status: 'CLONING',
          name,
          message,
          passwordHash: keepsPassword
            ? source.passwordHash
            : request.password
              ? await this.passwords.hash(request.password)
              : null,
          // Nobody holds it: a clone is never uploaded to.
          uploadTokenHash: sha256Hex(randomToken()),
          ownerId: caller.id,
          senderEmail: caller.email,
          senderName: caller.id === source.ownerId ? source.senderName : null,
          locale: source.locale,
          timeZone: source.timeZone,
          allowPreview,
          maxDownloads,
          totalSize,
          fileCount: files.length,
          expiresAt,
          ...notify,
          // The caller's own, signed-in address: nothing to prove.
          senderVerification: 'not_needed',
          origin: ctx.origin,
          // The bytes are copied where the source's are.
          storageRegion: source.storageRegion,
          // Copied under the clone's own SSE-C key where the source has one (CopyObject re-encrypts).
          sseC: source.sseC,
          // A clone of a priced transfer is sold at the same price; its buyers buy the clone anew.
          priceAmount: type === 'S2' ? source.priceAmount : null,
          priceCurrency: type === 'S2' ? source.priceCurrency : null,
        },
        // Same ids, names, folders, sizes and hashes; each gets its own upload id, and bytes when copied.
        files: files.map((f) => ({
          transferId: id,
          id: f.id,
          position: f.position,
          name: f.name,
          relativePath: f.relativePath,
          size: f.size,
          sha256: f.sha256,
          crc32: f.crc32,
          uploadId: `${id}-${f.id}`,
          blobKey: null,
          uploadedAt: null,
          // The same bytes: the source's scan verdict holds (a pending one is scanned for the clone too, and so is
          // one never scanned, when it can be).
          scanStatus:
            f.scanStatus === 'not-scanned' && this.scanUpTo !== null && f.size <= this.scanUpTo
              ? 'pending'
              : f.scanStatus,
        })),
        events,
        recipients: recipients.map((email) => ({
          email,
          secretHash: NotificationService.secretHash(this.notifications.recipientSecret(id, email)),
        })),
        quota: { teamId: team?.teamId ?? caller.id, maxBytes: (team?.storageGB ?? limits.storageGB) * GB },
        sourceId,
        sourceEvent: { type: 'CLONED', actor: who, data: { cloneId: id } },
      });
    } catch (error) {
      if (!(error instanceof StorageQuotaExceeded)) throw error;
      throw new AppError(
        'LIMIT_EXCEEDED',
        'Your storage is full: delete transfers or wait for some to expire.',
        {
          limitErrors: [{ limit: 'storage', max: error.max, actual: error.used + totalSize }],
        },
      );
    }
    // A crash before this line leaves the clone CLONING: the hourly sweep queues it again.
    await this.jobs.send<CloneJob>(TRANSFER_CLONE, { transferId: id }, { singletonKey: id });
    return this.reader.detailOf((await this.transfers.find(id))!, ctx.origin);
  }

  /**
   * The clone job: copies each file not copied yet (a retry or a second run finds the others done), then enables
   * the clone and sends it out. A file whose source was deleted meanwhile is left out; a clone left with no file
   * is deleted.
   */
  async copyFiles(cloneId: string): Promise<'enabled' | 'deleted' | 'not_cloning'> {
    const clone = await this.transfers.find(cloneId);
    if (clone?.status !== 'CLONING') return 'not_cloning';
    const sourceId = await this.repo.sourceOf(cloneId);
    await this.repo.touch(cloneId);
    const gone: TransferFileRecord[] = [];
    for (const file of await this.transfers.files(cloneId)) {
      if (file.uploadedAt) continue;
      const source = sourceId ? await this.transfers.file(sourceId, file.id) : null;
      if (!source?.blobKey || !source.sha256 || source.crc32 === null || !file.uploadId) {
        gone.push(file);
        continue;
      }
      try {
        await this.storage.copyUpload(source.blobKey, file.uploadId);
      } catch (error) {
        if (!(error instanceof BlobMissingError)) throw error;
        gone.push(file);
        continue;
      }
      await this.transfers.markFileUploaded(cloneId, file.id, {
        sha256: source.sha256,
        crc32: source.crc32,
        blobKey: this.storage.uploadBlobKey(file.uploadId),
      });
    }
    const left = (await this.transfers.files(cloneId)).length - gone.length;
    const dropped = gone.map((f) => ({ id: f.id, size: f.size }));
    const missing = gone.map((f) => f.relativePath ?? f.name);
    if (left === 0) {
      await this.repo.finish(cloneId, dropped, 'DELETED', [
        { type: 'EXPIRED', actor: 'system', data: { reason: 'clone_source_gone', files: 0, bytes: 0 } },
      ]);
      this.logger.warn({ cloneId, sourceId }, 'clone deleted: the files of its source are gone');
      return 'deleted';
    }
    const fresh = (await this.transfers.find(cloneId))!;
    const enabled = await this.repo.finish(cloneId, dropped, 'ENABLED', [
      {
        type: 'AVAILABLE',
        actor: 'system',
        data: { expiresAt: fresh.expiresAt.toISOString(), ...(missing.length > 0 ? { missing } : {}) },
      },
    ]);
    if (enabled) {
      await this.arrived?.((await this.transfers.find(cloneId))!, await this.transfers.files(cloneId));
      await this.notifications.transferReady(cloneId);
    }
    return 'enabled';
  }

  private arrived: ((transfer: TransferRecord, files: TransferFileRecord[]) => Promise<void>) | null = null;

  private scanUpTo: number | null = null;

  /** With virus scanning: a clone's files never scanned (up to this size) are pending their scan from the start. */
  scanClonedFiles(maxBytes: number): void {
    this.scanUpTo = maxBytes;
  }

  /** Told when a clone's files are all copied (TransferService.filesArrived): scans of pending ones start there. */
  onFilesArrived(listener: (transfer: TransferRecord, files: TransferFileRecord[]) => Promise<void>): void {
    this.arrived = listener;
  }

  /** Part of the hourly sweep: queues again the clones whose job was lost. Returns how many. */
  async requeueStuck(): Promise<number> {
    const stuck = await this.repo.stuckBefore(new Date(this.now().getTime() - STUCK_AFTER_MS), 100);
    for (const id of stuck)
      await this.jobs.send<CloneJob>(TRANSFER_CLONE, { transferId: id }, { singletonKey: id });
    return stuck.length;
  }

  /** The expiry of the clone, counted from now: the team's forced validity, the one asked, or the default. */
  private expiry(
    wanted: string | undefined,
    forcedDays: number | null,
    limits: (typeof PLAN_LIMITS)[keyof typeof PLAN_LIMITS],
    broken: LimitError[],
  ): Date {
    const now = this.now();
    if (forcedDays !== null) return addDays(now, forcedDays);
    if (wanted === undefined) return addDays(now, defaultTransferValidityDays(limits.fileValidityInDays));
    const latest = addDays(now, limits.fileValidityInDays);
    const expiresAt = expiryFrom(wanted, latest);
    if (expiresAt.getTime() <= now.getTime())
      throw new AppError('VALIDATION_FAILED', 'The expiry date must be in the future.', {
        details: { field: 'expiresAt' },
      });
    if (expiresAt > latest)
      broken.push({
        limit: 'fileValidityInDays',
        max: limits.fileValidityInDays,
        actual: Math.ceil((expiresAt.getTime() - now.getTime()) / 86_400_000),
      });
    return expiresAt;
  }
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
