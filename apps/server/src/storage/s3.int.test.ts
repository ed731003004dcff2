import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { HeadObjectCommand, ListPartsCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startTestS3, type TestS3 } from '../test/s3rver.js';
import type { Storage } from './blob-store.js';
import { createStorage } from './index.js';
import { createS3Storage, type S3StorageOptions, s3ClientConfig } from './s3.js';
import { describeStorageContract } from './storage.contract.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3({ extraBuckets: ['ferry-test-eu'] });
});
afterAll(async () => {
  await s3?.close();
});

const options = (extra: Partial<S3StorageOptions> = {}): S3StorageOptions => ({
  bucket: s3.bucket,
  endpoint: s3.endpoint,
  region: 'us-east-1',
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  forcePathStyle: true,
  partSizeBytes: 5 * 1024 * 1024,
  presignedDownloads: false,
  ...extra,
});

// Copies above 5 MiB go part by part (UploadPartCopy), as those above 5 GiB do with the default.
describeStorageContract('S3 (s3rver)', async () =>
  createS3Storage(options({ singleCopyMaxBytes: 5 * 1024 * 1024 })),
);

/** Uploads bytes through the storage's tus store in one write; returns the blob key. */
async function put(storage: Storage, data: Buffer): Promise<string> {
  const id = `${randomBytes(8).toString('hex')}-abc123`;
  await storage.tusStore.create(new Upload({ id, size: data.length, offset: 0, metadata: {} }));
  await storage.tusStore.write(Readable.from([data]), id, 0);
  return storage.uploadBlobKey(id);
}

const s3Env = (extra: Record<string, string> = {}) => ({
  STORAGE: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_BUCKET: s3.bucket,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
  SINGLE_INSTANCE: 'true',
  ...extra,
});

describe('S3 storage', () => {
  it('hands out presigned URLs only when turned on, serving the blob as a named attachment with Range', async () => {
    expect(createS3Storage(options()).blobs.presignedUrl).toBeUndefined();
    const storage = createS3Storage(options({ presignedDownloads: true }));
    const data = randomBytes(200_000);
    const key = await put(storage, data);
    const url = await storage.blobs.presignedUrl!(key, {
      fileName: 'Résumé "final".pdf',
      contentType: 'application/pdf',
      expiresInSeconds: 60,
    });
    // s3rver accepts any SigV4 signature, so only the URL's shape shows the expiry is right.
    const signed = new URL(url);
    expect(`${signed.origin}${signed.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(whole.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(100, 200))).toBe(true);
  });

  it('copies blobs inside the bucket: CopyObject, or UploadPartCopy above the single-copy size; never a GET', async () => {
    const storage = createS3Storage(options({ singleCopyMaxBytes: 5 * 1024 * 1024 }));
    const small = await put(storage, randomBytes(1000));
    const large = await put(storage, randomBytes(11 * 1024 * 1024));
    const before = s3.requests.length;
    const [smallCopy, largeCopy] = [
      `${randomBytes(8).toString('hex')}-abc123`,
      `${randomBytes(8).toString('hex')}-abc124`,
    ];
    await storage.copyUpload(small, smallCopy);
    await storage.copyUpload(large, largeCopy);
    const seen = s3.requests.slice(before);
    const copies = seen.filter((r) => r.copySource !== null);
    expect(copies.map((r) => [r.path, r.copySource, r.query.partNumber ?? null])).toEqual([
      [`/${s3.bucket}/${smallCopy}`, `${s3.bucket}/${small}`, null],
      ...[1, 2, 3].map((n) => [`/${s3.bucket}/${largeCopy}`, `${s3.bucket}/${large}`, String(n)]),
    ]);
    // The bytes never came to Ferry: no object was read, only looked at (HEAD).
    expect(seen.filter((r) => r.method === 'GET' && !('uploadId' in r.query))).toEqual([]);
    expect(await storage.blobs.size(largeCopy)).toBe(11 * 1024 * 1024);
  });

  it('aborts the multipart upload of an unfinished upload when its blob is deleted', async () => {
    const storage = createS3Storage(options());
    const id = `${randomBytes(8).toString('hex')}-abc123`;
    await storage.tusStore.create(new Upload({ id, size: 6 * 1024 * 1024, offset: 0, metadata: {} }));
    await storage.tusStore.write(Readable.from([randomBytes(5 * 1024 * 1024)]), id, 0);
    const client = new S3Client(s3ClientConfig(options()));
    const info = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${id}.info` }));
    const UploadId = info.Metadata?.['upload-id'];
    expect(
      (await client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: id, UploadId }))).Parts,
    ).toHaveLength(1);
    await storage.blobs.delete(storage.uploadBlobKey(id));
    await expect(
      client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: id, UploadId })),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });

  it('stores a transfer forced into a region in that region’s bucket, and refuses unknown regions', async () => {
    const storage = await createStorage(
      loadConfig(s3Env({ S3_REGIONS: JSON.stringify({ eu: { bucket: 'ferry-test-eu' } }) })),
    );
    expect(storage.regionNames).toEqual(['default', 'eu']);
    const eu = storage.forRegion('eu');
    const data = randomBytes(10_000);
    const key = await put(eu, data);
    expect(await eu.blobs.size(key)).toBe(data.length);
    expect(await storage.blobs.size(key)).toBeNull();
    expect(await storage.forRegion(null).blobs.size(key)).toBeNull();
    expect(await storage.forRegion('default').blobs.size(key)).toBeNull();
    expect(() => storage.forRegion('mars')).toThrow(/unknown storage region "mars"/);
  });

  it('refuses STORAGE=s3 without bucket and credentials, naming every missing setting', () => {
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: '' })).toThrow(
      [
        'Invalid configuration:',
        '  S3_BUCKET: is required when STORAGE=s3',
        '  S3_ACCESS_KEY_ID: is required when STORAGE=s3',
        '  S3_SECRET_ACCESS_KEY: is required when STORAGE=s3',
      ].join('\n'),
    );
    expect(() => loadConfig({ S3_REGIONS: '{"eu":{"bucket":"b"}}' })).toThrow('S3_REGIONS: needs STORAGE=s3');
    expect(() =>
      loadConfig(s3Env({ S3_REGIONS: '{"default":{"bucket":"b"}}', S3_PART_SIZE_MB: '4' })),
    ).toThrow(/S3_PART_SIZE_MB: .*\n {2}S3_REGIONS\.default: "default" names the main bucket already/);
    const config = loadConfig(s3Env({ S3_PART_SIZE_MB: '8', S3_PRESIGNED_DOWNLOADS: 'true' }));
    expect(config.s3).toMatchObject({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      partSizeBytes: 8 * 1024 * 1024,
      presignedDownloads: true,
      regions: {},
    });
    expect(loadConfig({}).s3).toBeNull();
  });
});
