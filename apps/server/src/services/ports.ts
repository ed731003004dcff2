import type {
  RecipientDeliveryState,
  ScanStatus,
  SenderVerificationState,
  TransferEventType,
  TransferStatus,
  TransferType,
} from '@ferry/core';

export interface TransferRecord {
  id: string;
  type: TransferType;
  status: TransferStatus;
  name: string | null;
  message: string | null;
  passwordHash: string | null;
  uploadTokenHash: string;
  ownerId: string | null;
  senderEmail: string | null;
  senderName: string | null;
  locale: string | null;
  /** The sender's IANA time zone, for dates in e-mails (UTC when null). */
  timeZone: string | null;
  allowPreview: boolean;
  maxDownloads: number | null;
  downloadCount: number;
  totalSize: number;
  fileCount: number;
  expiresAt: Date;
  createdAt: Date;
  downloadConfirmation: boolean;
  expiryReminder: boolean;
  notifySummary: boolean;
  forceEmailWhenDownloadS2: boolean;
  senderVerification: SenderVerificationState;
  sentAt: Date | null;
  remindedFor: Date | null;
  /** The public origin at creation, for information only: links are built from the public origin of today. */
  origin: string | null;
  /** The owner's verified host the transfer was made on (links use it); null or absent: PUBLIC_URL. */
  host?: string | null;
  expiredAt: Date | null;
  storageRegion: string | null;
  /** Objects stored with SSE-C under this transfer's derived key (STORAGE=s3 with a key file, not disableSSEC). */
  sseC: boolean;
  /** Raised whenever access is taken away (recipient removed, password changed, disabled): older URLs die. */
  accessEpoch: number;
  /** A priced transfer (minor units, VAT excluded) is downloaded after a purchase; null: free. */
  priceAmount: number | null;
  priceCurrency: string | null;
  /**
   * The client address that created an anonymous transfer, while its upload is unfinished (cleared when it leaves
   * UPLOADING): the holds read it at their `uploaded` phase.
   */
  clientIp?: string | null;
  /** A RETAINED transfer's files are kept until then (RETENTION_DAYS), then purged. */
  retainedUntil?: Date | null;
  /** The link preview its sender chose (spec §3 open-graph customization); null or absent: the defaults. */
  ogTitle?: string | null;
  ogDescription?: string | null;
  /** The sender's custom link (`/dl/{customLink}`, stored lowercase); null: none. */
  customLink?: string | null;
  /** The availability window's start: the transfer is PENDING until then; null: open once uploaded. */
  availableFrom?: Date | null;
}

/** Another transfer already answers at this custom link (the unique index said so, races included). */
export class CustomLinkTaken extends Error {
  constructor(readonly link: string) {
    super(`custom link taken: ${link}`);
  }
  /** Spec §3 transfer form `customization` (CustomizationService.check); null: the account theme alone. */
  customization?: Record<string, unknown> | null;
}

/** Creating a transfer would take its owner past their storage limit. */
export class StorageQuotaExceeded extends Error {
  constructor(
    readonly used: number,
    readonly max: number,
  ) {
    super(`storage quota exceeded: ${used} of ${max} bytes in use`);
  }
}

/** An anonymous creation would take its client address past the cap on declared but unfinished bytes. */
export class PendingUploadsExceeded extends Error {
  constructor(
    readonly pending: number,
    readonly max: number,
  ) {
    super(`pending uploads exceeded: ${pending} of ${max} declared bytes unfinished`);
  }
}

/** What a new transfer row holds; the rest (counters, timestamps of later steps) starts empty. */
export type NewTransferRecord = Omit<
  TransferRecord,
  'downloadCount' | 'createdAt' | 'sentAt' | 'remindedFor' | 'expiredAt' | 'accessEpoch'
>;

export interface RecipientRecord {
  id: number;
  transferId: string;
  position: number;
  email: string;
  remindersOff: boolean;
}

/** A recipient as the sender sees them: their e-mail's delivery and their first download. */
export interface RecipientView extends RecipientRecord {
  delivery: Exclude<RecipientDeliveryState, 'waiting' | 'queued'> | 'sending' | 'transmitting' | null;
  deliveryError: string | null;
  downloadedAt: Date | null;
}

export interface TransferFileRecord {
  transferId: string;
  id: string;
  /** Order the sender listed the files in. */
  position: number;
  name: string;
  relativePath: string | null;
  size: number;
  sha256: string | null;
  crc32: number | null;
  uploadId: string | null;
  blobKey: string | null;
  uploadedAt: Date | null;
  createdAt: Date;
  /** The virus scan's status (scan/); not-scanned without clamd. */
  scanStatus: ScanStatus;
}

/** A file row as it is first stored: its scan status is not-scanned unless given (a clone keeps its source's). */
export type NewTransferFileRecord = Omit<TransferFileRecord, 'createdAt' | 'scanStatus'> & {
  scanStatus?: ScanStatus;
};

export interface NewTransferEvent {
  type: TransferEventType;
  actor: string;
  data?: Record<string, unknown>;
}

export interface DownloadRecord {
  fileId: string | null;
  kind: 'file' | 'zip';
  downloaderEmail?: string;
  userSecret?: string;
  /**
   * Link calls with the same browser code (one page visit, one CLI run) count as one download — from the same
   * client (address and user agent) and within `VISIT_WINDOW_SECONDS` of the visit's first count only.
   */
  browserCode?: string;
  orderId?: string;
  ip?: string;
  userAgent?: string;
  /** The S1 recipient whose personal link was used. */
  recipientId?: number;
  /** Bytes handed out by this link call (the file, or the whole ZIP). */
  bytes?: number;
  /** 'pending' when the sender wants a confirmation of this download. */
  confirmation?: 'pending';
  /**
   * A download from the team's admin transfers page by the manager or a transfer manager: recorded (and counted
   * in the 7-day bytes) but not against maxDownloads, nor as a recipient's or a visit's download.
   */
  admin?: boolean;
}

/**
 * How long a visit (`browserCode`) counted once is not counted again: a fixed window from its first count, after
 * which the next link call counts again (and starts a new window). One page visit or CLI run fits in it.
 */
export const VISIT_WINDOW_SECONDS = 3600;

/** Persistence of transfers, their files and events. */
export interface TransferRepository {
  create(
    transfer: NewTransferRecord,
    files: NewTransferFileRecord[],
    events: NewTransferEvent[],
    recipients?: Array<{ email: string; secretHash: string }>,
    /** Checked and inserted under a per-team lock (a team is its manager's uid): racing creations never pass the limit together. */
    quota?: { teamId: string; maxBytes: number },
    /**
     * An anonymous creation: its client address is kept while the upload is unfinished, and the bytes its
     * unfinished transfers declare are checked against `maxPendingBytes` in the statement that stores it (a
     * running total per address, exact across instances).
     */
    anonymous?: { clientIp: string; maxPendingBytes: number },
  ): Promise<void>;
  find(id: string): Promise<TransferRecord | null>;
  /** A transfer with one of its files (null: it has no such file), in one look-up; null: no such transfer. */
  findWithFile(
    id: string,
    fileId: string,
  ): Promise<{ transfer: TransferRecord; file: TransferFileRecord | null } | null>;
  /** A transfer with its files in their order, in one look-up; null: no such transfer. */
  findWithFiles(id: string): Promise<{ transfer: TransferRecord; files: TransferFileRecord[] } | null>;
  /** The transfer answering at a custom link, compared case-insensitively; null when none does. */
  findByCustomLink(link: string): Promise<TransferRecord | null>;
  /** PENDING transfers whose window opened at or before `now` (a lost release job's), oldest first. */
  pendingDue(now: Date, limit: number): Promise<string[]>;
  files(transferId: string): Promise<TransferFileRecord[]>;
  file(transferId: string, fileId: string): Promise<TransferFileRecord | null>;
  /** Binds a tus upload id to a file that has none yet (or the same one); false when another is bound. */
  bindUpload(transferId: string, fileId: string, uploadId: string): Promise<boolean>;
  markFileUploaded(
    transferId: string,
    fileId: string,
    digest: { sha256: string; crc32: number; blobKey: string },
  ): Promise<boolean>;
  /** Clears a file's upload so it can be sent again. */
  resetFile(transferId: string, fileId: string): Promise<void>;
  /** Moves UPLOADING → ENABLED and records the events, atomically; false if it was not UPLOADING. */
  /**
   * UPLOADING (or, with `from`, one of those statuses) → ENABLED, with the events, in one transaction; false when
   * the transfer was not in such a status.
   */
  enable(transferId: string, events: NewTransferEvent[], from?: TransferStatus[]): Promise<boolean>;
  /** Moves a transfer from one of `from` to a held status (SCANNING, MODERATING), with the events; false if not there. */
  hold(
    transferId: string,
    status: TransferStatus,
    events: NewTransferEvent[],
    from: TransferStatus[],
  ): Promise<boolean>;
  /**
   * Counts one download when the limit allows it, atomically: exact however many requests race.
   * Returns the download's id, or null when the limit was already reached.
   */
  consumeDownload(transferId: string, download: DownloadRecord): Promise<number | null>;
  addEvent(transferId: string, event: NewTransferEvent): Promise<void>;
  /**
   * Bytes still stored (not expired, not deleted) by a team: its manager's transfers and its members'. An
   * account without a manager is the team of its uid.
   */
  storageUsed(teamId: string): Promise<number>;
  /** Bytes downloaded from the owner's transfers since `since`. */
  downloadedBytesSince(ownerId: string, since: Date): Promise<number>;
  events(transferId: string): Promise<Array<NewTransferEvent & { createdAt: Date }>>;
  /**
   * Runs `work` in one transaction holding the transfer's row lock (SELECT … FOR UPDATE), with a repository
   * bound to that transaction; other lockers of the same transfer wait.
   */
  withTransferLock<T>(transferId: string, work: (repo: TransferRepository) => Promise<T>): Promise<T>;
  /**
   * Transfers still UPLOADING that were created before `before` (abandoned uploads), oldest first; with
   * `anonymousOnly`, only those without an owner.
   */
  unfinishedBefore(before: Date, limit: number, anonymousOnly?: boolean): Promise<TransferRecord[]>;
  /** Deletes a transfer with its files and events; false when it was gone or no longer UPLOADING. */
  deleteUnfinished(transferId: string): Promise<boolean>;
}

/** Counts attempts per key within a window (password guesses, …); shared by every instance when scaled out. */
export interface RateLimiter {
  /** Records one attempt; says whether it is allowed and, if not, when to retry. */
  hit(
    key: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{
    allowed: boolean;
    retryAfterSeconds: number /** This attempt's number in the window. */;
    count: number;
  }>;
  /** Where a key's window stands, without counting an attempt: attempts so far and seconds until it ends. */
  peek(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  reset(key: string): Promise<void>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Per-file scan statuses and events (db/scan.repository.ts). */
export interface ScanRepository {
  /** Marks files pending, with the SCAN_STARTED event. */
  start(transferId: string, fileIds: string[], event: NewTransferEvent): Promise<void>;
  /** A verdict, only while the file is pending; says how many of the transfer's files are still pending. */
  record(
    transferId: string,
    fileId: string,
    status: Exclude<ScanStatus, 'pending'>,
    signature: string | null,
    event: NewTransferEvent | null,
  ): Promise<{ changed: boolean; pendingLeft: number }>;
  pending(): Promise<Array<{ transferId: string; fileId: string }>>;
  scanningWithoutPending(): Promise<string[]>;
  /** Scanning turned off: pending files become not-scanned; returns the transfers still SCANNING. */
  abandonPending(): Promise<string[]>;
}
