import type { PreviewKind, ThumbnailStatus } from '@ferry/core';

/** One stored rendition of a file (a blob under a key derived from the transfer and file ids). */
export interface StoredRendition {
  role: 'thumb' | 'poster' | 'preview';
  /** PDF page (1-based); 0 elsewhere. */
  page: number;
  key: string;
  contentType: string;
  width: number | null;
  height: number | null;
  size: number;
}

export interface PreviewRecord {
  transferId: string;
  fileId: string;
  status: ThumbnailStatus;
  kind: PreviewKind | null;
  renditions: StoredRendition[];
  pageCount: number | null;
  reason: string | null;
}

/** Where previews' states and the per-transfer preview count are kept. */
export interface PreviewRepository {
  /** Records files as pending; returns the ids that were not known before (their jobs are to be queued). */
  markPending(transferId: string, fileIds: string[]): Promise<string[]>;
  /** Stores a file's outcome; false when its transfer is gone (removed while the file was rendered). */
  save(record: PreviewRecord): Promise<boolean>;
  find(transferId: string, fileIds: string[]): Promise<PreviewRecord[]>;
  /** Counts one preview unless `max` were given already; false past it. */
  consumePreview(transferId: string, max: number): Promise<boolean>;
  /** Every rendition key of a transfer, for removing them with its files. */
  renditionKeys(transferId: string): Promise<string[]>;
}

/** Queues the rendering of one file (pg-boss job `previews.render`). */
export interface PreviewQueue {
  queue(job: PreviewJob): Promise<void>;
}

export interface PreviewJob {
  transferId: string;
  fileId: string;
}
