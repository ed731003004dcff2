import type { Readable } from 'node:stream';
import {
  type Currency,
  type DownloadInfo,
  DownloadLinkQuery,
  type DownloadLinkResponse,
  PLAN_LIMITS,
  type PlanType,
  TransferId,
} from '@ferry/core';
import type { Signer } from '../security/secrets.js';
import type { ByteRange, PresignOptions } from '../storage/blob-store.js';
import { buildZipLayout, streamZipRange, type ZipLayout } from '../zip/index.js';
import { AppError } from './app-error.js';
import type { NotificationService } from './notification.service.js';
import { type GuessingStopped, PasswordGuard, type PasswordPolicy } from './password-guard.js';
import type {
  PasswordHasher,
  RateLimiter,
  TransferFileRecord,
  TransferRecord,
  TransferRepository,
} from './ports.js';
import type { SecurityLog } from './security-log.js';
import { toFile } from './transfer.service.js';

export interface BlobReader {
  read(key: string, range?: ByteRange): Promise<Readable>;
  presignedUrl?: (key: string, options: PresignOptions) => Promise<string | null>;
}

/** The team admin side of downloads (see DownloadService.adminDownloads). */
export interface AdminDownloads {
  mayAdminister(transfer: TransferRecord, userId: string): Promise<boolean>;
  downloaded(
    transfer: TransferRecord,
    adminId: string,
    what: { fileId: string | null; bytes: number; ip: string; userAgent: string | null },
  ): Promise<void>;
}

export interface DownloadContext {
  ip: string;
  userAgent?: string;
  /** Origin the returned URLs start with. */
  origin: string;
  /** The signed-in caller (session or API token), if any: received (S3) transfers are theirs only. */
  viewerId?: string | null;
}

interface BlobTokenPayload {
  t: string;
  f: string | null;
  e: number;
  /** The transfer's access epoch when the URL was issued: a later one (access taken away) revokes it. */
  g?: number;
}

/** What the HTTP layer streams: a size, a name and a way to open any byte range of it. */
export interface DownloadBody {
  fileName: string;
  contentType: string;
  size: number;
  lastModified: Date;
  etag: string;
  open(range?: ByteRange): Promise<Readable>;
  /** Where the storage serves these bytes itself (a presigned URL), for a GET to be redirected to. */
  redirect(): Promise<string | null>;
}

export type { PasswordPolicy };

/** Selling files: whether a purchase token unlocks a priced transfer, and where a buyer pays for it. */
export interface PurchaseGate {
  /** True for a paid purchase of this transfer whose token this is. */
  unlocks(transferId: string, purchaseToken: string): Promise<boolean>;
  payUrl(transferId: string): string;
}

/** Where a preview link's renditions come from (PreviewService). */
export interface PreviewGate {
  previewLink(
    transfer: TransferRecord,
    file: TransferFileRecord,
    ctx: DownloadContext,
  ): Promise<DownloadLinkResponse>;
}

export class DownloadService {
  constructor(
    private readonly repo: TransferRepository,
    private readonly passwords: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly blobs: BlobReader,
    private readonly signer: Signer,
    private readonly policy: PasswordPolicy,
    private readonly linkTtlSeconds: number,
    private readonly notifications: NotificationService,
    /** The plan of a transfer's owner, for the 7-day download limit of spec §9. */
    private readonly planOf: (userId: string) => Promise<PlanType | null>,
    /** Whether an operator has suspended this account: its transfers then answer ACCOUNT_SUSPENDED. */
    private readonly ownerSuspended: (userId: string) => Promise<boolean>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private brand:
    | ((transfer: TransferRecord) => Promise<Pick<DownloadInfo, 'theme' | 'customization'>>)
    | null = null;

  /** The owner's theme and the transfer's own customization shown on its download page (CustomizationService). */
  brandWith(
    brand: (transfer: TransferRecord) => Promise<Pick<DownloadInfo, 'theme' | 'customization'>>,
  ): void {
    this.brand = brand;
  }

  private ownerAccess: ((transfer: TransferRecord, userId: string | null) => Promise<boolean>) | null = null;

  /**
   * Whether a signed-in caller is a transfer's owner (or a manager of its team allowed to see it). Received (S3)
   * transfers are downloaded by them only, never by a public link; S1 transfers by them or a secret's holder.
   */
  restrictReceived(check: (transfer: TransferRecord, userId: string | null) => Promise<boolean>): void {
    this.ownerAccess = check;
  }

  private admin: AdminDownloads | null = null;

  /**
   * Downloads from the team's admin transfers page (the spec's admin-dashboard flag): `mayAdminister` says whether
   * the signed-in caller is the owner's team manager or a TRANSFER_MANAGER of that team; `downloaded` records the
   * security event. The flag alone is never trusted: anyone else gets the normal download.
   */
  adminDownloads(admin: AdminDownloads): void {
    this.admin = admin;
  }

  private purchases: PurchaseGate | null = null;

  /** Under SCAN_POLICY=block, files not scanned yet are not served (null: no scanning, or background). */
  private blockPending = false;

  /** Virus scanning: infected files are never served; with `block`, pending ones are not either. */
  gateScans(policy: 'block' | 'background' | null): void {
    this.blockPending = policy === 'block';
    this.scanning = policy !== null;
  }

  private scanning = false;

  /** Refuses a file that the virus scan found infected or, under the block policy, has not scanned yet. */
  private checkScan(transfer: TransferRecord, file: TransferFileRecord | null): void {
    if (transfer.status === 'SCANNING')
      throw new AppError('FILE_SCANNING', 'The files are being checked for viruses: try again in a moment.');
    if (!file) return;
    if (file.scanStatus === 'infected')
      throw new AppError('FILE_INFECTED', 'This file was found infected by the virus scan and is blocked.', {
        details: { fileId: file.id },
      });
    if (this.blockPending && file.scanStatus === 'pending')
      throw new AppError('FILE_SCANNING', 'This file is being checked for viruses: try again in a moment.', {
        details: { fileId: file.id },
      });
  }

  /** The files a ZIP of the transfer holds: infected ones (and pending ones under the block policy) left out. */
  private async zipFiles(transfer: TransferRecord): Promise<TransferFileRecord[]> {
    this.checkScan(transfer, null);
    const files = await this.repo.files(transfer.id);
    const servable = files.filter(
      (f) => f.scanStatus !== 'infected' && !(this.blockPending && f.scanStatus === 'pending'),
    );
    if (zipEntries(servable).length === 0 && zipEntries(files).length > 0) {
      const blocked = files.find((f) => f.scanStatus === 'infected');
      this.checkScan(transfer, blocked ?? files.find((f) => f.scanStatus === 'pending') ?? null);
    }
    return servable;
  }

  private security: SecurityLog | null = null;

  /** Each counted download is written to the owner's team security log: one INSERT, nothing read first. */
  recordSecurity(log: SecurityLog): void {
    this.security = log;
  }

  /** Priced transfers are downloaded with a purchase token (their owner and team managers download freely). */
  requirePurchases(gate: PurchaseGate): void {
    this.purchases = gate;
  }

  /** The price of a transfer for this caller, and whether their token (or ownership) unlocks it. */
  private async purchaseState(
    transfer: TransferRecord,
    token: string | undefined,
    ctx: DownloadContext,
  ): Promise<{ price: { amount: number; currency: Currency } | null; purchased: boolean }> {
    if (transfer.priceAmount === null || transfer.priceCurrency === null)
      return { price: null, purchased: true };
    const price = { amount: transfer.priceAmount, currency: transfer.priceCurrency as Currency };
    if (await this.isOwner(transfer, ctx)) return { price, purchased: true };
    const purchased =
      token !== undefined && this.purchases !== null && (await this.purchases.unlocks(transfer.id, token));
    return { price, purchased };
  }

  private async isOwner(transfer: TransferRecord, ctx: DownloadContext): Promise<boolean> {
    return this.ownerAccess !== null && (await this.ownerAccess(transfer, ctx.viewerId ?? null));
  }

  private async checkReceived(transfer: TransferRecord, ctx: DownloadContext): Promise<void> {
    if (transfer.type !== 'S3') return;
    if (!(await this.isOwner(transfer, ctx)))
      throw new AppError('TRANSFER_NOT_FOUND', 'This transfer does not exist or is not yours to download.');
  }

  private previews: PreviewGate | null = null;

  /** In-page previews (link with preview=true): renditions, counted apart from downloads (PreviewService). */
  servePreviews(gate: PreviewGate): void {
    this.previews = gate;
  }

  /**
   * The checks of a download for what is not one (thumbnails): the transfer is open, S3 only for its owner, S1 only
   * with a personal link (or for its owner), the password given and right. Says whether a priced transfer is bought.
   */
  async viewerAccess(
    query: { transferId: string; password?: string; userSecret?: string; purchaseToken?: string },
    ctx: DownloadContext,
  ): Promise<{ transfer: TransferRecord; purchased: boolean }> {
    const transfer = await this.available(query.transferId, ctx);
    await this.checkReceived(transfer, ctx);
    await this.personalLink(transfer, query.userSecret, ctx);
    refuseBeforeWindow(transfer, this.now());
    refuseUnderReview(transfer);
    if (transfer.passwordHash) {
      if (query.password === undefined)
        throw new AppError('PASSWORD_REQUIRED', 'This transfer is protected by a password.');
      await this.checkPasswordOf(transfer, query.password, ctx);
    }
    const sale = await this.purchaseState(transfer, query.purchaseToken, ctx);
    return { transfer, purchased: sale.purchased };
  }

  /**
   * A transfer that may still be read from (status, expiry, owner not suspended, not under review), and the file
   * one of its renditions shows, checked as its download would be (never infected; scanned first under `block`).
   */
  async stillViewable(transferId: string, fileId: string): Promise<TransferRecord> {
    const transfer = await this.available(transferId);
    refuseBeforeWindow(transfer, this.now());
    refuseUnderReview(transfer);
    const file = await this.repo.file(transferId, fileId);
    if (!file?.uploadedAt) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
    this.checkScan(transfer, file);
    return transfer;
  }

  /** How the virus scan lets a file be shown as a thumbnail: `none` when infected, `pending` while it must wait. */
  scanView(transfer: TransferRecord, file: TransferFileRecord): 'shown' | 'pending' | 'none' {
    if (file.scanStatus === 'infected') return 'none';
    if (transfer.status === 'SCANNING' || (this.blockPending && file.scanStatus === 'pending'))
      return 'pending';
    return 'shown';
  }

  async info(
    query: { transferId: string; password?: string; userSecret?: string; purchaseToken?: string },
    ctx: DownloadContext,
  ): Promise<DownloadInfo> {
    const { transfer, loaded } = await this.availableWith(query.transferId, ctx, { files: true });
    await this.checkReceived(transfer, ctx);
    const recipient = await this.personalLink(transfer, query.userSecret, ctx);
    // Before the window opens nothing is shown, not even that the personal link was opened.
    refuseBeforeWindow(transfer, this.now());
    if (recipient) await this.notifications.recipientOpened(recipient);
    let locked = false;
    if (transfer.passwordHash) {
      if (query.password === undefined) locked = true;
      else await this.checkPasswordOf(transfer, query.password, ctx);
    }
    // Under review (shown as pending, spec §2): what may be the abuse (the message, the files) is withheld.
    const review = transfer.status === 'MODERATING';
    const files =
      locked || review
        ? []
        : (loaded ?? (await this.repo.files(transfer.id))).map((f) => ({
            ...toFile(f),
            scanStatus: f.scanStatus,
          }));
    const sale = await this.purchaseState(transfer, query.purchaseToken, ctx);
    return {
      transferId: transfer.id,
      name: transfer.name,
      message: locked || review ? null : transfer.message,
      senderName: transfer.senderName,
      status: transfer.status,
      expiresAt: transfer.expiresAt.toISOString(),
      passwordProtected: transfer.passwordHash !== null,
      locked,
      allowPreview: transfer.allowPreview,
      fileCount: transfer.fileCount,
      totalSize: transfer.totalSize,
      downloadsLeft:
        transfer.maxDownloads === null ? null : Math.max(0, transfer.maxDownloads - transfer.downloadCount),
      files,
      virusScan: this.scanning,
      downloaderEmailRequired: emailRequired(transfer),
      recipientEmail: recipient?.email ?? null,
      price: sale.price,
      purchased: sale.purchased,
      ...(this.brand ? await this.brand(transfer) : {}),
    };
  }

  /**
   * Checks a transfer's password for whoever may open it, as info and link do: an S1 transfer only with a personal
   * link's secret or for its owner, so the bare link gives no way to guess the password.
   */
  async checkPassword(
    request: { transferId: string; password: string; userSecret?: string },
    ctx: DownloadContext,
  ): Promise<void> {
    const transfer = await this.available(request.transferId, ctx);
    await this.checkReceived(transfer, ctx);
    await this.personalLink(transfer, request.userSecret, ctx);
    refuseBeforeWindow(transfer, this.now());
    refuseUnderReview(transfer);
    if (!transfer.passwordHash) return;
    await this.checkPasswordOf(transfer, request.password, ctx);
  }

  /** Issues a signed, short-lived URL for one file or the whole transfer as a ZIP; counts one download. */
  async link(rawQuery: DownloadLinkQuery, ctx: DownloadContext): Promise<DownloadLinkResponse> {
    const query = DownloadLinkQuery.parse(rawQuery);
    const { transfer, loaded } = query.fileId
      ? await this.availableWith(query.transferId, ctx, { fileId: query.fileId })
      : { transfer: await this.available(query.transferId, ctx), loaded: undefined };
    if (transfer.status === 'MODERATING' || !windowOpen(transfer, this.now())) {
      // Whoever may open it learns it is under review or when it opens (its owner and team admins too); anyone
      // else learns what they would of any transfer.
      await this.checkReceived(transfer, ctx);
      await this.personalLink(transfer, query.userSecret, ctx);
      refuseBeforeWindow(transfer, this.now());
      refuseUnderReview(transfer);
    }
    if (
      query['admin-dashboard'] &&
      ctx.viewerId &&
      this.admin &&
      (await this.admin.mayAdminister(transfer, ctx.viewerId))
    )
      return this.adminLink(transfer, query, ctx, ctx.viewerId);
    await this.checkReceived(transfer, ctx);
    const recipient = await this.personalLink(transfer, query.userSecret, ctx);
    if (transfer.passwordHash) {
      if (query.password === undefined)
        throw new AppError('PASSWORD_REQUIRED', 'This transfer is protected by a password.');
      await this.checkPasswordOf(transfer, query.password, ctx);
    }
    // After the password (a wrong one says so first), before anything is counted.
    const sale = await this.purchaseState(transfer, query.purchaseToken, ctx);
    if (!sale.purchased)
      throw new AppError('PAYMENT_REQUIRED', 'These files are for sale: buy them to download.', {
        details: {
          payUrl: this.purchases?.payUrl(transfer.id) ?? null,
          price: sale.price,
        },
      });
    let file: TransferFileRecord | null = null;
    if (query.fileId) {
      file = loaded !== undefined ? loaded : await this.repo.file(transfer.id, query.fileId);
      if (!file?.uploadedAt) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
    }
    if (file) this.checkScan(transfer, file);
    if (query.preview) {
      if (!transfer.allowPreview)
        throw new AppError('FORBIDDEN', 'Previews are turned off for this transfer.');
      // A preview is a rendition made for viewing, counted as a preview. Never the file's own bytes or the ZIP:
      // those are a download, with its count, its limits and its log.
      if (!file || !this.previews)
        throw new AppError('PREVIEW_NOT_AVAILABLE', 'No preview is available for this file.');
      return this.previews.previewLink(transfer, file, ctx);
    }
    const size = file ? file.size : buildZipLayout(zipEntries(await this.zipFiles(transfer))).totalSize;
    await this.checkDownloadAllowance(transfer, size);
    if (emailRequired(transfer) && !recipient && !query.downloaderEmail)
      throw new AppError('DOWNLOADER_EMAIL_REQUIRED', 'Give your e-mail address to download these files.');
    const confirm = this.notifications.wantsConfirmation(transfer);
    const downloadId = await this.repo.consumeDownload(transfer.id, {
      fileId: file?.id ?? null,
      kind: file ? 'file' : 'zip',
      downloaderEmail: query.downloaderEmail,
      // The recipient, not their link's secret, is what is kept.
      recipientId: recipient?.id,
      bytes: size,
      confirmation: confirm ? 'pending' : undefined,
      browserCode: query.browserCode,
      orderId: query.orderId,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
    });
    if (downloadId === null)
      throw new AppError('TOO_MANY_DOWNLOADS', 'This transfer has reached its download limit.');
    if (transfer.ownerId)
      await this.security?.record({
        userId: transfer.ownerId,
        action: 'transfer-downloaded',
        actorUserId: ctx.viewerId ?? null,
        // A signed-in downloader is named by their account; anyone else by the address they came with.
        actorLabel: ctx.viewerId ? null : (recipient?.email ?? query.downloaderEmail ?? null),
        ip: ctx.ip,
        userAgent: ctx.userAgent ?? null,
        target: transfer.id,
        details: { kind: file ? 'file' : 'zip', fileId: file?.id ?? null, bytes: size },
      });
    if (confirm) await this.notifications.downloaded(transfer.id, downloadId, query.browserCode);
    return this.signedLink(transfer, file, size, ctx);
  }

  /**
   * A team admin's download (admin-dashboard): no personal link, password or purchase asked (they manage the
   * transfer), held to the team's 7-day bytes and counted in them, but not against maxDownloads nor as a
   * recipient's download; the downloads row is marked admin and a transfer-downloaded event says admin: true.
   */
  private async adminLink(
    transfer: TransferRecord,
    query: ReturnType<typeof DownloadLinkQuery.parse>,
    ctx: DownloadContext,
    adminId: string,
  ): Promise<DownloadLinkResponse> {
    let file: TransferFileRecord | null = null;
    if (query.fileId) {
      file = await this.repo.file(transfer.id, query.fileId);
      if (!file?.uploadedAt) throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
    }
    if (file) this.checkScan(transfer, file);
    const size = file ? file.size : buildZipLayout(zipEntries(await this.zipFiles(transfer))).totalSize;
    await this.checkDownloadAllowance(transfer, size);
    await this.repo.consumeDownload(transfer.id, {
      fileId: file?.id ?? null,
      kind: file ? 'file' : 'zip',
      bytes: size,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      admin: true,
    });
    await this.admin!.downloaded(transfer, adminId, {
      fileId: file?.id ?? null,
      bytes: size,
      ip: ctx.ip,
      userAgent: ctx.userAgent ?? null,
    });
    return this.signedLink(transfer, file, size, ctx);
  }

  private signedLink(
    transfer: TransferRecord,
    file: TransferFileRecord | null,
    size: number,
    ctx: DownloadContext,
  ): DownloadLinkResponse {
    const expiresAt = Math.min(
      this.now().getTime() + this.linkTtlSeconds * 1000,
      transfer.expiresAt.getTime(),
    );
    const token = this.signer.sign({
      t: transfer.id,
      f: file?.id ?? null,
      e: expiresAt,
      g: transfer.accessEpoch,
    } satisfies BlobTokenPayload);
    return {
      url: `${ctx.origin}/api/transfer/downloads/blob/${token}`,
      fileName: file ? file.name : zipName(transfer),
      size,
      sha256: file?.sha256 ?? null,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** Resolves a signed link to the bytes it stands for; a disabled or expired transfer stops serving at once. */
  async body(token: string): Promise<DownloadBody> {
    const payload = this.signer.verify<BlobTokenPayload>(token);
    if (!payload || typeof payload.t !== 'string' || typeof payload.e !== 'number') {
      throw new AppError('TRANSFER_NOT_FOUND', 'This download link is not valid.');
    }
    if (payload.e < this.now().getTime())
      throw new AppError('TRANSFER_EXPIRED', 'This download link has expired.');
    const transfer = await this.available(payload.t);
    refuseBeforeWindow(transfer, this.now());
    refuseUnderReview(transfer);
    // URLs from before access was taken away (a recipient removed, a new password, the transfer disabled) die.
    if ((payload.g ?? 0) !== transfer.accessEpoch)
      throw new AppError('TRANSFER_NOT_FOUND', 'This download link was revoked: open the transfer again.');
    const etag = `"${transfer.id}-${payload.f ?? 'zip'}-${transfer.createdAt.getTime()}"`;
    if (payload.f) {
      const file = await this.repo.file(transfer.id, payload.f);
      if (!file?.uploadedAt || !file.blobKey)
        throw new AppError('FILE_NOT_FOUND', 'This transfer has no such file.');
      // A link issued before the scan found it infected (background policy) serves nothing.
      this.checkScan(transfer, file);
      const key = file.blobKey;
      return {
        fileName: file.name,
        contentType: 'application/octet-stream',
        size: file.size,
        lastModified: file.uploadedAt,
        etag,
        open: (range) => this.blobs.read(key, range),
        redirect: async () => {
          if (!this.blobs.presignedUrl) return null;
          // Short, and never past the link's own expiry or the transfer's.
          const now = this.now().getTime();
          const ms = Math.min(300_000, payload.e - now, transfer.expiresAt.getTime() - now);
          return this.blobs.presignedUrl(key, {
            fileName: file.name,
            contentType: 'application/octet-stream',
            expiresInSeconds: Math.max(1, Math.floor(ms / 1000)),
          });
        },
      };
    }
    const layout: ZipLayout = buildZipLayout(zipEntries(await this.zipFiles(transfer)));
    return {
      fileName: zipName(transfer),
      contentType: 'application/zip',
      size: layout.totalSize,
      lastModified: transfer.createdAt,
      // A file blocked by the scan since changes the ZIP: its validator too.
      etag: `"${transfer.id}-zip-${transfer.createdAt.getTime()}-${layout.totalSize}"`,
      redirect: async () => null, // the ZIP is assembled by Ferry, so it is always served from here
      open: async (range) =>
        streamZipRange(
          layout,
          (key, start, end) => this.blobs.read(key, { start, end }),
          range?.start ?? 0,
          range?.end ?? layout.totalSize - 1,
        ),
    };
  }

  /**
   * Spec §9 "7-day downloaded bytes": what may be downloaded from one account's transfers over a rolling week.
   * Checked before counting (a little over is possible when downloads race; it is a bandwidth budget, not a
   * security limit). Transfers without an owner are bounded by their own size and download limit.
   */
  private async checkDownloadAllowance(transfer: TransferRecord, size: number): Promise<void> {
    if (!transfer.ownerId) return;
    const plan = await this.planOf(transfer.ownerId);
    if (!plan) return;
    const max = PLAN_LIMITS[plan].downloadedBytes7Days;
    const since = new Date(this.now().getTime() - 7 * 86_400_000);
    const used = await this.repo.downloadedBytesSince(transfer.ownerId, since);
    if (used + size > max)
      throw new AppError('LIMIT_EXCEEDED', "The sender's download allowance for this week is used up.", {
        limitErrors: [{ limit: 'downloadedBytes7Days', max, actual: used + size }],
      });
  }

  /**
   * The recipient a personal link (`userSecret`) belongs to. A secret that is no recipient's (any more: the
   * sender removed them) is refused, so a removed recipient's personal link stops working. An S1 transfer opens
   * only with a secret — a recipient's, or the sender's own — or for its signed-in owner (or team manager).
   */
  private async personalLink(transfer: TransferRecord, userSecret: string | undefined, ctx: DownloadContext) {
    if (!userSecret) {
      if (transfer.type === 'S1' && !(await this.isOwner(transfer, ctx)))
        throw new AppError(
          'TRANSFER_NOT_FOUND',
          'This transfer was sent by e-mail: open it with the personal link of your e-mail.',
        );
      return null;
    }
    if (this.notifications.isSenderSecret(transfer, userSecret)) return null;
    const recipient = await this.notifications.recipientBySecret(transfer.id, userSecret);
    if (!recipient) throw new AppError('TRANSFER_NOT_FOUND', 'This personal link is not valid (any more).');
    return recipient;
  }

  private releaseDue: ((transferId: string) => Promise<unknown>) | null = null;

  /**
   * How a PENDING transfer whose moment passed is released when a downloader comes before its job or the sweep
   * did (TransferService.releaseHeld): the page that reloads at the opening finds it open.
   */
  releasePendingWith(release: (transferId: string) => Promise<unknown>): void {
    this.releaseDue = release;
  }

  /**
   * The transfer a download call names: by its id, or by its custom link in any case — resolved once here, so
   * every check and count after works on the real id. Custom links can be guessed: an address that names too many
   * that answer nothing is stopped for a while (429).
   */
  private async resolve(ref: string, ctx?: DownloadContext): Promise<TransferRecord | null> {
    if (TransferId.safeParse(ref).success || !ctx) return this.repo.find(ref);
    const key = `custom-link-miss:${ctx.ip}`;
    const seen = await this.limiter.peek(key);
    if (seen.count >= CUSTOM_LINK_MISSES.attempts)
      throw new AppError(
        'RATE_LIMITED',
        'Too many links that lead nowhere from your address; wait a while.',
        {
          retryAfterSeconds: seen.retryAfterSeconds,
        },
      );
    const transfer = await this.repo.findByCustomLink(ref);
    if (!transfer) await this.limiter.hit(key, CUSTOM_LINK_MISSES.attempts, CUSTOM_LINK_MISSES.windowSeconds);
    return transfer;
  }

  private async available(ref: string, ctx?: DownloadContext): Promise<TransferRecord> {
    let transfer = await this.resolve(ref, ctx);
    if (
      transfer?.status === 'PENDING' &&
      this.releaseDue &&
      (!transfer.availableFrom || transfer.availableFrom.getTime() <= this.now().getTime())
    ) {
      await this.releaseDue(transfer.id);
      transfer = await this.repo.find(transfer.id);
    }
    return this.checkAvailable(transfer);
  }

  /**
   * As `available`, with the files a call needs read in the same look-up (one round trip): one file (`fileId`) or
   * all of them. `loaded` is undefined when they could not be (a custom link, a PENDING transfer being released):
   * the caller reads them then.
   */
  private async availableWith<W extends { fileId: string } | { files: true }>(
    ref: string,
    ctx: DownloadContext,
    want: W,
  ): Promise<{
    transfer: TransferRecord;
    loaded?: W extends { fileId: string } ? TransferFileRecord | null : TransferFileRecord[];
  }> {
    type Loaded = W extends { fileId: string } ? TransferFileRecord | null : TransferFileRecord[];
    if (TransferId.safeParse(ref).success) {
      const found =
        'fileId' in want
          ? await this.repo
              .findWithFile(ref, want.fileId)
              .then((r) => r && { transfer: r.transfer, loaded: r.file })
          : await this.repo.findWithFiles(ref).then((r) => r && { transfer: r.transfer, loaded: r.files });
      if (found?.transfer.status !== 'PENDING')
        return {
          transfer: await this.checkAvailable(found?.transfer ?? null),
          loaded: found?.loaded as Loaded,
        };
    }
    return { transfer: await this.available(ref, ctx) };
  }

  /** The checks every way to a transfer's bytes passes (info, password check, link, blob, ZIP). */
  private async checkAvailable(transfer: TransferRecord | null): Promise<TransferRecord> {
    if (!transfer || transfer.status === 'UPLOADING' || transfer.status === 'CLONING') {
      throw new AppError('TRANSFER_NOT_FOUND', 'This transfer does not exist or is not ready yet.');
    }
    if (transfer.status === 'DISABLED' || transfer.status === 'DELETED' || transfer.status === 'RETAINED') {
      throw new AppError('TRANSFER_DISABLED', 'This transfer is no longer available.');
    }
    if (transfer.expiresAt.getTime() <= this.now().getTime())
      throw new AppError('TRANSFER_EXPIRED', 'This transfer has expired.');
    // Lifting the suspension is enough for all of them to work again, links issued before included.
    if (transfer.ownerId && (await this.ownerSuspended(transfer.ownerId)))
      throw new AppError(
        'ACCOUNT_SUSPENDED',
        "The sender's account is suspended: these files cannot be downloaded now.",
      );
    return transfer;
  }

  private guessingStopped: ((transfer: TransferRecord, info: GuessingStopped) => Promise<void>) | null = null;

  /** Who hears that a transfer's password was guessed at so often that it now refuses every password. */
  onPasswordGuessing(handler: (transfer: TransferRecord, info: GuessingStopped) => Promise<void>): void {
    this.guessingStopped = handler;
  }

  /**
   * Every guess is counted per transfer and address, and failures per transfer from everywhere: past either,
   * 429 (past the second, for every address and the right password too, until the window ends). A right
   * password clears that address's count. Right and wrong guesses cost the same argon2 verification.
   */
  private async checkPasswordOf(
    transfer: TransferRecord,
    password: string,
    ctx: DownloadContext,
  ): Promise<void> {
    await new PasswordGuard(this.limiter, this.policy, this.now).check(
      `pw:${transfer.id}`,
      ctx.ip,
      () => this.passwords.verify(transfer.passwordHash!, password),
      async (info) => this.guessingStopped?.(transfer, info),
    );
  }
}

/** Custom-link lookups that find nothing, per client address: past this many in the window, 429. */
const CUSTOM_LINK_MISSES = { attempts: 30, windowSeconds: 600 };

/** Whether the availability window is open: its moment passed, and the transfer is not PENDING any more. */
function windowOpen(transfer: TransferRecord, now: Date): boolean {
  if (transfer.status === 'PENDING') return false;
  return !transfer.availableFrom || transfer.availableFrom.getTime() <= now.getTime();
}

/** Before its window opens a transfer shows nothing: 403 NOT_YET_AVAILABLE, with the moment it opens. */
function refuseBeforeWindow(transfer: TransferRecord, now: Date): void {
  if (windowOpen(transfer, now)) return;
  throw new AppError(
    'NOT_YET_AVAILABLE',
    'These files are not available yet: they open at the date the sender chose.',
    { details: { availableFrom: (transfer.availableFrom ?? now).toISOString() } },
  );
}

/** Every way to the bytes stops while an operator reviews the transfer (MODERATING). */
function refuseUnderReview(transfer: TransferRecord): void {
  if (transfer.status === 'MODERATING')
    throw new AppError(
      'TRANSFER_UNDER_REVIEW',
      'This transfer is being reviewed: it cannot be downloaded now.',
    );
}

/** An S2 transfer whose sender wants to know who downloads: the downloader gives an e-mail address first. */
function emailRequired(transfer: TransferRecord): boolean {
  return transfer.type === 'S2' && transfer.forceEmailWhenDownloadS2;
}

function zipName(transfer: TransferRecord): string {
  const base = (transfer.name ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it strips
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${base || `ferry-${transfer.id}`}.zip`;
}

/** ZIP entries for the uploaded files: folders kept, duplicate paths renamed "name (2).ext". */
export function zipEntries(files: TransferFileRecord[]) {
  const used = new Set<string>();
  const entries = [];
  for (const f of files) {
    if (!f.uploadedAt || !f.blobKey || f.crc32 === null) continue;
    const wanted = f.relativePath ?? f.name;
    let name = wanted;
    for (let n = 2; used.has(name.toLowerCase()); n++) {
      const dot = wanted.lastIndexOf('.');
      const slash = wanted.lastIndexOf('/');
      name = dot > slash + 1 ? `${wanted.slice(0, dot)} (${n})${wanted.slice(dot)}` : `${wanted} (${n})`;
    }
    used.add(name.toLowerCase());
    entries.push({ name, size: f.size, crc32: f.crc32, modifiedAt: f.uploadedAt, key: f.blobKey });
  }
  return entries;
}
