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
  /** Removes a blob; removing one that is gone is not an error. */
  delete(key: string): Promise<void>;
  /** Checks the store answers, for readiness probes. */
  ping(): Promise<void>;
  /**
   * A short-lived URL where the store itself serves the blob as an attachment (S3 with S3_PRESIGNED_DOWNLOADS);
   * absent when downloads must go through Ferry.
   */
  presignedUrl?: (key: string, options: PresignOptions) => Promise<string>;
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
}
