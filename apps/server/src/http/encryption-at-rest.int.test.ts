import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEGMENT_BYTES } from '../storage/blob-encryption.js';
import { encryptInPlace } from '../storage/encrypt-in-place.js';
import { api, createTransfer, fetchBytes, readZip, sendTransfer, sha256 } from '../test/flows.js';
import { startTestFerry, type TestFerry } from '../test/harness.js';
import { TusTestClient } from '../test/tus-client.js';

const marker = Buffer.from('FERRY-AT-REST-MARKER-5c1e');

/** Random bytes with the marker at the start, across the first segment boundary and at the end. */
function marked(length: number): Buffer {
  const data = randomBytes(length);
  for (const at of [0, SEGMENT_BYTES - 7, length - marker.length])
    if (at + marker.length <= length) marker.copy(data, at);
  return data;
}

/** Files under `dir` whose bytes contain the marker. */
async function filesWithMarker(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await fs.readFile(file)).includes(marker)) found.push(file);
  }
  return found;
}

describe('encryption at rest (local disk)', () => {
  let keyDir: string;
  let env: Record<string, string>;
  let ferry: TestFerry;
  beforeAll(async () => {
    keyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-key-'));
    await fs.writeFile(path.join(keyDir, 'storage.key'), `${randomBytes(32).toString('base64')}\n`);
    env = { STORAGE_ENCRYPTION_KEY_FILE: path.join(keyDir, 'storage.key') };
    ferry = await startTestFerry({ env });
  });
  afterAll(async () => {
    await ferry?.close();
    await fs.rm(keyDir, { recursive: true, force: true });
  });

  it('stores no plaintext, and serves files, ranges and the ZIP exactly, also after a resumed upload', async () => {
    const a = marked(2 * SEGMENT_BYTES + 300_000);
    const b = marked(SEGMENT_BYTES + 70_000);
    const t = await createTransfer(ferry.baseUrl, {
      files: [
        { name: 'a.bin', size: a.length },
        { name: 'b.bin', size: b.length },
      ],
    });
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    // a: half sent, the server restarted, the rest sent to the new process from the offset it reports.
    const created = await tus.create(t.transferId, t.files[0]!.id, a.length);
    expect((await tus.patch(created.location!, 0, a.subarray(0, 100_001))).status).toBe(204);
    await ferry.close();
    ferry = await startTestFerry({ dataDir: ferry.dataDir, databaseUrl: ferry.databaseUrl, env });
    const tus2 = new TusTestClient(ferry.baseUrl, t.uploadToken);
    const location = created.location!.replace(/^http:\/\/[^/]+/, ferry.baseUrl);
    expect(await tus2.offset(location)).toBe(100_001);
    const rest = await tus2.patch(location, 100_001, a.subarray(100_001));
    expect(rest.status).toBe(204);
    expect(rest.sha256).toBe(sha256(a));
    await tus2.upload(t.transferId, t.files[1]!.id, b);
    const done = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: {
        files: [
          { id: t.files[0]!.id, sha256: sha256(a) },
          { id: t.files[1]!.id, sha256: sha256(b) },
        ],
      },
    });
    expect(done.status).toBe(200);

    expect(await filesWithMarker(ferry.dataDir)).toEqual([]);

    const link = async (extra = '') =>
      (await api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}${extra}`)).body;
    const one = await link(`&fileId=${t.files[0]!.id}`);
    expect(one.size).toBe(a.length);
    expect(sha256((await fetchBytes(one.url)).data)).toBe(sha256(a));
    for (const [start, end] of [
      [SEGMENT_BYTES - 6, SEGMENT_BYTES + 9], // across a segment boundary
      [0, 0],
      [SEGMENT_BYTES + 131_071, SEGMENT_BYTES + 262_144], // inside one segment
      [100, 2 * SEGMENT_BYTES + 1000], // across two boundaries
      [a.length - 1, a.length - 1],
    ] as const) {
      const part = await fetchBytes(one.url, { range: `bytes=${start}-${end}` });
      expect(part.status).toBe(206);
      expect(part.data.equals(a.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }

    const all = await link();
    const zip = await fetchBytes(all.url);
    expect(zip.data.length).toBe(all.size);
    const entries = await readZip(zip.data);
    expect(entries.get('a.bin')!.equals(a)).toBe(true);
    expect(entries.get('b.bin')!.equals(b)).toBe(true);
    const resumed = await fetchBytes(all.url, { range: 'bytes=70000-' });
    expect(resumed.data.equals(zip.data.subarray(70_000))).toBe(true);
  });
});

describe('npm run storage:encrypt', () => {
  it('encrypts the files stored without a key in place, keeping hard links, and downloads stay exact', async () => {
    const keyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-key-'));
    const key = randomBytes(32);
    await fs.writeFile(path.join(keyDir, 'storage.key'), key.toString('base64'));
    const env = { STORAGE_ENCRYPTION_KEY_FILE: path.join(keyDir, 'storage.key') };
    let ferry = await startTestFerry();
    try {
      const a = marked(200_000);
      const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.bin', data: a }]);
      const uploads = path.join(ferry.dataDir, 'files', 'uploads');
      const stored = path.join(uploads, `${t.transferId}-${t.files[0]!.id}`);
      await fs.link(stored, path.join(uploads, 'clone-aaaaaa')); // a clone, as copyUpload makes it
      expect((await filesWithMarker(ferry.dataDir)).length).toBe(2);
      // An upload still in progress stays as it is: a server may be appending to it.
      const open = await createTransfer(ferry.baseUrl, { files: [{ name: 'b.bin', size: 100_000 }] });
      const tus = new TusTestClient(ferry.baseUrl, open.uploadToken);
      const created = await tus.create(open.transferId, open.files[0]!.id, 100_000);
      await tus.patch(created.location!, 0, marked(50_000));
      await ferry.close();

      const root = path.join(ferry.dataDir, 'files');
      const lines: string[] = [];
      const first = await encryptInPlace(root, key, (line) => lines.push(line));
      expect(first).toMatchObject({ encrypted: 1, alreadyEncrypted: 0, unfinished: 1, bytes: a.length });
      expect(lines).toEqual([expect.stringMatching(/^encrypted 1\/1: .*200000 bytes, 2 linked names/)]);
      expect(await filesWithMarker(ferry.dataDir)).toEqual([
        path.join(uploads, `${open.transferId}-${open.files[0]!.id}`),
      ]);
      expect((await fs.stat(stored)).nlink).toBe(2);
      // Again: nothing left to do.
      expect(await encryptInPlace(root, key)).toMatchObject({ encrypted: 0, alreadyEncrypted: 2 });

      ferry = await startTestFerry({ dataDir: ferry.dataDir, databaseUrl: ferry.databaseUrl, env });
      const link = await api(
        ferry.baseUrl,
        `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
      );
      expect(sha256((await fetchBytes(link.body.url)).data)).toBe(sha256(a));
      const part = await fetchBytes(link.body.url, { range: 'bytes=65000-70000' });
      expect(part.data.equals(a.subarray(65_000, 70_001))).toBe(true);
    } finally {
      await ferry.close();
      await fs.rm(keyDir, { recursive: true, force: true });
    }
  });
});

describe('STORAGE_ENCRYPTION_KEY_FILE checks', () => {
  it('refuses a key file inside DATA_DIR, of the wrong length, or unreadable', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-key-check-'));
    const { loadConfig } = await import('../config.js');
    const inside = path.join(dataDir, 'storage.key');
    await fs.writeFile(inside, randomBytes(32).toString('base64'));
    expect(() => loadConfig({ DATA_DIR: dataDir, STORAGE_ENCRYPTION_KEY_FILE: inside })).toThrow(
      /STORAGE_ENCRYPTION_KEY_FILE: must be outside DATA_DIR/,
    );
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-key-'));
    const short = path.join(outside, 'short.key');
    await fs.writeFile(short, randomBytes(16).toString('base64'));
    expect(() => loadConfig({ DATA_DIR: dataDir, STORAGE_ENCRYPTION_KEY_FILE: short })).toThrow(
      /STORAGE_ENCRYPTION_KEY_FILE: must hold 32 bytes in base64/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, STORAGE_ENCRYPTION_KEY_FILE: path.join(outside, 'missing.key') }),
    ).toThrow(/STORAGE_ENCRYPTION_KEY_FILE: cannot be read/);
    const good = path.join(outside, 'good.key');
    const key = randomBytes(32);
    await fs.writeFile(good, `${key.toString('base64')}\n`);
    expect(loadConfig({ DATA_DIR: dataDir, STORAGE_ENCRYPTION_KEY_FILE: good }).storageEncryptionKey).toEqual(
      key,
    );
    expect(loadConfig({ DATA_DIR: dataDir }).storageEncryptionKey).toBeNull();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });
});
