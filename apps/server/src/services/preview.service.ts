import type { Readable } from 'node:stream';
import type {
  DownloadLinkResponse,
  PreviewPart,
  ThumbnailLink,
  ThumbnailLinksQuery,
  ThumbnailLinksRequest,
  ThumbnailLinksResponse,
} from '@ferry/core';
import type { Signer } from '../security/secrets.js';
import type { ByteRange } from '../storage/blob-store.js';
import { AppError } from './app-error.js';
import type { BlobReader, DownloadContext, DownloadService } from './download.service.js';
import type { TransferFileRecord, TransferRecord, TransferRepository } from './ports.js';
import type { PreviewJobs } from './preview-jobs.js';
import type { PreviewRecord, PreviewRepository, StoredRendition } from './preview-ports.js';

interface RenditionToken {
  t: string;
  f: string;
  /** Index in the file's renditions. */
  i: number;
  e: number;
  g: number;
}

/** A rendition as the HTTP layer serves it (inline, sandboxed). */
export interface RenditionBody {
  contentType: string;
  size: number;
  etag: string;
  open(range?: ByteRange): Promise<Readable>;
}

export interface PreviewSettings {
  /** In-page previews per transfer (PREVIEWS_PER_TRANSFER); 0: none. */
  perTransfer: number;
  /** Lifetime of a rendition URL. */
  linkTtlSeconds: number;
  /** PREVIEW_ORIGIN: rendition URLs start there; null: the caller's origin (Ferry's own). */
  origin: string | null;
}

/**
 * Thumbnails and in-page previews as downloaders get them: the same checks as downloads (DownloadService
 * .viewerAccess: status, S1 personal link, S3 owner, password), then short-lived signed URLs of renditions only,
 * never of the file. Rendition URLs are signed with their own key, so one can never stand for a download link.
 */
export class PreviewService {
  constructor(
    private readonly repo: PreviewRepository,
    private readonly transfers: TransferRepository,
    private readonly downloads: DownloadService,
    private readonly jobs: PreviewJobs,
    private readonly blobs: BlobReader,
    private readonly signer: Signer,
    private readonly settings: PreviewSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Spec §7 thumbnail-links. Priced transfers show their thumbnails (a shop window of 320 px) before a purchase;
   * their previews wait for it. Files not known yet (previews turned on later) are queued and answer pending.
   */
  async thumbnailLinks(
    query: ThumbnailLinksQuery,
    body: ThumbnailLinksRequest,
    ctx: DownloadContext,
  ): Promise<ThumbnailLinksResponse> {
    const { transfer, purchased } = await this.downloads.viewerAccess(query, ctx);
    const ids = [...new Set(body.fileIds)];
    const none = (fileId: string): ThumbnailLink => ({ fileId, status: 'none', preview: false });
    if (!transfer.allowPreview) return { thumbnails: ids.map(none) };
    const files = new Map(
      (await this.transfers.files(transfer.id))
        .filter((f) => f.uploadedAt && f.blobKey)
        .map((f) => [f.id, f]),
    );
    const known = ids.filter((id) => files.has(id));
    let rows = await this.repo.find(transfer.id, known);
    const missing = known.filter((id) => !rows.some((r) => r.fileId === id));
    if (missing.length > 0) {
      await this.jobs.request(transfer.id, missing);
      rows = await this.repo.find(transfer.id, known);
    }
    const byId = new Map(rows.map((r) => [r.fileId, r]));
    const previews = this.settings.perTransfer > 0 && purchased;
    return {
      thumbnails: ids.map((fileId): ThumbnailLink => {
        const row = byId.get(fileId);
        const file = files.get(fileId);
        if (!row || !file) return none(fileId);
        // Renditions of a file follow its virus scan: never of an infected one, not before it is scanned (block).
        const scan = this.downloads.scanView(transfer, file);
        if (scan === 'none') return none(fileId);
        if (scan === 'pending')
          return { fileId, status: 'pending', kind: row.kind ?? undefined, preview: false };
        if (row.status !== 'ready')
          return { fileId, status: row.status, kind: row.kind ?? undefined, preview: false };
        const preview = previews && row.renditions.some((r) => r.role === 'preview');
        const thumb = row.renditions.findIndex((r) => r.role === 'thumb');
        if (thumb < 0) return { fileId, status: 'none', kind: row.kind ?? undefined, preview };
        const r = row.renditions[thumb]!;
        return {
          fileId,
          status: 'ready',
          url: this.url(transfer, row, thumb, ctx),
          width: r.width ?? undefined,
          height: r.height ?? undefined,
          kind: row.kind ?? undefined,
          preview,
        };
      }),
    };
  }

  /**
   * /link with preview=true, once DownloadService checked access, password and purchase: the renditions to show,
   * counted as one preview (never as a download), refused past PREVIEWS_PER_TRANSFER with TOO_MANY_PREVIEWS.
   */
  async previewLink(
    transfer: TransferRecord,
    file: TransferFileRecord,
    ctx: DownloadContext,
  ): Promise<DownloadLinkResponse> {
    const [row] = await this.repo.find(transfer.id, [file.id]);
    const parts = row?.status === 'ready' ? row.renditions.filter((r) => r.role === 'preview') : [];
    if (!row?.kind || parts.length === 0 || this.settings.perTransfer === 0)
      throw new AppError('PREVIEW_NOT_AVAILABLE', 'No preview is available for this file.');
    if (!(await this.repo.consumePreview(transfer.id, this.settings.perTransfer)))
      throw new AppError('TOO_MANY_PREVIEWS', 'This transfer has been previewed as often as it may be.');
    const part = (r: StoredRendition): PreviewPart => ({
      url: this.url(transfer, row, row.renditions.indexOf(r), ctx),
      contentType: r.contentType,
      width: r.width,
      height: r.height,
    });
    const poster = row.renditions.find((r) => r.role === 'poster');
    const shown = parts.map(part);
    return {
      url: shown[0]!.url,
      fileName: file.name,
      size: parts[0]!.size,
      sha256: null,
      expiresAt: new Date(this.expiry(transfer)).toISOString(),
      preview: {
        kind: row.kind,
        parts: shown,
        poster: poster ? part(poster) : null,
        pageCount: row.pageCount,
      },
    };
  }

  /** Resolves a rendition URL: the transfer must still be open (status, expiry, access epoch, previews on). */
  async rendition(token: string): Promise<RenditionBody> {
    const p = this.signer.verify<RenditionToken>(token);
    if (
      !p ||
      typeof p.t !== 'string' ||
      typeof p.f !== 'string' ||
      typeof p.i !== 'number' ||
      typeof p.e !== 'number'
    )
      throw new AppError('TRANSFER_NOT_FOUND', 'This preview link is not valid.');
    if (p.e < this.now().getTime()) throw new AppError('TRANSFER_EXPIRED', 'This preview link has expired.');
    const transfer = await this.downloads.stillViewable(p.t, p.f);
    if (p.g !== transfer.accessEpoch || !transfer.allowPreview)
      throw new AppError('TRANSFER_NOT_FOUND', 'This preview link was revoked: open the transfer again.');
    const [row] = await this.repo.find(p.t, [p.f]);
    const r = row?.renditions[p.i];
    if (!r) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such preview.');
    return {
      // Never served as anything a browser runs: renditions are images, MP4 and plain text only.
      contentType: r.contentType,
      size: r.size,
      etag: `"${p.t}-${p.f}-${p.i}-${r.size}"`,
      open: (range) => this.blobs.read(r.key, range),
    };
  }

  private expiry(transfer: TransferRecord): number {
    return Math.min(this.now().getTime() + this.settings.linkTtlSeconds * 1000, transfer.expiresAt.getTime());
  }

  private url(transfer: TransferRecord, row: PreviewRecord, index: number, ctx: DownloadContext): string {
    const token = this.signer.sign({
      t: transfer.id,
      f: row.fileId,
      i: index,
      e: this.expiry(transfer),
      g: transfer.accessEpoch,
    } satisfies RenditionToken);
    return `${this.settings.origin ?? ctx.origin}/api/transfer/downloads/renditions/${token}`;
  }
}
