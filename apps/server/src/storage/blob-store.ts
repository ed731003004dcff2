import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';

/** An inclusive byte range, as HTTP Range has it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file bodies live. Keys are opaque strings chosen by Ferry (never by a client). Every method streams:
 * no body is ever held whole in memory.
 */
export interface BlobStore {
  /** Streams a blob, or the inclusive range of it. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of a blob, or null when it does not exist. */
  size(key: string): Promise<number | null>;
  /**
   * Stores a file from local disk as a blob (renditions Ferry makes: thumbnails, previews), streamed; replaces a
   * blob of that key.
   */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** Removes a blob; removing one that is gone is not an error. */
  delete(key: string): Promise<void>;
  /** Checks the store answers, for readiness probes. */
  ping(): Promise<void>;
  /**
   * A short-lived URL where the store itself serves the blob as an attachment (S3 with S3_PRESIGNED_DOWNLOADS);
   * absent, or null for one blob (an SSE-C object: the URL would have to carry its key), when downloads must go
   * through Ferry.
   */
  presignedUrl?: (key: string, options: PresignOptions) => Promise<string | null>;
}

export interface PresignOptions {
  /** Name the browser saves the file as (sent back as Content-Disposition: attachment). */
  fileName: string;
  contentType: string;
  expiresInSeconds: number;
}

/** The storage engine: blobs plus the tus data store that writes uploads into it. */
export interface Storage {
  blobs: BlobStore;
  /** tus data store; an upload with id X becomes the blob `uploadBlobKey(X)` once finished. */
  tusStore: DataStore;
  uploadBlobKey(uploadId: string): string;
  /** Streams bytes [0, end) of an upload still in progress, or null where the store cannot. */
  readPartialUpload(uploadId: string, end: number): Promise<Readable | null>;
  /**
   * Makes `targetUploadId` a finished upload holding the bytes of the blob `sourceKey`, without the bytes passing
   * through Ferry and, where the store allows, without storing them twice: a hard link on local disk (a
   * copy-on-write clone, else a copy, where links are refused), a server-side copy on S3 (CopyObject, or
   * UploadPartCopy for large objects). The target is then like any finished upload: read at
   * `uploadBlobKey(targetUploadId)`, known to tus, removed by `tusStore.remove`; removing the source later leaves it
   * whole. Idempotent: run again after a crash, it finishes the copy or finds it done. Rejects when the source is
   * missing (`BlobMissingError`).
   */
  copyUpload(sourceKey: string, targetUploadId: string): Promise<void>;
}

/** The blob a copy was asked to start from does not exist (deleted, expired). */
export class BlobMissingError extends Error {
  constructor(readonly key: string) {
    super(`no blob ${key} to copy from`);
    this.name = 'BlobMissingError';
  }
}
