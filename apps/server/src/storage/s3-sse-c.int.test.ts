import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../test/s3rver.js';
import type { Storage } from './blob-store.js';
import { createS3Storage, type S3StorageOptions, s3ClientConfig } from './s3.js';
import { transferSseCKeys, transferSseKey } from './s3-sse-c.js';
import { describeStorageContract } from './storage.contract.js';

const master = randomBytes(32);
/** Transfers whose id starts with "plain" are stored without SSE-C (disableSSEC); all others with. */
const withSseC = (transferId: string) => !transferId.startsWith('plain');
/** An upload's object (`<transferId>-<fileId>`) and a rendition (`previews/<transferId>/…`) carry their transfer's key. */
const transferOf = (key: string) => /^(?:previews\/)?([A-Za-z0-9]+)[-/]/.exec(key)?.[1];

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3({
    sseC: (key) => {
      const transferId = transferOf(key);
      return transferId && withSseC(transferId) ? transferSseKey(master, transferId) : null;
    },
  });
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
  presignedDownloads: true,
  sseC: transferSseCKeys(master, async (transferId) => withSseC(transferId)),
  ...extra,
});

// Every call of the contract (multipart uploads, `.info`/`.part` objects, ranges, copies part by part) carries
// the transfer's key, or the harness refuses it.
describeStorageContract('S3 with SSE-C (s3rver refusing calls without the key)', async () =>
  createS3Storage(options({ singleCopyMaxBytes: 5 * 1024 * 1024 })),
);

async function put(storage: Storage, transferId: string, data: Buffer): Promise<string> {
  const id = `${transferId}-abc123`;
  await storage.tusStore.create(new Upload({ id, size: data.length, offset: 0, metadata: {} }));
  await storage.tusStore.write(Readable.from([data]), id, 0);
  return storage.uploadBlobKey(id);
}
async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3 with SSE-C', () => {
  it('copies between transfers with and without SSE-C, and presigns only objects without it', async () => {
    const storage = createS3Storage(options());
    const data = randomBytes(100_000);
    const encrypted = await put(storage, `enc${randomBytes(6).toString('hex')}`, data);
    const plain = await put(storage, `plain${randomBytes(6).toString('hex')}`, data);
    const presign = { fileName: 'a.bin', contentType: 'application/octet-stream', expiresInSeconds: 60 };
    expect(await storage.blobs.presignedUrl!(encrypted, presign)).toBeNull();
    expect(await storage.blobs.presignedUrl!(plain, presign)).toMatch(/^http/);

    const toPlain = `plain${randomBytes(6).toString('hex')}-def456`;
    await storage.copyUpload(encrypted, toPlain);
    const toEncrypted = `enc${randomBytes(6).toString('hex')}-def456`;
    await storage.copyUpload(plain, toEncrypted);
    for (const key of [toPlain, toEncrypted])
      expect(
        (await collect(await storage.blobs.read(key, { start: 10, end: 99_999 }))).equals(data.subarray(10)),
      ).toBe(true);
    expect(s3.refused).toEqual([]);
  });

  it('is refused by the harness when a call lacks the key', async () => {
    const storage = createS3Storage(options());
    const key = await put(storage, `enc${randomBytes(6).toString('hex')}`, randomBytes(1000));
    const bare = new S3Client(s3ClientConfig(options()));
    await expect(bare.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).rejects.toMatchObject({
      name: 'InvalidRequest',
    });
    expect(s3.refused).toEqual([`GET /${s3.bucket}/${key}: object key MD5 missing`]);
    s3.refused.length = 0;
  });
});
