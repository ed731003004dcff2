import type { S3 } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { ERRORS, TUS_RESUMABLE, Upload } from '@tus/utils';

/** True for S3's "no such thing" answers: a 404 without a body (HEAD), NoSuchKey, NoSuchUpload. */
export function isS3NotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    name === 'NotFound' ||
    name === 'NoSuchKey' ||
    name === 'NoSuchUpload' ||
    $metadata?.httpStatusCode === 404
  );
}

/**
 * `@tus/s3-store` with three gaps closed. An upload `X` lives in S3 as the multipart upload of the object `X`
 * (the finished blob), the object `X.info` (tus metadata; the multipart upload id is in its S3 metadata) and,
 * between PATCHes shorter than a part, the object `X.part` holding the tail not yet sent as a part.
 *
 * - `remove` of a finished upload: S3Store aborts the multipart upload first and, as S3 answers NoSuchUpload
 *   for a completed one, throws before deleting anything — the blob stayed, and the stale upload id stayed in
 *   its metadata cache, so the re-upload after a checksum mismatch wrote to a dead multipart upload.
 * - `create` starts from a clean cache for the same reason (an upload id can be created again).
 * - A zero-byte upload is completed at once: tus never calls `write` for it, so S3Store would never complete
 *   its multipart upload and the (empty) blob would not exist.
 */
export class FerryS3Store extends S3Store {
  /** The store's own S3 client, for middleware every client of the bucket needs (SSE-C). */
  get s3Client(): S3 {
    return this.client;
  }

  override async create(upload: Upload): Promise<Upload> {
    await this.clearCache(upload.id);
    const created = await super.create(upload);
    if (upload.size === 0) {
      await this.finishMultipartUpload(await this.getMetadata(upload.id), []);
      await this.clearCache(upload.id);
    }
    return created;
  }

  override async remove(id: string): Promise<void> {
    if (!(await this.purge(id))) throw ERRORS.FILE_NOT_FOUND;
  }

  /**
   * Records `id` as a finished upload of `size` bytes whose object was written another way (a server-side copy):
   * its `.info` names no live multipart upload, which tus reads as "complete" (S3 answers NoSuchUpload).
   */
  async recordFinished(id: string, size: number): Promise<void> {
    await this.clearCache(id);
    const upload = new Upload({
      id,
      size,
      offset: size,
      metadata: {},
      creation_date: new Date().toISOString(),
    });
    await this.client.putObject({
      Bucket: this.bucket,
      Key: this.infoKey(id),
      Body: JSON.stringify(upload),
      Metadata: { 'upload-id': 'copied', 'tus-version': TUS_RESUMABLE },
    });
  }

  /**
   * Removes everything an upload left in the bucket, finished or not: aborts its multipart upload, deletes the
   * blob, `.info` and `.part`. Deleting what is gone is no error; returns whether tus knew the upload.
   */
  async purge(id: string): Promise<boolean> {
    await this.clearCache(id);
    let known = false;
    let multipartUploadId: string | undefined;
    try {
      const info = await this.client.headObject({ Bucket: this.bucket, Key: this.infoKey(id) });
      known = true;
      multipartUploadId = info.Metadata?.['upload-id'];
    } catch (error) {
      if (!isS3NotFound(error)) throw error;
    }
    if (multipartUploadId) {
      await this.client
        .abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: multipartUploadId })
        .catch((error: unknown) => {
          if (!isS3NotFound(error)) throw error;
        });
    }
    // One DeleteObject each rather than DeleteObjects, which needs a checksum some S3-compatible stores refuse.
    await Promise.all(
      [id, this.infoKey(id), this.partKey(id, true)].map((key) =>
        this.client.deleteObject({ Bucket: this.bucket, Key: key }),
      ),
    );
    return known;
  }
}
