import {
  checkFileName,
  PLAN_LIMITS,
  type TransferDetail,
  TransferFileUpdate,
  TransferRecipientsAdd,
  TransferUpdate,
  transferStatusLabel,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { DashboardRepository } from '../db/dashboard.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { DashboardService } from './dashboard.service.js';
import {
  actor,
  type DashboardAccess,
  type DashboardContext,
  editable,
  isLive,
  notFound,
  notUnderReview,
} from './dashboard-access.js';
import type { FileAdditionService } from './dashboard-additions.service.js';
import { expiryFrom } from './dashboard-view.js';
import type { LimitsService, SenderLimits } from './limits.service.js';
import { NotificationService } from './notification.service.js';
import type { NewTransferEvent, PasswordHasher, TransferRecord, TransferRepository } from './ports.js';
import type { SecurityLog } from './security-log.js';
import type { TransferService, UploadStorage } from './transfer.service.js';

const DAY_MS = 86_400_000;

/**
 * The dashboard's changes to one transfer (/dashboard/transfers/:id): every change the spec's transfer events
 * name, each recorded as its event, after DashboardAccess let the caller in (owner, team manager, or a team member
 * with TRANSFER_MANAGER). Cloning and adding files have their own services.
 */
export class DashboardActionsService {
  constructor(
    private readonly repo: DashboardRepository,
    private readonly transfers: TransferRepository,
    private readonly access: DashboardAccess,
    private readonly reader: Pick<DashboardService, 'detailOf'>,
    private readonly additions: Pick<FileAdditionService, 'discardAll'>,
    private readonly limits: Pick<LimitsService, 'forSender'>,
    private readonly transferService: Pick<TransferService, 'applyNotifications'>,
    private readonly notifications: NotificationService,
    private readonly passwords: PasswordHasher,
    private readonly uploads: Pick<UploadStorage, 'discardUpload'>,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private windowMoved: ((transferId: string, availableFrom: Date | null) => Promise<void>) | null = null;

  /** Who hears that an owner moved or cleared a window (AvailabilityReleases.moved: queue or release now). */
  onWindowMoved(listener: (transferId: string, availableFrom: Date | null) => Promise<void>): void {
    this.windowMoved = listener;
  }

  private security: SecurityLog | null = null;

  /** Disabling and deleting a transfer are written to its owner's team security log. */
  recordSecurity(log: SecurityLog): void {
    this.security = log;
  }

  private async logTransfer(
    transfer: TransferRecord,
    auth: Authenticated | null,
    action: 'transfer-disabled' | 'transfer-deleted',
    tx: DashboardRepository,
  ): Promise<void> {
    if (!transfer.ownerId) return;
    await this.security?.record(
      {
        userId: transfer.ownerId,
        action,
        actorUserId: auth?.user.id ?? null,
        tokenId: auth?.tokenId ?? null,
        target: transfer.id,
      },
      tx.queryable,
    );
  }

  // --- changing ------------------------------------------------------------------------------------------

  /** PATCH: name, expiry, availability window, password, preview, download limit and the notification switches. */
  async update(
    auth: Authenticated | null,
    transferId: string,
    input: TransferUpdate,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const patch = TransferUpdate.parse(input);
    const { transfer, caller, owner } = await this.access.check(auth, transferId);
    editable(transfer);
    const team = await this.limits.forSender(owner.id);
    if (team?.memberSettings) checkMemberChange(patch, transfer, team.memberSettings);
    const availableFrom =
      patch.availableFrom === undefined ? undefined : this.newWindow(transfer, patch.availableFrom, team);
    const opensAt = availableFrom === undefined ? (transfer.availableFrom ?? null) : availableFrom;
    const expiresAt =
      patch.expiresAt === undefined ? undefined : this.newExpiry(transfer, patch.expiresAt, team, opensAt);
    if (opensAt && opensAt >= (expiresAt ?? transfer.expiresAt))
      throw new AppError('VALIDATION_FAILED', 'The transfer must open before it expires.', {
        details: { field: availableFrom === undefined ? 'expiresAt' : 'availableFrom' },
      });
    const passwordHash = patch.password ? await this.passwords.hash(patch.password) : undefined;
    const { downloadConfirmation, expiryReminder, forceEmailWhenDownloadS2 } = patch;
    if ([downloadConfirmation, expiryReminder, forceEmailWhenDownloadS2].some((v) => v !== undefined))
      // Its own checks come first, so a refused switch changes nothing; the owner's address needs no proof.
      await this.transferService.applyNotifications(
        transfer,
        { downloadConfirmation, expiryReminder, forceEmailWhenDownloadS2 },
        { userId: caller.id, plan: team?.plan ?? 'NONE', email: owner.email, ip: ctx.ip, origin: ctx.origin },
      );
    const who = actor(caller);
    await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      editable(current);
      if (expiresAt && !isLive(current, this.now()))
        throw new AppError('CONFLICT', 'This transfer has expired: its files are deleted.');
      const set: Parameters<DashboardRepository['update']>[1] = {};
      const events: NewTransferEvent[] = [];
      if (availableFrom !== undefined) {
        if (!this.beforeWindow(current)) throw alreadyOpen();
        const from = current.availableFrom ?? null;
        if ((availableFrom?.getTime() ?? null) !== (from?.getTime() ?? null)) {
          set.availableFrom = availableFrom;
          events.push({
            type: 'AVAILABILITY_CHANGED',
            actor: who,
            data: { from: from?.toISOString() ?? null, to: availableFrom?.toISOString() ?? null },
          });
        }
      }
      if (patch.name !== undefined && (patch.name || null) !== current.name) {
        set.name = patch.name || null;
        events.push({ type: 'RENAMED', actor: who, data: { from: current.name, to: set.name } });
      }
      if (expiresAt && expiresAt.getTime() !== current.expiresAt.getTime()) {
        set.expiresAt = expiresAt;
        events.push({
          type: 'EXPIRY_DATE_CHANGED',
          actor: who,
          data: { from: current.expiresAt.toISOString(), to: expiresAt.toISOString() },
        });
      }
      if (passwordHash || (patch.password === null && current.passwordHash)) {
        set.passwordHash = passwordHash ?? null;
        events.push({ type: 'PASSWORD_CHANGED', actor: who, data: { removed: !passwordHash } });
      }
      if (patch.allowPreview !== undefined && patch.allowPreview !== current.allowPreview) {
        set.allowPreview = patch.allowPreview;
        events.push({ type: 'PREVIEW_CHANGED', actor: who, data: { allowPreview: patch.allowPreview } });
      }
      if (patch.maxDownloads !== undefined && patch.maxDownloads !== current.maxDownloads) {
        set.maxDownloads = patch.maxDownloads;
        const [from, to] = [current.maxDownloads, patch.maxDownloads];
        events.push(
          from === null
            ? { type: 'MAX_DOWNLOADS_ADDED', actor: who, data: { to } }
            : to === null
              ? { type: 'MAX_DOWNLOADS_REMOVED', actor: who, data: { from } }
              : { type: 'MAX_DOWNLOADS_CHANGED', actor: who, data: { from, to } },
        );
      }
      await tx.update(transferId, set);
      await tx.addEvents(transferId, events);
    });
    // After the commit: a window still ahead gets its release queued; a cleared one opens the transfer now.
    if (availableFrom !== undefined) await this.windowMoved?.(transferId, availableFrom);
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /** Whether the transfer has not opened yet: its window's start is ahead, or it still waits PENDING. */
  private beforeWindow(transfer: TransferRecord): boolean {
    if (transfer.status === 'PENDING') return true;
    return !!transfer.availableFrom && transfer.availableFrom.getTime() > this.now().getTime();
  }

  /**
   * A new start of the availability window (null: open now), for a transfer that has not opened yet: in the
   * future, at most the plan's validity ahead. Whether it comes before the expiry is checked with the new expiry.
   */
  private newWindow(transfer: TransferRecord, wanted: string | null, team: SenderLimits | null): Date | null {
    if (!this.beforeWindow(transfer)) throw alreadyOpen();
    if (wanted === null) return null;
    const at = new Date(wanted);
    if (at.getTime() <= this.now().getTime())
      throw new AppError('VALIDATION_FAILED', 'The opening date must be in the future (or cleared).', {
        details: { field: 'availableFrom' },
      });
    const days = team?.forcedFileValidityInDays ?? PLAN_LIMITS[team?.plan ?? 'NONE'].fileValidityInDays;
    if (at.getTime() > this.now().getTime() + days * DAY_MS)
      throw new AppError(
        'VALIDATION_FAILED',
        `A transfer can open at most ${days} days ahead on your plan.`,
        {
          details: { field: 'availableFrom' },
        },
      );
    return at;
  }

  /** S1: new recipients, each mailed their personal link (now, or when the transfer goes out or is enabled). */
  async addRecipients(
    auth: Authenticated | null,
    transferId: string,
    input: TransferRecipientsAdd,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { emails } = TransferRecipientsAdd.parse(input);
    const { transfer, caller, owner } = await this.access.check(auth, transferId);
    if (transfer.type !== 'S1')
      throw new AppError('VALIDATION_FAILED', 'Recipients are for transfers sent by e-mail (S1).');
    editable(transfer);
    const max = PLAN_LIMITS[(await this.limits.forSender(owner.id))?.plan ?? 'NONE'].recipients;
    const added = await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      editable(current);
      if (!isLive(current, this.now())) throw new AppError('CONFLICT', 'This transfer has expired.');
      const known = new Set((await tx.recipientEmails(transferId)).map((r) => r.email.toLowerCase()));
      const fresh: string[] = [];
      for (const email of emails)
        if (!known.has(email.toLowerCase())) {
          known.add(email.toLowerCase());
          fresh.push(email);
        }
      if (known.size > max)
        throw new AppError('LIMIT_EXCEEDED', 'Too many recipients for your plan.', {
          limitErrors: [{ limit: 'recipients', max, actual: known.size }],
        });
      if (fresh.length === 0) return { ids: [], mailed: false };
      const ids = await tx.addRecipients(
        transferId,
        fresh.map((email) => ({
          email,
          secretHash: NotificationService.secretHash(this.notifications.recipientSecret(transferId, email)),
        })),
      );
      // Mailed now when the transfer can go out; otherwise when it does (sender verified, or enabled again).
      const mailed = current.status === 'ENABLED' && current.senderVerification !== 'pending';
      await tx.addEvents(
        transferId,
        fresh.map((email) => ({ type: 'RECIPIENT_ADDED', actor: actor(caller), data: { email, mailed } })),
      );
      return { ids, mailed };
    });
    if (added.mailed) await this.notifications.mailRecipients(transferId, added.ids);
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /** Removes an S1 recipient: their personal link stops working (the last one stays). */
  async removeRecipient(
    auth: Authenticated | null,
    transferId: string,
    email: string,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { transfer, caller } = await this.access.check(auth, transferId);
    editable(transfer);
    await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      editable(current);
      const recipients = await tx.recipientEmails(transferId);
      const recipient = recipients.find((r) => r.email.toLowerCase() === email.toLowerCase());
      if (!recipient) throw new AppError('NOT_FOUND', 'This transfer has no such recipient.');
      if (recipients.length === 1)
        throw new AppError(
          'CONFLICT',
          'An e-mail transfer keeps at least one recipient: disable it instead.',
        );
      await tx.removeRecipient(transferId, recipient.id);
      await tx.addEvents(transferId, [
        { type: 'RECIPIENT_REMOVED', actor: actor(caller), data: { email: recipient.email } },
      ]);
    });
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /** ENABLED ↔ DISABLED; a disabled transfer's page and links answer TRANSFER_DISABLED (410). */
  async setEnabled(
    auth: Authenticated | null,
    transferId: string,
    enabled: boolean,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { transfer, caller } = await this.access.check(auth, transferId);
    editable(transfer);
    const [from, to] = enabled ? (['DISABLED', 'ENABLED'] as const) : (['ENABLED', 'DISABLED'] as const);
    const changed = await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      if (current.status === to) return false;
      if (current.status !== from)
        throw new AppError(
          'CONFLICT',
          `A transfer that is ${transferStatusLabel(current.status)} cannot be ${enabled ? 'enabled' : 'disabled'}.`,
        );
      await tx.update(transferId, { status: to });
      await tx.addEvents(transferId, [{ type: to, actor: actor(caller) }]);
      // In the same transaction: the change and its entry stand or fall together.
      if (!enabled) await this.logTransfer(current, auth, 'transfer-disabled', tx);
      return true;
    });
    if (changed && enabled) {
      // What could not go out while it was disabled goes out now.
      const now = (await this.transfers.find(transferId))!;
      if (!now.sentAt) {
        if (now.senderVerification !== 'pending') await this.notifications.transferReady(transferId);
      } else await this.notifications.mailRecipients(transferId);
    }
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /** Status DELETED, the bytes deleted from storage; names, sizes, hashes and history stay. */
  async delete(auth: Authenticated | null, transferId: string): Promise<void> {
    const { transfer, caller } = await this.access.check(auth, transferId);
    if (transfer.status === 'DELETED' || transfer.status === 'RETAINED' || transfer.status === 'CLONING')
      throw new AppError('CONFLICT', `This transfer is ${transferStatusLabel(transfer.status)}.`);
    notUnderReview(transfer);
    const current = await this.repo.withLock(transferId, async (locked, tx) => {
      if (!locked) throw notFound();
      if (locked.status === 'DELETED' || locked.status === 'RETAINED' || locked.status === 'CLONING')
        throw new AppError('CONFLICT', `This transfer is ${transferStatusLabel(locked.status)}.`);
      notUnderReview(locked);
      const files = await this.transfers.files(transferId);
      await tx.update(transferId, { status: 'DELETED' });
      // Spec §3 has no DELETED event: EXPIRED says the files are gone, `reason` says why (as the sweep's does).
      await tx.addEvents(transferId, [
        {
          type: 'EXPIRED',
          actor: actor(caller),
          data: {
            reason: 'deleted',
            files: files.length,
            bytes: locked.expiredAt ? 0 : files.reduce((sum, f) => sum + (f.uploadedAt ? f.size : 0), 0),
          },
        },
      ]);
      await this.logTransfer(locked, auth, 'transfer-deleted', tx);
      return { transfer: locked, files };
    });
    // Files still being added go too (their addition can no longer be completed on a deleted transfer).
    await this.additions.discardAll(transferId);
    if (current.transfer.expiredAt) return;
    // After the commit: downloads already stop (DELETED). A failure leaves expired_at unset, and the expiry
    // sweep deletes what is left when the transfer's date comes.
    let failed = false;
    for (const f of current.files) {
      if (!f.uploadId) continue;
      try {
        await this.uploads.discardUpload(f.uploadId);
      } catch (err) {
        failed = true;
        this.logger.warn({ err, transferId, fileId: f.id }, 'could not delete a deleted transfer’s file');
      }
    }
    if (!failed) await this.repo.markBytesDeleted(transferId);
  }

  /** A new name for one file (spec §5 rules, and the team's allowed extensions). */
  async renameFile(
    auth: Authenticated | null,
    transferId: string,
    fileId: string,
    input: TransferFileUpdate,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { name } = TransferFileUpdate.parse(input);
    const { transfer, caller, owner } = await this.access.check(auth, transferId);
    editable(transfer);
    const settings = (await this.limits.forSender(owner.id))?.memberSettings;
    const problem = checkFileName(name, { allowedExtensions: settings?.sendAllowedExtensions });
    if (problem)
      throw new AppError('INVALID_FILENAME', 'This file name is not allowed.', {
        details: { files: [{ name, ...problem }] },
      });
    await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      editable(current);
      const file = await this.transfers.file(transferId, fileId);
      if (!file) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
      if (file.name === name) return;
      // A file inside a dropped folder keeps its folder.
      const path = file.relativePath;
      const relativePath = path === null ? null : `${path.slice(0, path.lastIndexOf('/') + 1)}${name}`;
      await tx.renameFile(transferId, fileId, name, relativePath);
      await tx.addEvents(transferId, [
        { type: 'FILE_RENAMED', actor: actor(caller), data: { fileId, from: file.name, to: name } },
      ]);
    });
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /** Deletes one file and its bytes; the last file cannot be deleted (delete the transfer instead). */
  async deleteFile(
    auth: Authenticated | null,
    transferId: string,
    fileId: string,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { transfer, caller } = await this.access.check(auth, transferId);
    editable(transfer);
    notUnderReview(transfer);
    const file = await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      editable(current);
      notUnderReview(current);
      const found = await this.transfers.file(transferId, fileId);
      if (!found) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
      if (current.fileCount <= 1)
        throw new AppError('CONFLICT', 'The last file cannot be deleted: delete the transfer instead.');
      await tx.deleteFile(transferId, fileId, found.size);
      await tx.addEvents(transferId, [
        {
          type: 'FILE_DELETED',
          actor: actor(caller),
          data: { fileId, name: found.relativePath ?? found.name, size: found.size },
        },
      ]);
      return found;
    });
    if (file.uploadId && !transfer.expiredAt)
      await this.uploads.discardUpload(file.uploadId).catch((err) => {
        this.logger.warn({ err, transferId, fileId }, 'could not delete a deleted file’s bytes');
      });
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /**
   * A new expiry date: in the future, at most the plan's (or team's forced) validity from creation — or from the
   * opening, for a transfer with an availability window (`opensAt`), as at its creation.
   */
  private newExpiry(
    transfer: TransferRecord,
    wanted: string,
    team: SenderLimits | null,
    opensAt: Date | null,
  ): Date {
    if (!isLive(transfer, this.now()))
      throw new AppError('CONFLICT', 'This transfer has expired: its files are deleted.');
    const days = team?.forcedFileValidityInDays ?? PLAN_LIMITS[team?.plan ?? 'NONE'].fileValidityInDays;
    const start = opensAt && opensAt > transfer.createdAt ? opensAt : transfer.createdAt;
    const latest = new Date(start.getTime() + days * DAY_MS);
    const expiresAt = expiryFrom(wanted, latest);
    if (expiresAt.getTime() <= this.now().getTime())
      throw new AppError('VALIDATION_FAILED', 'The new expiry date must be in the future.', {
        details: { field: 'expiresAt' },
      });
    if (expiresAt > latest)
      throw new AppError(
        'LIMIT_EXCEEDED',
        'Longer than your plan allows, counted from the transfer’s creation (or its opening).',
        {
          limitErrors: [
            {
              limit: 'fileValidityInDays',
              max: days,
              actual: Math.ceil((expiresAt.getTime() - start.getTime()) / DAY_MS),
            },
          ],
          details: { latest: latest.toISOString() },
        },
      );
    return expiresAt;
  }
}

/** The window of a transfer that opened already cannot be moved (its files went out). */
function alreadyOpen(): AppError {
  return new AppError('CONFLICT', 'This transfer is available already: its opening date cannot change.', {
    details: { field: 'availableFrom' },
  });
}

/** What a team's manager lets members do (spec §4), held on their transfers' changes as on their creation. */
function checkMemberChange(
  patch: ReturnType<typeof TransferUpdate.parse>,
  transfer: TransferRecord,
  settings: NonNullable<SenderLimits['memberSettings']>,
): void {
  const refuse = (
    setting: string,
    message: string,
    code: 'FORBIDDEN' | 'VALIDATION_FAILED' = 'FORBIDDEN',
  ) => {
    throw new AppError(code, message, { details: { setting } });
  };
  if (patch.password === null && settings.requirePassword)
    refuse('requirePassword', 'Your team requires a password on every transfer.', 'VALIDATION_FAILED');
  if (patch.password && !settings.passwordOpt && !settings.requirePassword)
    refuse('passwordOpt', 'Your team does not use passwords on transfers.');
  if (patch.maxDownloads !== undefined && !settings.downloadLimitOpt)
    refuse('downloadLimitOpt', 'Your team does not limit downloads.');
  if (patch.allowPreview === false && !settings.filePreviewOpt)
    refuse('filePreviewOpt', 'Your team decides about previews: they cannot be turned off here.');
  if (
    patch.forceEmailWhenDownloadS2 === false &&
    transfer.type === 'S2' &&
    settings.requireForceEmailWhenDownloadS2
  )
    refuse('requireForceEmailWhenDownloadS2', 'Your team requires the downloader’s e-mail on links.');
}
