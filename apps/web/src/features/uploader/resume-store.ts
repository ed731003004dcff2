import { browserStore, type KeyValueStore, readJson, removeKey, writeJson } from '../../lib/storage';

/** One file of an unfinished transfer, as declared when the transfer was created. */
export interface PendingFile {
  id: string;
  name: string;
  size: number;
  relativePath: string | null;
  lastModified: number;
}

/**
 * How the transfer is sent (S1 recipients) and whether it waits for the sender's code (create answered
 * `senderVerification: 'pending'`). Kept beside the upload so that a reload can still take the code, even
 * once every file is uploaded.
 */
export interface PendingVerification {
  type: 'S1' | 'S2';
  senderEmail: string;
  recipients: string[];
  state: 'pending' | 'verified' | 'not_needed';
  /** When the last code was sent, for the resend countdown. */
  codeSentAt: string;
  /** Seconds to wait after `codeSentAt` before another code may be asked for. */
  resendAfterSeconds: number;
  /** Every file is uploaded and the transfer completed: only the code is missing. */
  uploaded: boolean;
}

/** An upload in progress, kept so that a reload or a lost connection can resume it. */
export interface PendingTransfer {
  transferId: string;
  uploadToken: string;
  uploadEndpoint: string;
  link: string;
  expiresAt: string;
  createdAt: string;
  files: PendingFile[];
  /** How it is sent and the sender's verification (absent in records of older versions). */
  verification?: PendingVerification;
}

export const PENDING_STORAGE_KEY = 'ferry.pendingUpload';

function isPendingFile(value: unknown): value is PendingFile {
  const f = value as PendingFile;
  return (
    typeof f === 'object' &&
    f !== null &&
    typeof f.id === 'string' &&
    typeof f.name === 'string' &&
    typeof f.size === 'number' &&
    (f.relativePath === null || typeof f.relativePath === 'string') &&
    typeof f.lastModified === 'number'
  );
}

function isPendingVerification(value: unknown): value is PendingVerification {
  const v = value as PendingVerification;
  return (
    typeof v === 'object' &&
    v !== null &&
    (v.type === 'S1' || v.type === 'S2') &&
    typeof v.senderEmail === 'string' &&
    Array.isArray(v.recipients) &&
    v.recipients.every((r) => typeof r === 'string') &&
    ['pending', 'verified', 'not_needed'].includes(v.state) &&
    typeof v.codeSentAt === 'string' &&
    typeof v.resendAfterSeconds === 'number' &&
    typeof v.uploaded === 'boolean'
  );
}

export function isPendingTransfer(value: unknown): value is PendingTransfer {
  const p = value as PendingTransfer;
  return (
    (p?.verification === undefined || isPendingVerification(p.verification)) &&
    typeof p === 'object' &&
    p !== null &&
    typeof p.transferId === 'string' &&
    typeof p.uploadToken === 'string' &&
    typeof p.uploadEndpoint === 'string' &&
    typeof p.link === 'string' &&
    typeof p.expiresAt === 'string' &&
    Array.isArray(p.files) &&
    p.files.length > 0 &&
    p.files.every(isPendingFile)
  );
}

export function loadPending(store: KeyValueStore | null = browserStore()): PendingTransfer | null {
  const value = readJson(PENDING_STORAGE_KEY, store);
  return isPendingTransfer(value) ? value : null;
}

export function savePending(pending: PendingTransfer, store: KeyValueStore | null = browserStore()): void {
  writeJson(PENDING_STORAGE_KEY, pending, store);
}

/** Changes the saved verification of this transfer, if it is the one saved. */
export function updatePendingVerification(
  transferId: string,
  change: Partial<PendingVerification>,
  store: KeyValueStore | null = browserStore(),
): PendingTransfer | null {
  const pending = loadPending(store);
  if (!pending || pending.transferId !== transferId || !pending.verification) return null;
  const next = { ...pending, verification: { ...pending.verification, ...change } };
  savePending(next, store);
  return next;
}

/**
 * The upload of this transfer is complete. The record is forgotten, unless the transfer still waits for the
 * sender's code: then it stays (marked uploaded) so that the code can be entered after a reload.
 */
export function finishPendingUpload(transferId: string, store: KeyValueStore | null = browserStore()): void {
  const pending = loadPending(store);
  if (pending?.transferId === transferId && pending.verification?.state === 'pending') {
    savePending({ ...pending, verification: { ...pending.verification, uploaded: true } }, store);
  } else clearPending(transferId, store);
}

/** tus keeps each upload's URL under "tus::<fingerprint>::<n>"; ours start with this transfer's prefix. */
export function tusFingerprint(transferId: string, fileId: string, size: number): string {
  return `ferry:${transferId}:${fileId}:${size}`;
}

/** Forgets the unfinished transfer and the upload URLs tus kept for it. */
export function clearPending(transferId?: string, store: KeyValueStore | null = browserStore()): void {
  removeKey(PENDING_STORAGE_KEY, store);
  if (transferId) forgetTusUploads(transferId, store);
}

/** Forgets the upload URLs tus kept for the files of this transfer (see tusFingerprint). */
export function forgetTusUploads(transferId: string, store: KeyValueStore | null = browserStore()): void {
  if (!store) return;
  const prefix = `tus::ferry:${transferId}:`;
  const keys: string[] = [];
  try {
    const storage = store as Storage;
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
  } catch {
    return;
  }
  for (const key of keys) removeKey(key, store);
}

/** The identity a re-added file must share with the file of the unfinished transfer. */
export function resumeKey(file: { name: string; size: number; relativePath: string | null }): string {
  return `${file.relativePath ?? ''}\u0000${file.name}\u0000${file.size}`;
}

export interface ResumeCandidate {
  file: File;
  name: string;
  relativePath: string | null;
  size: number;
}

export interface ResumeMatch<C extends ResumeCandidate = ResumeCandidate> {
  /** Pending file id → the re-added file now standing for it. */
  attached: Map<string, C>;
  /** Files of the transfer still to be uploaded and not found among the re-added files. */
  missing: PendingFile[];
  /** Re-added files that are not part of the unfinished transfer. */
  unrelated: C[];
}

/**
 * Re-attaches re-added files to the unfinished transfer's file ids by (name, size, relativePath); earlier
 * attachments are kept. Files the server already holds in full (`uploadedIds`) are never missing, but a
 * re-added copy of one is still attached (it is then only checksummed, not uploaded again).
 */
export function matchResumeFiles<C extends ResumeCandidate>(
  pending: readonly PendingFile[],
  uploadedIds: ReadonlySet<string>,
  candidates: readonly C[],
  alreadyAttached: ReadonlyMap<string, C> = new Map(),
): ResumeMatch<C> {
  const attached = new Map(alreadyAttached);
  const waiting = new Map<string, PendingFile[]>();
  for (const file of pending) {
    if (attached.has(file.id)) continue;
    const key = resumeKey(file);
    waiting.set(key, [...(waiting.get(key) ?? []), file]);
  }
  const unrelated: C[] = [];
  for (const candidate of candidates) {
    const queue = waiting.get(resumeKey(candidate));
    const target = queue?.shift();
    if (target) attached.set(target.id, candidate);
    else unrelated.push(candidate);
  }
  const missing = pending.filter((f) => !uploadedIds.has(f.id) && !attached.has(f.id));
  return { attached, missing, unrelated };
}
