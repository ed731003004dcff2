import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTransfer, randomFile, sendTransfer, sha256 } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { TusTestClient } from '../test/tus-client.js';

describe('creating and uploading a transfer', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry();
  });
  afterAll(async () => {
    await ferry?.close();
  });

  it('creates a transfer in UPLOADING with 6-character file ids and the default anonymous expiry of 7 days', async () => {
    const before = Date.now();
    const t = await createTransfer(ferry.baseUrl, {
      files: [
        { name: 'a.txt', size: 3 },
        { name: 'b.txt', size: 4 },
      ],
    });
    expect(t.status).toBe('UPLOADING');
    expect(t.transferId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(t.link).toBe(`${ferry.publicOrigin}/dl/${t.transferId}`);
    for (const f of t.files) expect(f.id).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(new Set(t.files.map((f) => f.id)).size).toBe(2);
    const days = (Date.parse(t.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
  });

  it('uploads, hashes on the server, and enables the transfer with events CREATED, UPLOADED, AVAILABLE', async () => {
    const data = randomFile(2_500_000);
    const t = await sendTransfer(
      ferry.baseUrl,
      [{ name: 'photo.jpg', data, relativePath: 'trip/photo.jpg' }],
      { name: 'Trip' },
    );
    const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect(info.status).toBe(200);
    expect(info.body.status).toBe('ENABLED');
    expect(info.body.files[0]).toMatchObject({
      name: 'photo.jpg',
      relativePath: 'trip/photo.jpg',
      size: data.length,
      sha256: sha256(data),
    });
    const rows = await query(
      ferry,
      'SELECT type, actor FROM transfer_events WHERE transfer_id = $1 ORDER BY id',
      [t.transferId],
    );
    expect(rows).toEqual([
      { type: 'CREATED', actor: 'anonymous' },
      { type: 'UPLOADED', actor: 'anonymous' },
      { type: 'AVAILABLE', actor: 'system' },
    ]);
  });

  it('answers the final PATCH with the SHA-256 the server computed while streaming', async () => {
    const data = randomFile(1_000_000);
    const t = await createTransfer(ferry.baseUrl, { files: [{ name: 'x.bin', size: data.length }] });
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    const created = await tus.create(t.transferId, t.files[0]!.id, data.length);
    const first = await tus.patch(created.location!, 0, data.subarray(0, 400_000));
    expect(first.status).toBe(204);
    expect(first.sha256).toBeNull();
    const last = await tus.patch(created.location!, 400_000, data.subarray(400_000));
    expect(last.sha256).toBe(sha256(data));
  });

  it('refuses a complete while files are missing, and a checksum mismatch resets the file for another try', async () => {
    const data = randomFile(10_000);
    const t = await createTransfer(ferry.baseUrl, { files: [{ name: 'x.bin', size: data.length }] });
    const headers = { 'x-upload-token': t.uploadToken };
    const early = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers,
      json: {},
    });
    expect(early.status).toBe(409);
    expect(early.body.codes).toEqual(['UPLOAD_INCOMPLETE']);
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    await tus.upload(t.transferId, t.files[0]!.id, data);
    const wrong = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers,
      json: { files: [{ id: t.files[0]!.id, sha256: sha256(Buffer.from('other bytes')) }] },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      status: 422,
      error: 'Unprocessable Entity',
      codes: ['CHECKSUM_MISMATCH'],
    });
    const state = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/upload-state`, {
      headers,
    });
    expect(state.body.files[0].uploaded).toBe(false);
    await tus.upload(t.transferId, t.files[0]!.id, data);
    const ok = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers,
      json: { files: [{ id: t.files[0]!.id, sha256: sha256(data) }] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('ENABLED');
  });

  it('refuses uploads with a wrong token, a wrong size, or after completion', async () => {
    const data = randomFile(100);
    const t = await createTransfer(ferry.baseUrl, { files: [{ name: 'x.bin', size: 100 }] });
    const intruder = new TusTestClient(ferry.baseUrl, 'not-the-token');
    expect((await intruder.create(t.transferId, t.files[0]!.id, 100)).status).toBe(404);
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    expect((await tus.create(t.transferId, t.files[0]!.id, 101)).status).toBe(400);
    const created = await tus.create(t.transferId, t.files[0]!.id, 100);
    expect((await tus.patch(created.location!, 0, data, 'wrong-token')).status).toBe(404);
    expect((await tus.patch(created.location!, 0, data)).status).toBe(204);
    await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: {},
    });
    expect((await tus.create(t.transferId, t.files[0]!.id, 100)).status).toBe(409);
    const get = await fetch(created.location!, { headers: { 'x-upload-token': t.uploadToken } });
    expect(get.status).toBe(404); // uploaded bytes are never served by the tus endpoint
  });

  it('enforces the anonymous limits of plan NONE with limitErrors', async () => {
    const tooMany = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { files: Array.from({ length: 251 }, (_, i) => ({ name: `f${i}.txt`, size: 1 })) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      status: 400,
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'files', max: 250, actual: 251 }],
    });
    const atLimit = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { files: Array.from({ length: 250 }, (_, i) => ({ name: `f${i}.txt`, size: 1 })) },
    });
    expect(atLimit.status).toBe(201);
    const big = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: {
        message: 'm'.repeat(501),
        expiresInDays: 8,
        files: [
          { name: 'a', size: 3e9 },
          { name: 'b', size: 2e9 + 1 },
        ],
      },
    });
    expect(big.status).toBe(400);
    expect(big.body.limitErrors).toEqual(
      expect.arrayContaining([
        { limit: 'uploadSize', max: 5e9, actual: 5e9 + 1 },
        { limit: 'messageLength', max: 500, actual: 501 },
        { limit: 'fileValidityInDays', max: 7, actual: 8 },
      ]),
    );
    const exact = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { message: 'm'.repeat(500), expiresInDays: 7, files: [{ name: 'a', size: 5e9 }] },
    });
    expect(exact.status).toBe(201);
  });

  it('re-checks file names on the server (spec §5) and refuses hostile relative paths', async () => {
    for (const [files, key] of [
      [[{ name: 'setup.exe', size: 1 }], 'uploader:notif_file_is_exe'],
      [[{ name: 'page.HTML', size: 1 }], 'uploader:notif_file_is_htm'],
      [[{ name: 'disk.iso', size: 1 }], 'uploader:notif_file_is_iso'],
      [[{ name: `${'é'.repeat(128)}.txt`, size: 1 }], 'uploader:notif_filename_too_long'],
      [[{ name: 'a.txt', size: 1, relativePath: '../a.txt' }], 'uploader:notif_invalid_filename'],
      [[{ name: 'a.txt', size: 1, relativePath: 'x/../../a.txt' }], 'uploader:notif_invalid_filename'],
      [[{ name: 'a\u0000.txt', size: 1 }], 'uploader:notif_invalid_filename'],
      // Bidirectional controls show "invoice\u202Efdp.exe" as "invoiceexe.pdf": refused like control characters.
      [[{ name: 'invoice\u202Efdp.exe', size: 1 }], 'uploader:notif_invalid_filename'],
      [[{ name: 'a\u2066b.txt', size: 1 }], 'uploader:notif_invalid_filename'],
      [[{ name: 'a.txt', size: 1, relativePath: 'ph\u202Dotos/a.txt' }], 'uploader:notif_invalid_filename'],
      [[{ name: 'a.txt', size: 1, relativePath: 'dir/b.txt' }], 'uploader:notif_invalid_filename'],
    ] as const) {
      const res = await api(ferry.baseUrl, '/api/transfer/transfers', { method: 'POST', json: { files } });
      expect(res.status, JSON.stringify(files)).toBe(400);
      expect(res.body.codes).toEqual(['INVALID_FILENAME']);
      expect(res.body.details.files[0].key).toBe(key);
    }
    const bad = await api(ferry.baseUrl, '/api/transfer/transfers', { method: 'POST', json: { files: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.codes).toEqual(['VALIDATION_FAILED']);
  });
});

describe('resuming an upload after the server restarts', () => {
  it('continues from the stored offset on a new server process and ends with the right SHA-256', async () => {
    const first = await startTestFerry();
    const data = randomFile(3_000_000);
    const t = await createTransfer(first.baseUrl, { files: [{ name: 'big.bin', size: data.length }] });
    const tus = new TusTestClient(first.baseUrl, t.uploadToken);
    const created = await tus.create(t.transferId, t.files[0]!.id, data.length);
    await tus.patch(created.location!, 0, data.subarray(0, 1_234_567));
    await first.close();

    const second = await startTestFerry({ dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    try {
      const tus2 = new TusTestClient(second.baseUrl, t.uploadToken);
      const location = created.location!.replace(first.baseUrl, second.baseUrl);
      expect(await tus2.offset(location)).toBe(1_234_567);
      const rest = await tus2.patch(location, 1_234_567, data.subarray(1_234_567));
      expect(rest.status).toBe(204);
      expect(rest.sha256).toBe(sha256(data));
    } finally {
      await second.close();
    }
  });
});

describe('racing completions', () => {
  it('never enable a transfer while a racing complete resets one of its files', async () => {
    const ferry = await startTestFerry();
    try {
      const data = randomFile(50_000);
      const t = await createTransfer(ferry.baseUrl, { files: [{ name: 'x.bin', size: data.length }] });
      await new TusTestClient(ferry.baseUrl, t.uploadToken).upload(t.transferId, t.files[0]!.id, data);
      const wrong = sha256(Buffer.from('not these bytes'));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
            method: 'POST',
            headers: { 'x-upload-token': t.uploadToken },
            json: { files: [{ id: t.files[0]!.id, sha256: i % 2 ? wrong : sha256(data) }] },
          }),
        ),
      );
      const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${t.transferId}`);
      if (info.status === 200) {
        // Enabled: its file must be there and downloadable, whatever the losers of the race did.
        expect(info.body.files[0].uploaded).toBe(true);
        const link = await api(
          ferry.baseUrl,
          `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
        );
        expect(link.status).toBe(200);
        expect(
          sha256(
            await fetch(link.body.url)
              .then((r) => r.arrayBuffer())
              .then(Buffer.from),
          ),
        ).toBe(sha256(data));
      } else {
        // Reset first: still uploading, the file to be sent again.
        expect(results.some((r) => r.status === 422)).toBe(true);
        const state = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/upload-state`, {
          headers: { 'x-upload-token': t.uploadToken },
        });
        expect(state.body).toMatchObject({ status: 'UPLOADING', files: [{ uploaded: false }] });
      }
      const events = await query<{ type: string }>(
        ferry,
        'SELECT type FROM transfer_events WHERE transfer_id = $1',
        [t.transferId],
      );
      expect(events.filter((e) => e.type === 'AVAILABLE').length).toBeLessThanOrEqual(1);
    } finally {
      await ferry.close();
    }
  });
});
