import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition } from '../lib/content-disposition.js';
import {
  BlobMissingError,
  type BlobStore,
  type ByteRange,
  type PresignOptions,
  type Storage,
} from './blob-store.js';
import { type SseCKeys, sendSseCKeys } from './s3-sse-c.js';
import { FerryS3Store, isS3NotFound } from './s3-upload-store.js';

/** One bucket and the settings to reach it. */
export interface S3StorageOptions {
  bucket: string;
  /** Null for AWS itself; else the S3-compatible service's URL. */
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Preferred multipart part size (S3: 5 MiB to 5 GiB). */
  partSizeBytes: number;
  /** Whether downloads may be sent straight to the bucket with a presigned URL. */
  presignedDownloads: boolean;
  /**
   * Objects up to this size are copied with one CopyObject (S3 allows up to 5 GiB); larger ones part by part
   * with UploadPartCopy. Default 5 GiB.
   */
  singleCopyMaxBytes?: number;
  /** SSE-C keys of the objects stored with SSE-C (docs/encryption.md); absent: none is. */
  sseC?: SseCKeys;
}

const GiB = 1024 ** 3;
/** S3's caps: 5 GiB for CopyObject and for one part, 10 000 parts per multipart upload. */
const MAX_SINGLE_COPY = 5 * GiB;
const MAX_PARTS = 10_000;
/** Part copies running at once for one object. */
const PART_COPY_CONCURRENCY = 4;

/** SigV4 presigned URLs live at most seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export function s3ClientConfig(options: S3StorageOptions): S3ClientConfig {
  return {
    region: options.region,
    endpoint: options.endpoint ?? undefined,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // The SDK's default CRC32 trailers (aws-chunked bodies) are not understood by many S3-compatible stores,
    // which then store the chunk framing as object bytes; Ferry checks integrity end to end with SHA-256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** Blobs as objects of one S3 bucket, streamed both ways. */
export class S3BlobStore implements BlobStore {
  /** Present only when presigned downloads are turned on: a URL that serves the blob as an attachment. */
  readonly presignedUrl?: (key: string, options: PresignOptions) => Promise<string | null>;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly uploads: Pick<FerryS3Store, 'purge'>,
    options: { presignedDownloads: boolean; sseC?: SseCKeys },
  ) {
    const { sseC } = options;
    if (sseC) sendSseCKeys(client, bucket, sseC);
    // An SSE-C object is never sent to the bucket by URL: the URL would have to carry its key.
    if (options.presignedDownloads)
      this.presignedUrl = async (key, o) => ((await sseC?.keyOf(key)) ? null : this.presign(key, o));
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const { Body, ContentLength } = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    if (!(Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
    // Callers announce the range's length to their own clients: other bytes than asked must never flow on.
    if (range && ContentLength !== undefined && ContentLength !== range.end - range.start + 1) {
      Body.destroy();
      throw new Error(`S3 answered ${ContentLength} bytes for range ${range.start}-${range.end} of ${key}`);
    }
    return Body;
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isS3NotFound(error)) return null;
      throw error;
    }
  }

  /**
   * Copies a blob inside the bucket, the store doing the work: no byte passes through Ferry. A target already
   * holding an object of the source's size is a copy done by an earlier run (both ways below write the target
   * atomically, at their last step). Returns the size.
   */
  async copy(sourceKey: string, targetKey: string, singleCopyMaxBytes: number, partSize: number) {
    const size = await this.size(sourceKey);
    if (size === null) throw new BlobMissingError(sourceKey);
    if ((await this.size(targetKey)) === size) return size;
    const CopySource = `${this.bucket}/${encodeURIComponent(sourceKey)}`;
    if (size <= Math.min(singleCopyMaxBytes, MAX_SINGLE_COPY)) {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: targetKey, CopySource }));
      return size;
    }
    const part = Math.min(MAX_SINGLE_COPY, Math.max(partSize, Math.ceil(size / MAX_PARTS)));
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: targetKey }),
    );
    try {
      const count = Math.ceil(size / part);
      const etags: string[] = new Array(count);
      let next = 0;
      const worker = async () => {
        for (let n = next++; n < count; n = next++) {
          const start = n * part;
          const end = Math.min(size, start + part) - 1;
          const { CopyPartResult } = await this.client.send(
            new UploadPartCopyCommand({
              Bucket: this.bucket,
              Key: targetKey,
              UploadId,
              PartNumber: n + 1,
              CopySource,
              CopySourceRange: `bytes=${start}-${end}`,
            }),
          );
          if (!CopyPartResult?.ETag) throw new Error(`S3 gave no ETag for part ${n + 1} of ${targetKey}`);
          etags[n] = CopyPartResult.ETag;
        }
      };
      await Promise.all(Array.from({ length: Math.min(PART_COPY_CONCURRENCY, count) }, worker));
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: targetKey,
          UploadId,
          MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      );
    } catch (error) {
      // Parts already copied would otherwise stay billed in the bucket until a lifecycle rule removes them.
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: targetKey, UploadId }))
        .catch(() => undefined);
      throw error;
    }
    return size;
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    const { size } = await fs.stat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  /** Deletes the blob and whatever its tus upload left beside it (`.info`, `.part`, an unfinished upload). */
  async delete(key: string): Promise<void> {
    await this.uploads.purge(key);
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  private presign(key: string, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(options.fileName),
      ResponseContentType: options.contentType,
    });
    const expiresIn = Math.max(1, Math.min(MAX_PRESIGN_SECONDS, Math.floor(options.expiresInSeconds)));
    return getSignedUrl(this.client, command, { expiresIn });
  }
}

/**
 * S3 storage. tus writes an upload as a multipart upload of the object named by the upload id, so a finished
 * upload is already the blob: nothing is copied.
 */
export function createS3Storage(options: S3StorageOptions): Storage & { blobs: S3BlobStore } {
  const config = s3ClientConfig(options);
  const tusStore = new FerryS3Store({
    partSize: options.partSizeBytes,
    s3ClientConfig: { ...config, bucket: options.bucket },
  });
  if (options.sseC) sendSseCKeys(tusStore.s3Client, options.bucket, options.sseC);
  const blobs = new S3BlobStore(new S3Client(config), options.bucket, tusStore, options);
  return {
    blobs,
    tusStore,
    uploadBlobKey: (uploadId) => uploadId,
    async copyUpload(sourceKey, targetUploadId) {
      const size = await blobs.copy(
        sourceKey,
        targetUploadId,
        options.singleCopyMaxBytes ?? MAX_SINGLE_COPY,
        options.partSizeBytes,
      );
      await tusStore.recordFinished(targetUploadId, size);
    },
    // The bytes of an unfinished upload cannot be read back: its parts become readable only once S3 joins them
    // at CompleteMultipartUpload (ListParts gives sizes and ETags, not content). So after a restart, or when
    // another instance took the upload over, the hashing store hashes the finished blob whole instead.
    readPartialUpload: async () => null,
  };
}

/** RFC 6266 attachment header, as the download route sends it: an ASCII fallback plus the UTF-8 name. */
