import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Upload } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passBodyChunksUncopied } from '../http/plugins/tus.plugin.js';
import { createTransfer } from '../test/flows.js';
import { startTestFerry, type TestFerry } from '../test/harness.js';
import { TusTestClient } from '../test/tus-client.js';
import { WRITE_BATCH_BYTES } from './batched-file-store.js';
import type { Storage } from './blob-store.js';
import { HashingDataStore } from './hashing-store.js';
import { createLocalStorage } from './local.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The bytes as a body arrives: chunks of the given sizes, cycled (a socket gives 64 KiB, a proxy anything). */
function body(data: Buffer, sizes: number[] = [64 * KiB]): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0, i = 0; at < data.length; i++) {
        const size = sizes[i % sizes.length]!;
        yield data.subarray(at, at + size);
        at += size;
      }
    })(),
  );
}

/** A body that sends `data` and then fails, as a connection that drops. */
function brokenBody(data: Buffer): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < data.length; at += 64 * KiB) yield data.subarray(at, at + 64 * KiB);
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('connection reset');
    })(),
  );
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('hashing tus store on local disk', () => {
  let storage: Storage;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-hashing-store-'));
    dirs.push(dir);
    storage = await createLocalStorage(dir);
  });

  const newId = () => `${randomBytes(8).toString('hex')}-${randomBytes(3).toString('hex')}`;
  async function created(store: HashingDataStore, size: number): Promise<string> {
    const id = newId();
    await store.create(new Upload({ id, size, offset: 0, metadata: {} }));
    return id;
  }
  const stored = (id: string) => fs.readFile(path.join(dir, 'uploads', id));

  it('stores and hashes exactly the bytes of writes of any size, across batch boundaries', async () => {
    const store = new HashingDataStore(storage);
    const data = randomBytes(3 * WRITE_BATCH_BYTES + 12_345);
    const id = await created(store, data.length);
    // Writes ending inside a batch, exactly on one, and a body with tiny chunks and one larger than a batch.
    const ends = [1, 64 * KiB - 1, WRITE_BATCH_BYTES, WRITE_BATCH_BYTES + 3, data.length];
    const sizes = [1, 7, 64 * KiB, WRITE_BATCH_BYTES + 5, 1000];
    let offset = 0;
    for (const end of ends) {
      offset = await store.write(body(data.subarray(offset, end), sizes), id, offset);
      expect(offset).toBe(end);
      expect((await store.getUpload(id)).offset).toBe(end);
    }
    expect(await store.digest(id, data.length)).toEqual({
      sha256: sha256(data),
      crc32: zlib.crc32(data) >>> 0,
    });
    expect((await stored(id)).equals(data)).toBe(true);
  });

  it('keeps uploads running at once apart (each one its own bytes and digest)', async () => {
    const store = new HashingDataStore(storage);
    const uploads = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const data = randomBytes(2 * WRITE_BATCH_BYTES + i * 7_777);
        return { data, id: await created(store, data.length) };
      }),
    );
    await Promise.all(uploads.map(({ data, id }, i) => store.write(body(data, [48 * KiB + i]), id, 0)));
    for (const { data, id } of uploads) {
      expect((await store.digest(id, data.length)).sha256).toBe(sha256(data));
      expect((await stored(id)).equals(data)).toBe(true);
    }
  });

  it('resumes at an offset it never saw (another process wrote the start): the digest is still exact', async () => {
    const data = randomBytes(3 * WRITE_BATCH_BYTES + 300_000);
    const cut = WRITE_BATCH_BYTES + 12_345;
    const first = new HashingDataStore(storage);
    const id = await created(first, data.length);
    expect(await first.write(body(data.subarray(0, cut)), id, 0)).toBe(cut);

    const restarted = new HashingDataStore(storage); // no running state: reads the stored prefix back
    expect(await restarted.write(body(data.subarray(cut)), id, cut)).toBe(data.length);
    expect(await restarted.digest(id, data.length)).toEqual({
      sha256: sha256(data),
      crc32: zlib.crc32(data) >>> 0,
    });
  });

  it('keeps every byte of a write that broke off, and continues from there with an exact digest', async () => {
    const store = new HashingDataStore(storage);
    const data = randomBytes(3 * MiB);
    const id = await created(store, data.length);
    await expect(store.write(brokenBody(data.subarray(0, 2 * MiB + 100)), id, 0)).rejects.toBeDefined();
    const offset = (await store.getUpload(id)).offset;
    expect(offset).toBe(2 * MiB + 100); // the bytes of the last, unfinished batch too
    expect((await stored(id)).equals(data.subarray(0, offset))).toBe(true);
    expect(await store.write(body(data.subarray(offset)), id, offset)).toBe(data.length);
    expect((await store.digest(id, data.length)).sha256).toBe(sha256(data));
  });

  it('hashes the stored file when a finished upload has no running state', async () => {
    const writer = new HashingDataStore(storage);
    const data = randomBytes(500_000);
    const id = await created(writer, data.length);
    await writer.write(body(data), id, 0);
    expect(await new HashingDataStore(storage).digest(id, data.length)).toEqual({
      sha256: sha256(data),
      crc32: zlib.crc32(data) >>> 0,
    });
  });
});

describe('uploads over HTTP', () => {
  it("hands tus the request's own body chunks (no copy of each), with at most two of them queued", async () => {
    const chunks = [1, 2, 3, 4].map((n) => Buffer.alloc(64 * KiB, n));
    const request = new Readable({ read() {} }); // a byte stream, as a request body is
    for (const chunk of chunks) request.push(chunk);
    request.push(null);
    passBodyChunksUncopied(request as IncomingMessage);
    const reader = Readable.toWeb(request).getReader();
    await new Promise((resolve) => setImmediate(resolve));
    expect(request.readableLength).toBe(2 * 64 * KiB); // two chunks queued for tus, the rest left in the request
    for (const chunk of chunks) expect((await reader.read()).value).toBe(chunk);
    expect((await reader.read()).done).toBe(true);
  });

  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry();
  });
  afterAll(() => ferry?.close());

  it('a PATCH cut off by the client keeps what arrived; the upload resumes from HEAD to the exact SHA-256', async () => {
    const data = randomBytes(6 * MiB + 4321);
    const t = await createTransfer(ferry.baseUrl, { files: [{ name: 'cut.bin', size: data.length }] });
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    const { location } = await tus.create(t.transferId, t.files[0]!.id, data.length);

    const sent = 3 * MiB + 777;
    await cutPatch(location!, t.uploadToken, data.subarray(0, sent));
    let offset = -1;
    // The server notices the closed connection asynchronously: wait for the upload's offset to settle.
    for (let i = 0, last = -2; i < 100 && offset !== last; i++) {
      last = offset;
      await new Promise((resolve) => setTimeout(resolve, 50));
      offset = await tus.offset(location!);
    }
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(sent);
    const rest = await tus.patch(location!, offset, data.subarray(offset));
    expect(rest).toMatchObject({ status: 204, offset: data.length, sha256: sha256(data) });
  });
});

/** Sends a PATCH announcing more bytes than `bytes`, sends `bytes`, then closes the connection. */
function cutPatch(location: string, token: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(location, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length + MiB),
        'X-Upload-Token': token,
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes, () => setTimeout(() => req.destroy(), 100));
  });
}
