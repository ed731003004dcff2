import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.js';
import { connectDatabase, type DatabaseHandle } from './client.js';
import { PgTransferRepository } from './transfer.repository.js';

/**
 * The look-ups and counts the download and upload calls make in one round trip each, held against the plain
 * queries they replace: the same records, field for field, and the same counting.
 */
let handle: DatabaseHandle;
let repo: PgTransferRepository;

beforeAll(async () => {
  handle = connectDatabase(await createTestDatabase(), 4);
  repo = new PgTransferRepository(handle.db);
});
afterAll(async () => {
  await handle?.close();
});

let serial = 0;
async function stored(fileCount: number, maxDownloads: number | null = null) {
  serial++;
  const id = `repoTest${String(serial).padStart(8, '0')}`;
  const files = Array.from({ length: fileCount }, (_, i) => ({
    transferId: id,
    id: `f${serial}x${i}`,
    position: i,
    name: `file ${i} é.bin`,
    relativePath: i % 2 ? `folder/${i}` : null,
    size: 1000 * (i + 1) + 2 ** 40,
  }));
  await repo.create(
    {
      id,
      type: 'S2',
      status: 'ENABLED',
      name: 'name',
      message: null,
      passwordHash: null,
      uploadTokenHash: 'x'.repeat(64),
      ownerId: null,
      senderEmail: null,
      senderName: null,
      locale: null,
      timeZone: null,
      allowPreview: true,
      maxDownloads,
      totalSize: files.reduce((sum, f) => sum + f.size, 0),
      fileCount,
      expiresAt: new Date(Date.now() + 86_400_000),
      downloadConfirmation: false,
      expiryReminder: false,
      notifySummary: false,
      forceEmailWhenDownloadS2: false,
      senderVerification: 'not_needed',
      origin: null,
      host: null,
      storageRegion: null,
      sseC: false,
      priceAmount: null,
      priceCurrency: null,
      ogTitle: null,
      ogDescription: null,
      customLink: null,
      availableFrom: null,
      customization: null,
    },
    files,
    [{ type: 'CREATED', actor: 'test' }],
  );
  if (fileCount > 0)
    await repo.markFileUploaded(id, files[0]!.id, {
      sha256: 'a'.repeat(64),
      crc32: 4_000_000_000,
      blobKey: 'k',
    });
  return { id, files };
}

describe('one-round-trip look-ups', () => {
  it('give the transfer and its files exactly as the plain queries do', async () => {
    const { id, files } = await stored(3);
    const transfer = await repo.find(id);
    const plain = await repo.files(id);
    expect(plain).toHaveLength(3);
    expect(plain[0]!.uploadedAt).toBeInstanceOf(Date);

    const all = await repo.findWithFiles(id);
    expect(all).toEqual({ transfer, files: plain });
    for (const file of files) {
      const one = await repo.findWithFile(id, file.id);
      expect(one).toEqual({ transfer, file: await repo.file(id, file.id) });
    }
    expect(await repo.findWithFile(id, 'nosuch')).toEqual({ transfer, file: null });
  });

  it('answer null for an unknown transfer and no files for a transfer without any', async () => {
    expect(await repo.findWithFiles('nosuchTransfer01')).toBeNull();
    expect(await repo.findWithFile('nosuchTransfer01', 'f')).toBeNull();
    const { id } = await stored(0);
    expect((await repo.findWithFiles(id))?.files).toEqual([]);
  });
});

describe('a visit’s link calls', () => {
  const visit = (code: string, ip = '203.0.113.1') => ({
    fileId: null,
    kind: 'zip' as const,
    browserCode: code,
    ip,
    userAgent: 'test',
  });
  const count = async (id: string) => (await repo.find(id))!.downloadCount;

  it('count once per visit, and stop new visits at the limit while counted ones go on', async () => {
    const { id } = await stored(1, 2);
    expect(await repo.consumeDownload(id, visit('visit-a'))).toEqual(expect.any(Number));
    expect(await repo.consumeDownload(id, visit('visit-a'))).toEqual(expect.any(Number));
    expect(await count(id)).toBe(1);
    // The same code from another client is another visit.
    expect(await repo.consumeDownload(id, visit('visit-a', '203.0.113.2'))).toEqual(expect.any(Number));
    expect(await count(id)).toBe(2);
    // Full: a new visit is refused and leaves nothing behind; a counted one still fetches.
    expect(await repo.consumeDownload(id, visit('visit-b'))).toBeNull();
    expect(await repo.consumeDownload(id, visit('visit-a'))).toEqual(expect.any(Number));
    expect(await count(id)).toBe(2);
    const sessions = await handle.pool.query(
      'SELECT browser_code FROM download_sessions WHERE transfer_id = $1',
      [id],
    );
    expect(sessions.rows.map((r) => r.browser_code).sort()).toEqual(['visit-a', 'visit-a']);
    const rows = await handle.pool.query('SELECT count(*)::int AS n FROM downloads WHERE transfer_id = $1', [
      id,
    ]);
    expect(rows.rows[0].n).toBe(4);
  });

  it('count a new visit again once its window is over, never past the limit when calls race', async () => {
    const { id } = await stored(1, 5);
    await repo.consumeDownload(id, visit('old'));
    await handle.pool.query(
      `UPDATE download_sessions SET counted_at = now() - interval '2 hours' WHERE transfer_id = $1`,
      [id],
    );
    await repo.consumeDownload(id, visit('old'));
    expect(await count(id)).toBe(2);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => repo.consumeDownload(id, visit(`race-${i % 6}`))),
    );
    expect(await count(id)).toBe(5);
    // Three new visits fit; their repeated calls go on, the other visits' are refused.
    expect(results.filter((r) => r !== null)).toHaveLength(6);
    expect(await repo.consumeDownload(id, visit('unknown'))).toBeNull();
  });

  it('refuse a transfer that does not exist', async () => {
    expect(await repo.consumeDownload('nosuchTransfer01', visit('x'))).toBeNull();
  });
});
