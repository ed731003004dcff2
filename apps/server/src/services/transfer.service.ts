import {
  addDays,
  checkFileName,
  checkRelativePath,
  defaultTransferValidityDays,
  GB,
  type LimitError,
  PLAN_LIMITS,
  type PlanType,
  TransferCreateRequest,
  type TransferCreateResponse,
  type TransferFile,
  type TransferSummary,
} from '@ferry/core';
import { newFileId, newTransferId } from '../lib/ids.js';
import { constantTimeEqual, randomToken, sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { PasswordHasher, TransferFileRecord, TransferRecord, TransferRepository } from './ports.js';

/** Who is acting: for now every sender is anonymous (plan NONE); accounts arrive with sign-in. */
export interface Actor {
  userId: string | null;
  plan: PlanType;
  ip?: string;
  /** Origin the links handed back start with (PUBLIC_URL, or the request's own). */
  origin: string;
}

export interface UploadStorage {
  /** Deletes a (partial or finished) upload so the file can be sent again. */
  discardUpload(uploadId: string): Promise<void>;
  uploadBlobKey(uploadId: string): string;
}

const UPLOAD_ID = /^([A-Za-z0-9]{16})-([A-Za-z0-9]{6})$/;

export class TransferService {
  constructor(
    private readonly repo: TransferRepository,
    private readonly passwords: PasswordHasher,
    private readonly storage: UploadStorage,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(
    input: TransferCreateRequest,
    actor: Actor,
  ): Promise<TransferCreateResponse & { uploadToken: string }> {
    const request = TransferCreateRequest.parse(input);
    this.checkNames(request.files);
    const limits = PLAN_LIMITS[actor.plan];
    const totalSize = request.files.reduce((sum, f) => sum + f.size, 0);
    const validityDays = request.expiresInDays ?? defaultTransferValidityDays(limits.fileValidityInDays);
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
    if (broken.length > 0)
      throw new AppError('LIMIT_EXCEEDED', 'The transfer exceeds the limits of your plan.', {
        limitErrors: broken,
      });

    const id = newTransferId();
    const uploadToken = randomToken();
    const now = this.now();
    const usedIds = new Set<string>();
    const files = request.files.map((f, position) => {
      let fileId = newFileId();
      while (usedIds.has(fileId)) fileId = newFileId();
      usedIds.add(fileId);
      return {
        transferId: id,
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
    const transfer = {
      id,
      type: request.type,
      status: 'UPLOADING' as const,
      name: request.name || null,
      message: request.message || null,
      passwordHash: request.password ? await this.passwords.hash(request.password) : null,
      uploadTokenHash: sha256Hex(uploadToken),
      ownerId: actor.userId,
      senderEmail: request.senderEmail ?? null,
      senderName: request.senderName || null,
      locale: request.locale ?? null,
      allowPreview: request.allowPreview,
      maxDownloads: request.maxDownloads ?? null,
      totalSize,
      fileCount: files.length,
      expiresAt: addDays(now, validityDays),
    };
    await this.repo.create(transfer, files, {
      type: 'CREATED',
      actor: actorName(actor),
      data: { files: files.length, totalSize },
    });
    return {
      transferId: id,
      type: transfer.type,
      status: transfer.status,
      link: downloadLink(actor.origin, id),
      expiresAt: transfer.expiresAt.toISOString(),
      uploadToken,
      uploadEndpoint: '/api/transfer/uploads',
      files: files.map((f) => toFile({ ...f, createdAt: now })),
    };
  }

  /** Checks a tus creation request: right token, a file of this transfer still to upload, the declared size. */
  async authorizeUploadCreate(
    token: string | undefined,
    meta: { transferId?: string; fileId?: string },
    length: number,
  ) {
    if (!meta.transferId || !meta.fileId)
      throw new AppError('VALIDATION_FAILED', 'Upload-Metadata needs transferId and fileId.');
    const transfer = await this.authorizedTransfer(meta.transferId, token);
    const file = await this.repo.file(transfer.id, meta.fileId);
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
    await this.authorizedTransfer(match[1]!, token);
  }

  async uploadFinished(uploadId: string, digest: { sha256: string; crc32: number }): Promise<void> {
    const match = UPLOAD_ID.exec(uploadId);
    if (!match) throw new AppError('NOT_FOUND', 'Unknown upload.');
    await this.repo.markFileUploaded(match[1]!, match[2]!, {
      ...digest,
      blobKey: this.storage.uploadBlobKey(uploadId),
    });
  }

  async uploadState(transferId: string, token: string | undefined, origin: string): Promise<TransferSummary> {
    const transfer = await this.authorizedTransfer(transferId, token, true);
    return this.summary(transfer, await this.repo.files(transferId), origin);
  }

  /** Verifies every file arrived and matches the client's own hash, then makes the transfer available. */
  async complete(
    transferId: string,
    token: string | undefined,
    clientFiles: Array<{ id: string; sha256?: string }>,
    actor: Actor,
  ) {
    await this.authorizedTransfer(transferId, token, true);
    type Mismatch = {
      id: string;
      name: string;
      expected: string;
      actual: string | null;
      uploadId: string | null;
    };
    // Under the transfer's row lock: racing completes see each other's resets and enables, so a transfer can
    // never be enabled while one of its files is being reset.
    const outcome = await this.repo.withTransferLock(transferId, async (repo) => {
      const transfer = (await repo.find(transferId))!;
      const files = await repo.files(transferId);
      if (transfer.status !== 'UPLOADING') return { transfer, files, mismatched: [] as Mismatch[] };
      const missing = files.filter((f) => !f.uploadedAt).map((f) => f.id);
      if (missing.length > 0) {
        throw new AppError('UPLOAD_INCOMPLETE', `${missing.length} file(s) are not uploaded yet.`, {
          details: { files: missing },
        });
      }
      const byId = new Map(files.map((f) => [f.id, f]));
      const mismatched: Mismatch[] = [];
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
      if (mismatched.length > 0) {
        for (const m of mismatched) await repo.resetFile(transferId, m.id);
        return { transfer, files, mismatched };
      }
      await repo.enable(transferId, [
        {
          type: 'UPLOADED',
          actor: actorName(actor),
          data: { files: files.length, totalSize: transfer.totalSize },
        },
        { type: 'AVAILABLE', actor: 'system', data: { expiresAt: transfer.expiresAt.toISOString() } },
      ]);
      return { transfer: { ...transfer, status: 'ENABLED' as const }, files, mismatched };
    });
    if (outcome.mismatched.length > 0) {
      // The rows are reset (committed); now the bytes, outside the lock.
      for (const m of outcome.mismatched) if (m.uploadId) await this.storage.discardUpload(m.uploadId);
      throw new AppError(
        'CHECKSUM_MISMATCH',
        'The server received different bytes than were sent; upload those files again.',
        { details: { files: outcome.mismatched.map(({ uploadId: _, ...m }) => m) } },
      );
    }
    return this.summary(outcome.transfer, outcome.files, actor.origin);
  }

  private async authorizedTransfer(
    transferId: string,
    token: string | undefined,
    allowFinished = false,
  ): Promise<TransferRecord> {
    const transfer = await this.repo.find(transferId);
    if (!transfer || !token || !constantTimeEqual(sha256Hex(token), transfer.uploadTokenHash)) {
      throw new AppError('TRANSFER_NOT_FOUND', 'Unknown transfer or wrong upload token.');
    }
    if (!allowFinished && transfer.status !== 'UPLOADING') {
      throw new AppError('TRANSFER_NOT_UPLOADING', 'This transfer no longer accepts uploads.');
    }
    return transfer;
  }

  private checkNames(files: TransferCreateRequest['files']): void {
    const problems: Array<{ name: string; key: string }> = [];
    for (const f of files) {
      const problem =
        checkFileName(f.name) ??
        (f.relativePath !== undefined
          ? (checkRelativePath(f.relativePath) ??
            (f.relativePath === f.name || f.relativePath.endsWith(`/${f.name}`)
              ? null
              : { key: 'uploader:notif_invalid_filename' as const }))
          : null);
      if (problem) problems.push({ name: f.relativePath ?? f.name, key: problem.key });
    }
    if (problems.length > 0) {
      throw new AppError('INVALID_FILENAME', `${problems.length} file name(s) are not allowed.`, {
        details: { files: problems },
      });
    }
  }

  summary(transfer: TransferRecord, files: TransferFileRecord[], origin: string): TransferSummary {
    return {
      transferId: transfer.id,
      type: transfer.type,
      status: transfer.status,
      name: transfer.name,
      link: downloadLink(origin, transfer.id),
      expiresAt: transfer.expiresAt.toISOString(),
      totalSize: transfer.totalSize,
      files: files.map(toFile),
    };
  }
}

/** The link recipients open: {origin}/dl/{transferId} (spec §1). */
export function downloadLink(origin: string, transferId: string): string {
  return `${origin}/dl/${transferId}`;
}

export function toFile(f: TransferFileRecord): TransferFile {
  return {
    id: f.id,
    name: f.name,
    relativePath: f.relativePath,
    size: f.size,
    sha256: f.sha256,
    uploaded: f.uploadedAt !== null,
  };
}

export function actorName(actor: Actor): string {
  return actor.userId ? `user:${actor.userId}` : 'anonymous';
}
