import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFor, newHeader, SEGMENT_BYTES, SegmentEncryptor, V1_SEGMENT_BYTES } from './blob-encryption.js';
import { createLocalStorage } from './local.js';
import { describeStorageContract } from './storage.contract.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describeStorageContract('local disk', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-local-storage-'));
  dirs.push(dir);
  return createLocalStorage(dir);
});

describeStorageContract('local disk, encrypted', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-local-storage-'));
  dirs.push(dir);
  return createLocalStorage(dir, randomBytes(32));
});

describe('local disk storage', () => {
  it('copies a blob as a hard link: one file with two names, each removable alone', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-local-storage-'));
    dirs.push(dir);
    const storage = await createLocalStorage(dir);
    const data = Buffer.from('shared bytes');
    await storage.tusStore.create(
      new Upload({ id: 'source-aaaaaa', size: data.length, offset: 0, metadata: {} }),
    );
    await storage.tusStore.write(Readable.from([data]), 'source-aaaaaa', 0);
    await storage.copyUpload(storage.uploadBlobKey('source-aaaaaa'), 'target-bbbbbb');
    const [source, target] = await Promise.all(
      ['source-aaaaaa', 'target-bbbbbb'].map((id) => fs.stat(path.join(dir, 'uploads', id))),
    );
    expect(target!.ino).toBe(source!.ino);
    expect(target!.nlink).toBe(2);
    await storage.tusStore.remove('source-aaaaaa');
    expect((await fs.stat(path.join(dir, 'uploads', 'target-bbbbbb'))).nlink).toBe(1);
    expect(await fs.readFile(path.join(dir, 'uploads', 'target-bbbbbb'), 'utf8')).toBe('shared bytes');
  });
});

describe('local disk storage, encrypted', () => {
  const marker = Buffer.from('FERRY-PLAINTEXT-MARKER-7f3a');
  /** Bytes with the marker at the start, across a segment boundary and at the end. */
  function markedData(length: number): Buffer {
    const data = randomBytes(length);
    for (const at of [0, SEGMENT_BYTES - 10, length - marker.length]) marker.copy(data, at);
    return data;
  }
  async function collect(stream: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  async function tempStorage(key: Buffer | null) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-local-storage-'));
    dirs.push(dir);
    return { dir, storage: await createLocalStorage(dir, key) };
  }

  it('stores no plaintext on disk, across writes of any length that resume mid-segment', async () => {
    const key = randomBytes(32);
    const { dir, storage } = await tempStorage(key);
    const S = SEGMENT_BYTES;
    const data = markedData(2 * S + 200_000);
    const id = 'enc-aaaaaa';
    await storage.tusStore.create(new Upload({ id, size: data.length, offset: 0, metadata: {} }));
    let offset = 0;
    for (const length of [1, S - 2, 3, S + 70_000, data.length - (2 * S + 70_002)]) {
      const next = await storage.tusStore.write(
        Readable.from([data.subarray(offset, offset + length)]),
        id,
        offset,
      );
      offset += length;
      expect(next).toBe(offset);
      expect((await storage.tusStore.getUpload(id)).offset).toBe(offset);
    }
    const onDisk = await fs.readFile(path.join(dir, 'uploads', id));
    expect(onDisk.subarray(0, 8).toString('latin1')).toBe('FERRYENC');
    expect(onDisk.includes(marker)).toBe(false);
    expect(await storage.blobs.size(`uploads/${id}`)).toBe(data.length);
    expect((await collect(await storage.blobs.read(`uploads/${id}`))).equals(data)).toBe(true);
    const range = await collect(
      await storage.blobs.read(`uploads/${id}`, { start: S - 1000, end: 2 * S + 500 }),
    );
    expect(range.equals(data.subarray(S - 1000, 2 * S + 501))).toBe(true);
    const inside = await collect(
      await storage.blobs.read(`uploads/${id}`, { start: S + 5, end: S + 70_004 }),
    );
    expect(inside.equals(data.subarray(S + 5, S + 70_005))).toBe(true);

    // Another key is refused, and never taken for damage to repair.
    const other = await createLocalStorage(dir, randomBytes(32));
    await expect(other.blobs.read(`uploads/${id}`)).rejects.toThrow(/another key/);
    await expect(other.tusStore.getUpload(id)).rejects.toThrow(/another key/);
    expect((await fs.stat(path.join(dir, 'uploads', id))).size).toBe(onDisk.length);
    expect((await collect(await storage.blobs.read(`uploads/${id}`))).equals(data)).toBe(true);
  });

  it('cuts off a torn last segment, so the client resends from its start', async () => {
    const { dir, storage } = await tempStorage(randomBytes(32));
    const data = markedData(SEGMENT_BYTES + 150_000);
    const id = 'torn-aaaaaa';
    await storage.tusStore.create(new Upload({ id, size: data.length, offset: 0, metadata: {} }));
    const written = SEGMENT_BYTES + 100_000;
    expect(await storage.tusStore.write(Readable.from([data.subarray(0, written)]), id, 0)).toBe(written);
    // A crash while the partial second segment was being rewritten: its tail is garbage.
    const file = path.join(dir, 'uploads', id);
    const handle = await fs.open(file, 'r+');
    await handle.write(randomBytes(5000), 0, 5000, (await handle.stat()).size - 3000);
    await handle.close();
    const resumeAt = (await storage.tusStore.getUpload(id)).offset;
    expect(resumeAt).toBe(SEGMENT_BYTES);
    expect(await storage.tusStore.write(Readable.from([data.subarray(resumeAt)]), id, resumeAt)).toBe(
      data.length,
    );
    expect((await collect(await storage.blobs.read(`uploads/${id}`))).equals(data)).toBe(true);
  });

  it('reads and resumes files stored in the first format (64 KiB segments) as they are', async () => {
    const master = randomBytes(32);
    const { dir, storage } = await tempStorage(master);
    const data = markedData(3 * V1_SEGMENT_BYTES + 5000);
    const id = 'v1-aaaaaa';
    await storage.tusStore.create(new Upload({ id, size: data.length, offset: 0, metadata: {} }));
    // The first 100 000 bytes as the first format stored them: a version 1 header and 64 KiB segments.
    const { header, key } = newHeader(master, V1_SEGMENT_BYTES);
    expect(header[8]).toBe(1);
    const parts: Buffer[] = [header];
    for (let index = 0, at = 0; at < 100_000; index++, at += V1_SEGMENT_BYTES) {
      const segment = new SegmentEncryptor(key, index);
      segment.update(data.subarray(at, Math.min(at + V1_SEGMENT_BYTES, 100_000)));
      parts.push(...segment.finish());
    }
    const file = path.join(dir, 'uploads', id);
    await fs.writeFile(file, Buffer.concat(parts));
    expect((await storage.tusStore.getUpload(id)).offset).toBe(100_000);
    await storage.tusStore.write(Readable.from([data.subarray(100_000)]), id, 100_000);
    const onDisk = await fs.readFile(file);
    expect(onDisk[8]).toBe(1); // continued in its own format
    expect(keyFor(master, onDisk.subarray(0, 48)).equals(key)).toBe(true);
    expect(onDisk.includes(marker)).toBe(false);
    expect(onDisk.length).toBe(48 + data.length + 4 * 28);
    expect((await collect(await storage.blobs.read(`uploads/${id}`))).equals(data)).toBe(true);
    const range = await collect(await storage.blobs.read(`uploads/${id}`, { start: 65_000, end: 140_000 }));
    expect(range.equals(data.subarray(65_000, 140_001))).toBe(true);
  });

  it('keeps reading files stored before a key was set, and finishes uploads begun in plaintext', async () => {
    const { dir, storage: plain } = await tempStorage(null);
    const data = markedData(100_000);
    await plain.tusStore.create(new Upload({ id: 'old-aaaaaa', size: data.length, offset: 0, metadata: {} }));
    await plain.tusStore.write(Readable.from([data.subarray(0, 40_000)]), 'old-aaaaaa', 0);
    const storage = await createLocalStorage(dir, randomBytes(32));
    expect((await storage.tusStore.getUpload('old-aaaaaa')).offset).toBe(40_000);
    await storage.tusStore.write(Readable.from([data.subarray(40_000)]), 'old-aaaaaa', 40_000);
    expect(await storage.blobs.size('uploads/old-aaaaaa')).toBe(data.length);
    expect(
      (await collect(await storage.blobs.read('uploads/old-aaaaaa', { start: 10, end: 99_999 }))).equals(
        data.subarray(10),
      ),
    ).toBe(true);
  });

  it('copies an encrypted blob as a hard link that decrypts under its own name', async () => {
    const { dir, storage } = await tempStorage(randomBytes(32));
    const data = markedData(70_000);
    await storage.tusStore.create(
      new Upload({ id: 'src-aaaaaa', size: data.length, offset: 0, metadata: {} }),
    );
    await storage.tusStore.write(Readable.from([data]), 'src-aaaaaa', 0);
    await storage.copyUpload('uploads/src-aaaaaa', 'dst-bbbbbb');
    expect((await fs.stat(path.join(dir, 'uploads', 'dst-bbbbbb'))).nlink).toBe(2);
    expect(await storage.tusStore.getUpload('dst-bbbbbb')).toMatchObject({
      size: data.length,
      offset: data.length,
    });
    await storage.tusStore.remove('src-aaaaaa');
    expect((await collect(await storage.blobs.read('uploads/dst-bbbbbb'))).equals(data)).toBe(true);
  });
});
