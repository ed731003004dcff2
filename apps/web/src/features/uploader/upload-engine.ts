import type { TransferSummary } from '@ferry/core';
import { ApiError, NetworkError } from '../../lib/api';
import type { CompletedFile } from '../../lib/transfer-api';
import type { FileHasher } from './hash/hasher';
import { SpeedEstimator } from './speed-estimator';

/** Where files of one transfer are uploaded (from the create response, or the saved unfinished transfer). */
export interface UploadTarget {
  transferId: string;
  uploadToken: string;
  uploadEndpoint: string;
}

/** One file of the transfer; `file` is null for a file the server already holds and the user did not re-add. */
export interface EngineFile {
  id: string;
  name: string;
  relativePath: string | null;
  size: number;
  file: File | null;
  uploaded: boolean;
}

export interface TransportCallbacks {
  onProgress(bytesSent: number): void;
  onSuccess(): void;
  onError(error: unknown): void;
  /** A request failed and will be tried again after a delay (connection lost, server error). */
  onRetry(error: unknown): void;
}

export interface TransportUpload {
  /** Starts, or continues after pause(); a first start resumes a stored upload unless `fresh`. */
  start(): void;
  pause(): Promise<void>;
}

/** Uploads one file (tus in the app, a fake in tests). */
export interface UploadTransport {
  create(
    target: UploadTarget,
    file: EngineFile & { file: File },
    callbacks: TransportCallbacks,
    fresh: boolean,
  ): TransportUpload;
}

export interface NetworkStatus {
  isOnline(): boolean;
  /** Calls back when the browser goes on- or offline; returns the unsubscribe function. */
  subscribe(listener: (online: boolean) => void): () => void;
}

/** `S`: what completion answers (a transfer's summary, or a receive upload's receipt). */
export interface UploadEngineDeps<S = TransferSummary> {
  target: UploadTarget;
  files: readonly EngineFile[];
  transport: UploadTransport;
  hasher: FileHasher | null;
  complete(target: UploadTarget, files: CompletedFile[]): Promise<S>;
  network?: NetworkStatus;
  /** Files uploading at once. */
  concurrency?: number;
  now?: () => number;
  /** How progress-only changes are batched before listeners hear of them. */
  scheduleEmit?: (emit: () => void) => void;
  onFinished?: (summary: S) => void;
}

export type FileUploadStatus = 'queued' | 'uploading' | 'retrying' | 'paused' | 'uploaded' | 'failed';
export type HashStatus = 'pending' | 'hashing' | 'done' | 'failed' | 'skipped';
export type UploadPhase = 'uploading' | 'paused' | 'finishing' | 'done' | 'failed';
export type ConnectionState = 'online' | 'retrying' | 'offline';

export interface FileProgress {
  id: string;
  name: string;
  relativePath: string | null;
  size: number;
  sent: number;
  status: FileUploadStatus;
  hashStatus: HashStatus;
  hashedBytes: number;
  sha256: string | null;
  error: unknown;
  /** The server found a different SHA-256 for this file: it must be uploaded again. */
  checksumMismatch: boolean;
  /** The file is not in the page (resumed transfer): it cannot be uploaded again from here. */
  missingLocally: boolean;
}

export interface UploadSnapshot<S = TransferSummary> {
  phase: UploadPhase;
  files: readonly FileProgress[];
  totalBytes: number;
  sentBytes: number;
  hashTotalBytes: number;
  hashedBytes: number;
  bytesPerSecond: number | null;
  secondsLeft: number | null;
  connection: ConnectionState;
  summary: S | null;
  /** The last error that stopped the transfer from finishing (completion or a file). */
  error: unknown;
}

interface FileEntry extends FileProgress {
  file: File | null;
  attempt: number;
  hashRun: number;
  fresh: boolean;
  waitingForNetwork: boolean;
}

const DEFAULT_CONCURRENCY = 3;

function browserNetwork(): NetworkStatus {
  return {
    isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
    subscribe(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    },
  };
}

function detailFileIds(error: ApiError): string[] {
  const files = error.details.files;
  if (!Array.isArray(files)) return [];
  return files
    .map((f: unknown) => (typeof f === 'string' ? f : (f as { id?: unknown } | null)?.id))
    .filter((id): id is string => typeof id === 'string');
}

/**
 * Runs the upload of one transfer: a few files at a time over the transport, each file's SHA-256 computed
 * beside it, then completion with the client's checksums. Knows nothing of React: the page subscribes to
 * snapshots (useSyncExternalStore).
 */
export class UploadEngine<S = TransferSummary> {
  private readonly entries: FileEntry[];
  private readonly byId = new Map<string, FileEntry>();
  private readonly queue: string[] = [];
  private readonly active = new Map<string, TransportUpload>();
  private readonly listeners = new Set<() => void>();
  private readonly estimator = new SpeedEstimator();
  private readonly network: NetworkStatus;
  private readonly concurrency: number;
  private readonly now: () => number;
  private readonly scheduleEmit: (emit: () => void) => void;
  private unsubscribeNetwork: (() => void) | null = null;
  private online = true;
  private started = false;
  private paused = false;
  private completing = false;
  private disposed = false;
  private emitPending = false;
  private summary: S | null = null;
  private error: unknown = null;
  private snapshot: UploadSnapshot<S>;

  constructor(private readonly deps: UploadEngineDeps<S>) {
    this.network = deps.network ?? browserNetwork();
    this.concurrency = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
    this.now = deps.now ?? (() => Date.now());
    this.scheduleEmit = deps.scheduleEmit ?? ((emit) => setTimeout(emit, 200));
    this.entries = deps.files.map((f) => ({
      id: f.id,
      name: f.name,
      relativePath: f.relativePath,
      size: f.size,
      sent: f.uploaded ? f.size : 0,
      status: f.uploaded ? 'uploaded' : 'queued',
      hashStatus: f.file && deps.hasher ? 'pending' : 'skipped',
      hashedBytes: 0,
      sha256: null,
      error: null,
      checksumMismatch: false,
      missingLocally: f.file === null,
      file: f.file,
      attempt: 0,
      hashRun: 0,
      fresh: false,
      waitingForNetwork: false,
    }));
    for (const entry of this.entries) this.byId.set(entry.id, entry);
    this.snapshot = this.buildSnapshot();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): UploadSnapshot<S> => this.snapshot;

  get transferId(): string {
    return this.deps.target.transferId;
  }

  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.online = this.network.isOnline();
    this.unsubscribeNetwork = this.network.subscribe((online) => this.onNetworkChange(online));
    for (const entry of this.entries) {
      if (entry.status !== 'uploaded') {
        if (entry.file) this.queue.push(entry.id);
        else this.fail(entry, new Error('file missing'));
      }
      this.hash(entry);
    }
    this.pump();
    this.changed();
    this.maybeComplete();
  }

  pause(): void {
    if (this.paused || this.disposed || this.summary) return;
    this.paused = true;
    const running = [...this.active.entries()];
    this.active.clear();
    for (const [id, upload] of running.reverse()) {
      const entry = this.byId.get(id);
      if (!entry) continue;
      entry.attempt++;
      entry.status = 'paused';
      this.queue.unshift(id);
      upload.pause().catch(() => undefined);
    }
    this.estimator.reset();
    this.changed();
  }

  resume(): void {
    if (!this.paused || this.disposed) return;
    this.paused = false;
    this.estimator.reset();
    for (const entry of this.entries) if (entry.status === 'paused') entry.status = 'queued';
    this.pump();
    this.changed();
  }

  /** Uploads a failed file again; after a checksum mismatch it starts over and is hashed again. */
  retryFile(id: string): void {
    const entry = this.byId.get(id);
    if (!entry || this.disposed || entry.status !== 'failed' || !entry.file) return;
    if (entry.checksumMismatch) {
      entry.fresh = true;
      entry.sent = 0;
      entry.sha256 = null;
      entry.hashedBytes = 0;
      entry.hashStatus = this.deps.hasher ? 'pending' : 'skipped';
      this.hash(entry);
    }
    entry.status = 'queued';
    entry.error = null;
    entry.checksumMismatch = false;
    entry.waitingForNetwork = false;
    this.error = null;
    this.queue.push(id);
    this.pump();
    this.changed();
  }

  /** The one "try again" of the page: every failed file, or the completion call. */
  retry(): void {
    const failed = this.entries.filter((e) => e.status === 'failed' && e.file);
    for (const entry of failed) this.retryFile(entry.id);
    if (failed.length === 0 && !this.summary) {
      this.error = null;
      this.changed();
      this.maybeComplete();
    }
  }

  /** Re-measures speed even when no progress arrives, so a stall shows as one. */
  tick(): void {
    if (this.paused || this.active.size === 0) return;
    this.estimator.sample(this.sentBytes(), this.now());
    this.changed();
  }

  /** Stops everything (leaving the page, cancelling); tus keeps what was sent for a later resume. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribeNetwork?.();
    for (const upload of this.active.values()) upload.pause().catch(() => undefined);
    this.active.clear();
    this.queue.length = 0;
    this.deps.hasher?.dispose();
    this.listeners.clear();
  }

  private pump(): void {
    if (this.paused || this.disposed) return;
    while (this.active.size < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift();
      const entry = id ? this.byId.get(id) : undefined;
      if (entry && entry.status !== 'uploaded') this.startUpload(entry);
    }
  }

  private startUpload(entry: FileEntry): void {
    const file = entry.file;
    if (!file) return;
    const attempt = ++entry.attempt;
    const current = () => entry.attempt === attempt && !this.disposed;
    entry.status = 'uploading';
    entry.error = null;
    const fresh = entry.fresh;
    entry.fresh = false;
    const upload = this.deps.transport.create(
      this.deps.target,
      { ...entry, file, uploaded: false },
      {
        onProgress: (sent) => {
          if (!current()) return;
          entry.sent = Math.min(sent, entry.size);
          if (entry.status === 'retrying') {
            entry.status = 'uploading';
            this.changed();
          }
          this.progressed();
        },
        onSuccess: () => {
          if (!current()) return;
          this.active.delete(entry.id);
          entry.sent = entry.size;
          entry.status = 'uploaded';
          this.pump();
          this.changed();
          this.maybeComplete();
        },
        onError: (error) => {
          if (!current()) return;
          this.active.delete(entry.id);
          this.fail(entry, error);
          entry.waitingForNetwork = !this.network.isOnline();
          this.pump();
          this.changed();
        },
        onRetry: () => {
          if (!current()) return;
          entry.status = 'retrying';
          this.changed();
        },
      },
      fresh,
    );
    this.active.set(entry.id, upload);
    upload.start();
  }

  private fail(entry: FileEntry, error: unknown): void {
    entry.status = 'failed';
    entry.error = error;
  }

  private hash(entry: FileEntry): void {
    const hasher = this.deps.hasher;
    const file = entry.file;
    if (!hasher || !file || entry.hashStatus !== 'pending') return;
    entry.hashStatus = 'hashing';
    const run = ++entry.hashRun;
    const stale = () => this.disposed || entry.hashRun !== run;
    hasher
      .hash(file, (hashedBytes) => {
        if (stale()) return;
        entry.hashedBytes = hashedBytes;
        this.progressed();
      })
      .then(
        (sha256) => {
          if (stale()) return;
          entry.sha256 = sha256;
          entry.hashedBytes = entry.size;
          entry.hashStatus = 'done';
        },
        (error: unknown) => {
          if (stale()) return;
          // Without a client checksum the server's own still guards the bytes; the transfer goes on.
          console.warn(`SHA-256 of ${entry.name} could not be computed`, error);
          entry.hashStatus = 'failed';
        },
      )
      .finally(() => {
        if (stale()) return;
        this.changed();
        this.maybeComplete();
      });
  }

  private maybeComplete(): void {
    if (this.completing || this.summary || this.disposed || this.error) return;
    if (!this.entries.every((e) => e.status === 'uploaded')) return;
    if (this.entries.some((e) => e.hashStatus === 'pending' || e.hashStatus === 'hashing')) return;
    this.completing = true;
    this.changed();
    const files: CompletedFile[] = this.entries.map((e) =>
      e.sha256 ? { id: e.id, sha256: e.sha256 } : { id: e.id },
    );
    this.deps.complete(this.deps.target, files).then(
      (summary) => {
        this.completing = false;
        if (this.disposed) return;
        this.summary = summary;
        this.unsubscribeNetwork?.();
        this.changed();
        this.deps.onFinished?.(summary);
      },
      (error: unknown) => {
        this.completing = false;
        if (this.disposed) return;
        this.error = error;
        if (error instanceof ApiError && error.hasCode('CHECKSUM_MISMATCH')) {
          for (const id of detailFileIds(error)) {
            const entry = this.byId.get(id);
            if (!entry) continue;
            this.fail(entry, error);
            entry.checksumMismatch = true;
            entry.sent = 0;
          }
        } else if (error instanceof ApiError && error.hasCode('UPLOAD_INCOMPLETE')) {
          for (const id of detailFileIds(error)) {
            const entry = this.byId.get(id);
            if (entry) this.fail(entry, error);
          }
        }
        this.changed();
      },
    );
  }

  private onNetworkChange(online: boolean): void {
    this.online = online;
    if (online && !this.disposed) {
      for (const entry of this.entries) {
        if (entry.status === 'failed' && entry.waitingForNetwork) this.retryFile(entry.id);
      }
      if (this.error instanceof NetworkError) this.retry();
    }
    this.changed();
  }

  private sentBytes(): number {
    return this.entries.reduce((sum, e) => sum + e.sent, 0);
  }

  private phase(): UploadPhase {
    if (this.summary) return 'done';
    if (this.completing) return 'finishing';
    if (this.paused) return 'paused';
    if (this.active.size > 0 || this.queue.length > 0) return 'uploading';
    if (this.error || this.entries.some((e) => e.status === 'failed')) return 'failed';
    return this.entries.every((e) => e.status === 'uploaded') ? 'finishing' : 'uploading';
  }

  private connection(): ConnectionState {
    if (!this.online) return 'offline';
    return this.entries.some((e) => e.status === 'retrying') ? 'retrying' : 'online';
  }

  private buildSnapshot(): UploadSnapshot<S> {
    const sentBytes = this.sentBytes();
    const totalBytes = this.entries.reduce((sum, e) => sum + e.size, 0);
    const hashed = this.entries.filter((e) => e.hashStatus !== 'skipped');
    const phase = this.phase();
    return {
      phase,
      files: this.entries.map(
        ({ file: _f, attempt: _a, hashRun: _h, fresh: _r, waitingForNetwork: _w, ...rest }) => rest,
      ),
      totalBytes,
      sentBytes,
      hashTotalBytes: hashed.reduce((sum, e) => sum + e.size, 0),
      hashedBytes: hashed.reduce((sum, e) => sum + e.hashedBytes, 0),
      bytesPerSecond: phase === 'uploading' ? this.estimator.bytesPerSecond() : null,
      secondsLeft: phase === 'uploading' ? this.estimator.secondsLeft(totalBytes - sentBytes) : null,
      connection: this.connection(),
      summary: this.summary,
      error: this.error,
    };
  }

  private changed(): void {
    if (this.disposed) return;
    this.snapshot = this.buildSnapshot();
    for (const listener of [...this.listeners]) listener();
  }

  private progressed(): void {
    this.estimator.sample(this.sentBytes(), this.now());
    if (this.emitPending) return;
    this.emitPending = true;
    this.scheduleEmit(() => {
      this.emitPending = false;
      this.changed();
    });
  }
}
