import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PreviewKind } from '@ferry/core';
import type { Logger } from 'pino';
import { previewKindOf } from '../previews/kinds.js';
import type { RenderResult } from '../previews/renderer.js';
import type { BlobReader } from './download.service.js';
import type { TransferFileRecord, TransferRecord, TransferRepository } from './ports.js';
import type {
  PreviewJob,
  PreviewQueue,
  PreviewRecord,
  PreviewRepository,
  StoredRendition,
} from './preview-ports.js';
import type { FilesArrivedListener } from './transfer-holds.js';

/** The queue of rendering jobs (one per file). */
export const PREVIEW_RENDER = 'previews.render';

/** Makes renditions of a file on local disk (previews/renderer.ts). */
export interface Renderer {
  render(kind: PreviewKind, input: string, outDir: string): Promise<RenderResult>;
}

export interface RenditionStore extends BlobReader {
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface PreviewJobSettings {
  /** Larger files get none: their bytes are never copied to temp disk. */
  maxInputBytes: number;
  /** Where a job's temp files go (DATA_DIR/tmp); removed when it ends. */
  tempDir: string;
}

/**
 * The background side of thumbnails and previews: when files arrive (allowPreview on), one job per file; the job
 * copies the stored file to temp disk (local or S3 storage alike), renders it and stores the renditions as blobs
 * under `previews/<transferId>/<fileId>/…`. Anything that goes wrong ends as `none` with a log line, never a crash
 * or an endless retry.
 */
export class PreviewJobs implements FilesArrivedListener {
  constructor(
    private readonly repo: PreviewRepository,
    private readonly transfers: TransferRepository,
    private readonly blobs: RenditionStore,
    private readonly renderer: Renderer,
    private readonly queue: PreviewQueue,
    private readonly settings: PreviewJobSettings,
    private readonly logger: Logger,
  ) {}

  async filesArrived(transfer: TransferRecord, files: TransferFileRecord[]): Promise<void> {
    if (!transfer.allowPreview) return;
    await this.request(
      transfer.id,
      files.filter((f) => f.uploadedAt && f.blobKey).map((f) => f.id),
    );
  }

  /** Queues the files not asked for before (a transfer whose previews were turned on later, too). */
  async request(transferId: string, fileIds: string[]): Promise<void> {
    for (const fileId of await this.repo.markPending(transferId, fileIds))
      await this.queue.queue({ transferId, fileId });
  }

  /** The job: renders one file; the outcome is stored, whatever it is. */
  async render(job: PreviewJob): Promise<PreviewRecord> {
    const none = (kind: PreviewKind | null, reason: string): PreviewRecord => ({
      ...job,
      status: 'none',
      kind,
      renditions: [],
      pageCount: null,
      reason,
    });
    const transfer = await this.transfers.find(job.transferId);
    const file = transfer && (await this.transfers.file(job.transferId, job.fileId));
    if (!transfer || !file?.blobKey || transfer.expiredAt) return this.saved(none(null, 'gone'));
    const kind = previewKindOf(file.name);
    if (!kind) return this.saved(none(null, 'unsupported'));
    if (file.size > this.settings.maxInputBytes) return this.saved(none(kind, 'too-large'));
    await fs.mkdir(this.settings.tempDir, { recursive: true });
    const work = await fs.mkdtemp(path.join(this.settings.tempDir, 'preview-'));
    try {
      const input = path.join(work, 'input');
      // Text needs only its beginning; the other kinds are read by tools that seek, from a local copy.
      const range = kind === 'text' && file.size > 65_536 ? { start: 0, end: 65_535 } : undefined;
      await pipeline(await this.blobs.read(file.blobKey, range), createWriteStream(input));
      const out = path.join(work, 'out');
      await fs.mkdir(out);
      let result: RenderResult;
      try {
        result = await this.renderer.render(kind, input, out);
      } catch (err) {
        this.logger.warn(
          { error: (err as Error).message, transferId: job.transferId, fileId: job.fileId, kind },
          'no preview: the file could not be rendered',
        );
        return this.saved(none(kind, 'failed'));
      }
      if (result.status === 'none') return this.saved(none(kind, result.reason));
      const renditions: StoredRendition[] = [];
      for (const [i, r] of result.files.entries()) {
        const key = `previews/${job.transferId}/${job.fileId}/${i}-${r.role}${r.page || ''}${extension(r.contentType)}`;
        await this.blobs.putFile(key, r.path, r.contentType);
        const { size } = await fs.stat(r.path);
        renditions.push({
          role: r.role,
          page: r.page,
          key,
          contentType: r.contentType,
          width: r.width,
          height: r.height,
          size,
        });
      }
      return this.saved({
        ...job,
        status: 'ready',
        kind,
        renditions,
        pageCount: result.pageCount,
        reason: null,
      });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  /** The last attempt failed too: the file shows no preview rather than pending for ever. */
  async giveUp(job: PreviewJob, err: unknown): Promise<void> {
    this.logger.warn(
      { error: (err as Error).message, ...job },
      'no preview: rendering failed at every attempt',
    );
    await this.repo.save({
      ...job,
      status: 'none',
      kind: null,
      renditions: [],
      pageCount: null,
      reason: 'failed',
    });
  }

  /** Removes a transfer's renditions (with its files, at expiry or deletion). */
  async removeAll(transferId: string): Promise<void> {
    for (const key of await this.repo.renditionKeys(transferId)) await this.blobs.delete(key);
  }

  private async saved(record: PreviewRecord): Promise<PreviewRecord> {
    if (await this.repo.save(record)) return record;
    // The transfer went while its file was rendered: what was stored for it goes too.
    for (const r of record.renditions) await this.blobs.delete(r.key);
    return { ...record, status: 'none', renditions: [], reason: 'gone' };
  }
}

function extension(contentType: string): string {
  if (contentType === 'image/webp') return '.webp';
  if (contentType === 'video/mp4') return '.mp4';
  if (contentType === 'audio/mp4') return '.m4a';
  return '.txt';
}
