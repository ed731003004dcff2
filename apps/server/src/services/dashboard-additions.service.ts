import {
  GB,
  type LimitError,
  PLAN_LIMITS,
  type TransferDetail,
  TransferFilesAdd,
  type TransferFilesAddResponse,
  TransferFilesComplete,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { AddedFileRecord, PgAdditionRepository } from '../db/dashboard-additions.repository.js';
import { newFileId, randomAlphanumeric } from '../lib/ids.js';
import { constantTimeEqual, randomToken, sha256Hex } from '../security/secrets.js';
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
} from './dashboard-access.js';
import type { LimitsService } from './limits.service.js';
import type { NotificationService } from './notification.service.js';
import {
  StorageQuotaExceeded,
  type TransferFileRecord,
  type TransferRecord,
  type TransferRepository,
} from './ports.js';
import {
  type AddedFileUploads,
  assertAllUploaded,
  checksumMismatchError,
  checksumMismatches,
  fileNameProblems,
  toFile,
  type UploadStorage,
} from './transfer.service.js';

const TUS_ENDPOINT = '/api/transfer/uploads';

/**
 * The tus side of added files: an addition's upload token lets its files be uploaded through the same route as a
 * new transfer's (TransferService asks here first), so they resume the same way.
 */
export class AddedFileUploadAuth implements AddedFileUploads {
  constructor(private readonly repo: Pick<PgAdditionRepository, 'file' | 'bindUpload' | 'markUploaded'>) {}

  async authorizeCreate(token: string | undefined, transferId: string, fileId: string, length: number) {
    const file = await this.fileFor(token, transferId, fileId);
    if (!file) return null;
    if (file.uploadedAt) throw new AppError('CONFLICT', 'This file is already uploaded.');
    if (length !== file.size)
      throw new AppError(
        'VALIDATION_FAILED',
        `Upload-Length ${length} differs from the declared size ${file.size}.`,
      );
    const uploadId = `${transferId}-${fileId}`;
    if (!(await this.repo.bindUpload(transferId, fileId, uploadId)))
      throw new AppError('CONFLICT', 'This file is already being uploaded.');
    return { uploadId, size: file.size };
  }

  async allows(token: string | undefined, transferId: string, fileId: string): Promise<boolean> {
    return (await this.fileFor(token, transferId, fileId)) !== null;
  }

  uploaded(transferId: string, fileId: string, digest: { sha256: string; crc32: number; blobKey: string }) {
    return this.repo.markUploaded(transferId, fileId, digest);
  }

  private async fileFor(token: string | undefined, transferId: string, fileId: string) {
    if (!token) return null;
    const file = await this.repo.file(transferId, fileId);
    return file && constantTimeEqual(sha256Hex(token), file.uploadTokenHash) ? file : null;
  }
}

/**
 * Adding files to a transfer that went out already (the dashboard's "add files"): the files are announced (spec §5
 * names, the plan's limits over the whole transfer), uploaded with tus under the addition's own token, then
 * completed: only then do they join the transfer, downloadable alone and in the ZIP, with a FILES_ADDED event and,
 * if asked, an e-mail to the S1 recipients. Until then no downloader sees them. Abandoned additions are swept.
 */
export class FileAdditionService {
  constructor(
    private readonly repo: PgAdditionRepository,
    private readonly transfers: TransferRepository,
    private readonly access: DashboardAccess,
    private readonly reader: Pick<DashboardService, 'detailOf'>,
    private readonly limits: Pick<LimitsService, 'forSender'>,
    private readonly notifications: Pick<NotificationService, 'filesAdded'>,
    private readonly uploads: Pick<UploadStorage, 'discardUpload'>,
    private readonly logger: Logger,
    /** An addition not completed within this many hours is abandoned: its files are deleted. */
    private readonly abandonedAfterHours: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST …/files: the new files' ids, the addition's upload token and the tus endpoint. */
  async add(
    auth: Authenticated | null,
    transferId: string,
    input: TransferFilesAdd,
  ): Promise<TransferFilesAddResponse> {
    const { files } = TransferFilesAdd.parse(input);
    const { transfer, caller, owner } = await this.access.check(auth, transferId);
    this.changeable(transfer);
    const team = await this.limits.forSender(owner.id);
    const problems = fileNameProblems(files, team?.memberSettings?.sendAllowedExtensions);
    if (problems.length > 0)
      throw new AppError('INVALID_FILENAME', `${problems.length} file name(s) are not allowed.`, {
        details: { files: problems },
      });
    const plan = PLAN_LIMITS[team?.plan ?? owner.planType];
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    const additionId = randomAlphanumeric(16);
    const uploadToken = randomToken();
    const rows = await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      this.changeable(current);
      // The plan's per-transfer limits hold over the whole transfer: its files, those being added, these.
      const pending = await tx.pendingOf(transferId);
      const count = current.fileCount + pending.files + files.length;
      const size = current.totalSize + pending.bytes + bytes;
      const broken: LimitError[] = [];
      if (count > plan.files) broken.push({ limit: 'files', max: plan.files, actual: count });
      if (size > plan.uploadSizeGB * GB)
        broken.push({ limit: 'uploadSize', max: plan.uploadSizeGB * GB, actual: size });
      if (broken.length > 0)
        throw new AppError('LIMIT_EXCEEDED', 'The transfer would exceed the limits of your plan.', {
          limitErrors: broken,
        });
      const used = await tx.fileIds(transferId);
      const rows = files.map((f, position) => {
        let id = newFileId();
        while (used.has(id)) id = newFileId();
        used.add(id);
        return {
          transferId,
          id,
          additionId,
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
      try {
        await tx.create(
          { id: additionId, transferId, uploadTokenHash: sha256Hex(uploadToken), actor: actor(caller) },
          rows,
          { teamId: team?.teamId ?? owner.id, maxBytes: (team?.storageGB ?? plan.storageGB) * GB },
        );
      } catch (error) {
        if (!(error instanceof StorageQuotaExceeded)) throw error;
        throw new AppError(
          'LIMIT_EXCEEDED',
          'Your storage is full: delete transfers or wait for some to expire.',
          { limitErrors: [{ limit: 'storage', max: error.max, actual: error.used + bytes }] },
        );
      }
      return rows;
    });
    const createdAt = this.now();
    return {
      transferId,
      additionId,
      uploadToken,
      uploadEndpoint: TUS_ENDPOINT,
      files: rows.map((f) => toFile({ ...f, createdAt })),
    };
  }

  /**
   * POST …/additions/{additionId}/complete: every file uploaded and matching the client's SHA-256 (a mismatch is
   * reset to be sent again, as on creation), then the files join the transfer. Completing again an addition that
   * was completed answers the detail.
   */
  async complete(
    auth: Authenticated | null,
    transferId: string,
    additionId: string,
    input: TransferFilesComplete,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { files: clientFiles, notifyRecipients } = TransferFilesComplete.parse(input);
    const { transfer, caller } = await this.access.check(auth, transferId);
    const outcome = await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      if (!(await tx.addition(transferId, additionId))) {
        const known = new Set((await this.transfers.files(transferId)).map((f) => f.id));
        if (clientFiles.length > 0 && clientFiles.every((f) => known.has(f.id)))
          return { done: false as const, files: [], mismatched: [] };
        throw new AppError('NOT_FOUND', 'No such addition: it was completed, cancelled, or abandoned.');
      }
      this.changeable(current);
      const files = await tx.files(additionId);
      assertAllUploaded(files);
      const mismatched = checksumMismatches(files, clientFiles);
      if (mismatched.length > 0) {
        for (const m of mismatched) await tx.resetFile(transferId, m.id);
        return { done: false as const, files, mismatched };
      }
      await tx.complete(transferId, additionId, this.scanUpTo, [
        {
          type: 'FILES_ADDED',
          actor: actor(caller),
          data: {
            files: files.map((f) => ({ id: f.id, name: f.relativePath ?? f.name, size: f.size })),
            notifyRecipients: notifyRecipients && current.type === 'S1',
          },
        },
      ]);
      return { done: true as const, files, mismatched };
    });
    if (outcome.mismatched.length > 0) {
      for (const m of outcome.mismatched) if (m.uploadId) await this.uploads.discardUpload(m.uploadId);
      throw checksumMismatchError(outcome.mismatched);
    }
    if (outcome.done) {
      const ids = new Set(outcome.files.map((f) => f.id));
      const joined = (await this.transfers.files(transferId)).filter((f) => ids.has(f.id));
      // Background work on the new files (virus scans) starts here.
      await this.arrived?.((await this.transfers.find(transferId))!, joined);
      if (notifyRecipients && transfer.type === 'S1')
        await this.notifications.filesAdded(transferId, additionId, joined);
    }
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  private arrived: ((transfer: TransferRecord, files: TransferFileRecord[]) => Promise<void>) | null = null;

  private scanUpTo: number | null = null;

  /** With virus scanning: added files up to this size join pending their scan, so none is served unscanned. */
  scanAddedFiles(maxBytes: number): void {
    this.scanUpTo = maxBytes;
  }

  /** Told when added files join a transfer (TransferService.filesArrived): scans start there. */
  onFilesArrived(listener: (transfer: TransferRecord, files: TransferFileRecord[]) => Promise<void>): void {
    this.arrived = listener;
  }

  /** DELETE …/additions/{additionId}: the files being added are dropped, their uploaded bytes deleted. */
  async cancel(
    auth: Authenticated | null,
    transferId: string,
    additionId: string,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    await this.access.check(auth, transferId);
    const files = await this.repo.withLock(transferId, async (current, tx) => {
      if (!current) throw notFound();
      if (!(await tx.addition(transferId, additionId)))
        throw new AppError('NOT_FOUND', 'No such addition: it was completed, cancelled, or abandoned.');
      const files = await tx.files(additionId);
      await tx.delete(additionId);
      return files;
    });
    await this.discard(files);
    return this.reader.detailOf((await this.transfers.find(transferId))!, ctx.origin);
  }

  /** Drops every addition of a transfer (it was deleted) and deletes their uploads. */
  async discardAll(transferId: string): Promise<void> {
    for (const addition of await this.repo.pending(transferId)) {
      await this.repo.delete(addition.id);
      await this.discard(addition.files);
    }
  }

  /** The hourly sweep: additions never completed are dropped and their uploads deleted. Returns how many. */
  async sweepAbandoned(batch = 100): Promise<number> {
    const cutoff = new Date(this.now().getTime() - this.abandonedAfterHours * 3_600_000);
    let removed = 0;
    for (;;) {
      const stale = await this.repo.abandonedBefore(cutoff, batch);
      for (const addition of stale) {
        const files = await this.repo.files(addition.id);
        await this.repo.delete(addition.id);
        await this.discard(files);
        removed++;
      }
      if (stale.length < batch) return removed;
    }
  }

  private async discard(files: AddedFileRecord[]): Promise<void> {
    for (const f of files) {
      if (!f.uploadId) continue;
      await this.uploads.discardUpload(f.uploadId).catch((err) => {
        this.logger.warn({ err, transferId: f.transferId, fileId: f.id }, 'could not delete an added file');
      });
    }
  }

  /** Files can be added to a transfer that went out and is not expired, disabled or not. */
  private changeable(transfer: TransferRecord): void {
    editable(transfer);
    if (!isLive(transfer, this.now()))
      throw new AppError('CONFLICT', 'This transfer has expired: files cannot be added any more.');
  }
}
