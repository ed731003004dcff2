import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { BlobMissingError, type Storage } from './blob-store.js';

const MiB = 1024 * 1024;

/** Sends a buffer as an HTTP body arrives: many small chunks. */
function body(data: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += 64 * 1024) yield data.subarray(i, i + 64 * 1024);
    })(),
  );
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The behaviour every Storage must have, whatever holds the bytes. `makeStorage` runs once, before the tests;
 * it may expect a part size of 5 MiB (the S3 minimum), which the sizes here are chosen around.
 */
export function describeStorageContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await makeStorage();
    });

    // Shaped like Ferry's upload ids (`<transferId>-<fileId>`), unique per test.
    const newUploadId = () => `${randomBytes(8).toString('hex')}-${randomBytes(3).toString('hex')}`;

    /** Creates an upload and sends `writes` bytes at a time, checking the offset after each; returns its id. */
    async function upload(data: Buffer, writes: number[] = [data.length]): Promise<string> {
      const id = newUploadId();
      await storage.tusStore.create(new Upload({ id, size: data.length, offset: 0, metadata: {} }));
      expect((await storage.tusStore.getUpload(id)).offset).toBe(0);
      let offset = 0;
      for (const length of writes) {
        const next = await storage.tusStore.write(body(data.subarray(offset, offset + length)), id, offset);
        offset += length;
        expect(next).toBe(offset);
        expect((await storage.tusStore.getUpload(id)).offset).toBe(offset);
      }
      return id;
    }

    let big: Buffer;
    let bigKey: string;
    beforeAll(async () => {
      big = randomBytes(11 * MiB + 12_345);
      // Writes shorter than a part, then across part boundaries: S3 joins several parts and a held-back tail.
      bigKey = storage.uploadBlobKey(await upload(big, [3 * MiB, 4 * MiB, big.length - 7 * MiB]));
    });

    it('turns an upload sent in several writes into a blob of exactly those bytes', async () => {
      expect(await storage.blobs.size(bigKey)).toBe(big.length);
      expect((await collect(await storage.blobs.read(bigKey))).equals(big)).toBe(true);
    });

    it('reads any inclusive byte range of a blob', async () => {
      for (const [start, end] of [
        [0, 0],
        [big.length - 1, big.length - 1],
        [5 * MiB - 100, 5 * MiB + 100], // across the first part boundary
        [1000, 3 * MiB + 999],
        [0, big.length - 1],
      ] as const) {
        const got = await collect(await storage.blobs.read(bigKey, { start, end }));
        expect(got.equals(big.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      }
    });

    it('keeps a zero-byte upload as an empty blob', async () => {
      const id = newUploadId();
      await storage.tusStore.create(new Upload({ id, size: 0, offset: 0, metadata: {} }));
      const key = storage.uploadBlobKey(id);
      expect(await storage.blobs.size(key)).toBe(0);
      expect((await collect(await storage.blobs.read(key))).length).toBe(0);
    });

    it('gives a missing blob no size and refuses to read it', async () => {
      expect(await storage.blobs.size(storage.uploadBlobKey(newUploadId()))).toBeNull();
      await expect(storage.blobs.read(storage.uploadBlobKey(newUploadId()))).rejects.toThrow();
      await expect(
        storage.blobs.read(storage.uploadBlobKey(newUploadId()), { start: 0, end: 9 }),
      ).rejects.toThrow();
    });

    it('deletes a blob with its upload state; deleting it again or a missing key is no error', async () => {
      const data = randomBytes(100_000);
      const id = await upload(data);
      const key = storage.uploadBlobKey(id);
      expect(await storage.blobs.size(key)).toBe(data.length);
      await storage.blobs.delete(key);
      expect(await storage.blobs.size(key)).toBeNull();
      await expect(storage.blobs.read(key)).rejects.toThrow();
      await expect(storage.tusStore.getUpload(id)).rejects.toThrow();
      await storage.blobs.delete(key);
      await storage.blobs.delete(storage.uploadBlobKey(newUploadId()));
    });

    it('stores a file from disk under a derived key (renditions), replaces it, and deletes it', async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-put-'));
      try {
        const file = path.join(dir, 'thumb.webp');
        const key = `previews/${newUploadId()}/thumb.webp`;
        await fs.writeFile(file, randomBytes(2000));
        await storage.blobs.putFile(key, file, 'image/webp');
        const second = randomBytes(1500);
        await fs.writeFile(file, second);
        await storage.blobs.putFile(key, file, 'image/webp');
        expect(await storage.blobs.size(key)).toBe(second.length);
        expect((await collect(await storage.blobs.read(key))).equals(second)).toBe(true);
        await storage.blobs.delete(key);
        expect(await storage.blobs.size(key)).toBeNull();
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it('deletes an unfinished upload', async () => {
      const data = randomBytes(6 * MiB);
      const id = await upload(data, [5 * MiB + 10]);
      await storage.blobs.delete(storage.uploadBlobKey(id));
      await expect(storage.tusStore.getUpload(id)).rejects.toThrow();
      expect(await storage.blobs.size(storage.uploadBlobKey(id))).toBeNull();
    });

    it('lets tus remove a finished upload, and the same upload id be uploaded again with other bytes', async () => {
      const first = randomBytes(50_000);
      const id = await upload(first);
      await storage.tusStore.remove(id);
      expect(await storage.blobs.size(storage.uploadBlobKey(id))).toBeNull();
      await expect(storage.tusStore.remove(id)).rejects.toMatchObject({ status_code: 404 });

      const second = randomBytes(70_000);
      await storage.tusStore.create(new Upload({ id, size: second.length, offset: 0, metadata: {} }));
      expect(await storage.tusStore.write(body(second.subarray(0, 30_000)), id, 0)).toBe(30_000);
      expect(await storage.tusStore.write(body(second.subarray(30_000)), id, 30_000)).toBe(second.length);
      expect((await collect(await storage.blobs.read(storage.uploadBlobKey(id)))).equals(second)).toBe(true);
    });

    it('reads back the stored prefix of an unfinished upload, or says it cannot (null)', async () => {
      const data = randomBytes(300_000);
      const id = await upload(data, [120_000, 80_000]);
      const prefix = await storage.readPartialUpload(id, 200_000);
      if (prefix) expect((await collect(prefix)).equals(data.subarray(0, 200_000))).toBe(true);
      else expect(prefix).toBeNull();
    });

    it('copies a blob into a new finished upload, large or small, that outlives its source', async () => {
      // `big` is copied part by part where the store copies large objects that way (S3 in the contract run).
      const bigCopy = newUploadId();
      await storage.copyUpload(bigKey, bigCopy);
      const bigCopyKey = storage.uploadBlobKey(bigCopy);
      expect(await storage.blobs.size(bigCopyKey)).toBe(big.length);
      expect((await collect(await storage.blobs.read(bigCopyKey))).equals(big)).toBe(true);
      expect(await storage.tusStore.getUpload(bigCopy)).toMatchObject({
        size: big.length,
        offset: big.length,
      });
      const range = await collect(
        await storage.blobs.read(bigCopyKey, { start: 5 * MiB - 10, end: 5 * MiB + 9 }),
      );
      expect(range.equals(big.subarray(5 * MiB - 10, 5 * MiB + 10))).toBe(true);

      const data = randomBytes(100_000);
      const source = await upload(data);
      const copy = newUploadId();
      await storage.copyUpload(storage.uploadBlobKey(source), copy);
      // Once more (a retried job): done already, nothing changes.
      await storage.copyUpload(storage.uploadBlobKey(source), copy);
      await storage.blobs.delete(storage.uploadBlobKey(source));
      expect(await storage.blobs.size(storage.uploadBlobKey(source))).toBeNull();
      const copyKey = storage.uploadBlobKey(copy);
      expect((await collect(await storage.blobs.read(copyKey))).equals(data)).toBe(true);
      await storage.tusStore.remove(copy);
      expect(await storage.blobs.size(copyKey)).toBeNull();
      await expect(storage.tusStore.getUpload(copy)).rejects.toThrow();
    });

    it('copies an empty blob, and refuses to copy a missing one', async () => {
      const id = newUploadId();
      await storage.tusStore.create(new Upload({ id, size: 0, offset: 0, metadata: {} }));
      const copy = newUploadId();
      await storage.copyUpload(storage.uploadBlobKey(id), copy);
      expect(await storage.blobs.size(storage.uploadBlobKey(copy))).toBe(0);
      const missing = newUploadId();
      await expect(storage.copyUpload(storage.uploadBlobKey(newUploadId()), missing)).rejects.toBeInstanceOf(
        BlobMissingError,
      );
      expect(await storage.blobs.size(storage.uploadBlobKey(missing))).toBeNull();
    });

    it('answers ping', async () => {
      await expect(storage.blobs.ping()).resolves.toBeUndefined();
    });
  });
}
