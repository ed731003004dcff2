import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FerryProcess, Fleet } from '../support/ferry.js';
import {
  codedErrorProblem,
  createTransfer,
  errorShapeProblem,
  fetchBytes,
  randomFile,
  raw,
  sendTransfer,
  sha256,
  signedInAccount,
  TusTestClient,
  tally,
} from '../support/http.js';
import { type FreshDatabase, freshDatabase } from '../support/infra.js';
import { waitForOutbox } from '../support/mail.js';

const GB = 1e9;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('races on one instance', () => {
  const fleet = new Fleet();
  let db: FreshDatabase;
  let ferry: FerryProcess;

  beforeAll(async () => {
    db = await freshDatabase();
    ferry = await fleet.start({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await fleet.stopAll();
    await db?.drop();
  });

  it('50 racing link calls against maxDownloads=5: exactly 5 answered 200, 45 answered 403 TOO_MANY_DOWNLOADS', async () => {
    const data = randomFile(4096);
    const t = await sendTransfer(ferry.url, [{ name: 'report.pdf', data }], { maxDownloads: 5 });
    const fileId = t.files[0]!.id;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        raw(
          ferry.url,
          `/api/transfer/downloads/link?transferId=${t.transferId}${i % 2 ? `&fileId=${fileId}` : ''}`,
        ),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 5, 403: 45 });
    for (const a of answers.filter((x) => x.status === 403))
      expect(codedErrorProblem(a, 403, 'TOO_MANY_DOWNLOADS')).toBeNull();

    const [row] = await db.query<{ download_count: number }>(
      'SELECT download_count FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(row!.download_count).toBe(5);
    const [logged] = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM downloads WHERE transfer_id = $1',
      [t.transferId],
    );
    expect(Number(logged!.n)).toBe(5);
    const info = await raw(ferry.url, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect((info.json as { downloadsLeft: number }).downloadsLeft).toBe(0);

    // Every link that was granted really serves the bytes.
    for (const granted of answers.filter((a) => a.status === 200)) {
      const { url } = granted.json as { url: string; fileName: string };
      const got = await fetchBytes(url);
      expect(got.status).toBe(200);
      if (got.headers.get('content-type') === 'application/octet-stream')
        expect(sha256(got.data)).toBe(sha256(data));
    }
  });

  it('50 racing complete calls: ENABLED once, exactly one UPLOADED and one AVAILABLE event', async () => {
    const data = randomFile(100_000);
    const t = await createTransfer(ferry.url, { files: [{ name: 'a.bin', size: data.length }] });
    const tus = new TusTestClient(ferry.url, t.uploadToken);
    expect(await tus.upload(t.transferId, t.files[0]!.id, data)).toBe(sha256(data));

    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        raw(ferry.url, `/api/transfer/transfers/${t.transferId}/complete`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-upload-token': t.uploadToken },
          body: JSON.stringify({ files: [{ id: t.files[0]!.id, sha256: sha256(data) }] }),
        }),
      ),
    );
    // Completing is idempotent: every caller learns the transfer is ENABLED.
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 50 });
    for (const a of answers) expect((a.json as { status: string }).status).toBe('ENABLED');

    const info = await raw(ferry.url, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ status: 'ENABLED', fileCount: 1 });
    const events = await db.query<{ type: string; n: string }>(
      'SELECT type, count(*) AS n FROM transfer_events WHERE transfer_id = $1 GROUP BY type',
      [t.transferId],
    );
    expect(Object.fromEntries(events.map((e) => [e.type, Number(e.n)]))).toEqual({
      CREATED: 1,
      UPLOADED: 1,
      AVAILABLE: 1,
    });
  });

  it('complete calls racing with conflicting checksums never leave an ENABLED transfer without its file', async () => {
    // The token holder's client retries with a corrupted hash while a good call is in flight. Either outcome is
    // fine — the file reset for a new upload (still UPLOADING), or ENABLED with the bytes — but not both.
    const outcomes: string[] = [];
    for (let round = 0; round < 5; round++) {
      const data = randomFile(50_000);
      const t = await createTransfer(ferry.url, { files: [{ name: 'a.bin', size: data.length }] });
      const fileId = t.files[0]!.id;
      await new TusTestClient(ferry.url, t.uploadToken).upload(t.transferId, fileId, data);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          raw(ferry.url, `/api/transfer/transfers/${t.transferId}/complete`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-upload-token': t.uploadToken },
            body: JSON.stringify({ files: [{ id: fileId, sha256: i % 2 ? sha256(data) : 'f'.repeat(64) }] }),
          }),
        ),
      );
      const [row] = await db.query<{ status: string; uploaded: boolean }>(
        `SELECT t.status, f.uploaded_at IS NOT NULL AS uploaded
           FROM transfers t JOIN transfer_files f ON f.transfer_id = t.id WHERE t.id = $1`,
        [t.transferId],
      );
      let download = 'not available';
      if (row!.status === 'ENABLED') {
        const link = await raw(
          ferry.url,
          `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${fileId}`,
        );
        download = `link ${link.status}`;
        if (link.status === 200) {
          const got = await fetchBytes((link.json as { url: string }).url);
          download = got.status === 200 && sha256(got.data) === sha256(data) ? 'ok' : `blob ${got.status}`;
        }
      }
      const consistent =
        row!.status === 'ENABLED' ? row!.uploaded && download === 'ok' : row!.status === 'UPLOADING';
      if (!consistent)
        outcomes.push(
          `round ${round}: ${row!.status}, file uploaded=${row!.uploaded}, download ${download}, answers ${JSON.stringify(tally(answers.map((a) => a.status)))}`,
        );
    }
    expect(outcomes).toEqual([]);
  });

  it('concurrent creations near the anonymous 5 GB per-transfer limit are each judged alone', async () => {
    // 48 creations at once, each a few files whose total is just under, exactly at, or just over 5e9 bytes.
    const requests = Array.from({ length: 48 }, (_, i) => {
      const total = i % 4 === 0 ? 5 * GB + 1 + i : i % 4 === 1 ? 5 * GB : 5 * GB - 1 - i * 1000;
      const parts = 1 + (i % 3);
      const sizes = Array.from({ length: parts }, (_, p) =>
        p < parts - 1 ? Math.floor(total / parts) : total - Math.floor(total / parts) * (parts - 1),
      );
      return { total, files: sizes.map((size, p) => ({ name: `part-${i}-${p}.bin`, size })) };
    });
    const answers = await Promise.all(
      requests.map((r) =>
        raw(ferry.url, '/api/transfer/transfers', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ files: r.files }),
        }),
      ),
    );
    for (const [i, r] of requests.entries()) {
      const a = answers[i]!;
      if (r.total <= 5 * GB) {
        expect(a.status, JSON.stringify(a.json)).toBe(201);
        const created = a.json as { transferId: string; files: Array<{ size: number }> };
        expect(created.files.map((f) => f.size)).toEqual(r.files.map((f) => f.size));
        const [row] = await db.query<{ total_size: number }>(
          'SELECT total_size FROM transfers WHERE id = $1',
          [created.transferId],
        );
        expect(Number(row!.total_size)).toBe(r.total);
      } else {
        expect(codedErrorProblem(a, 400, 'LIMIT_EXCEEDED')).toBeNull();
        expect((a.json as { limitErrors: unknown }).limitErrors).toEqual([
          { limit: 'uploadSize', max: 5 * GB, actual: r.total },
        ]);
      }
    }
  });

  it('a storage-quota race: 30 racing 5 GB creations by one account (100 GB) store exactly 100 GB, never more', async () => {
    const account = await signedInAccount(ferry.url, 'quota-racer@accounts.example', async (to) => {
      const mail = await waitForOutbox(ferry.dataDir, (m) => m.to.includes(to));
      return { parsed: { text: mail.text } };
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        raw(ferry.url, '/api/transfer/transfers', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...account.bearer },
          body: JSON.stringify({ files: [{ name: `part-${i}.bin`, size: 5 * GB }] }),
        }),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 20, 400: 10 });
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(codedErrorProblem(refused, 400, 'LIMIT_EXCEEDED')).toBeNull();
      expect((refused.json as { limitErrors: unknown }).limitErrors).toEqual([
        { limit: 'storage', max: 100 * GB, actual: 105 * GB },
      ]);
    }
    const [row] = await db.query<{ stored: string; n: string }>(
      'SELECT sum(total_size)::text AS stored, count(*)::text AS n FROM transfers WHERE owner_id = $1',
      [account.uid],
    );
    expect({ stored: Number(row!.stored), n: Number(row!.n) }).toEqual({ stored: 100 * GB, n: 20 });
    const limits = await raw(ferry.url, `/api/transfer/limits/${account.uid}`, { headers: account.bearer });
    expect(limits.json).toMatchObject({ storage: 100 * GB, storageUsed: 100 * GB });
  });

  it('a tus upload cannot carry more bytes than the size that was declared and judged', async () => {
    const declared = 1000;
    const t = await createTransfer(ferry.url, { files: [{ name: 'x.bin', size: declared }] });
    const fileId = t.files[0]!.id;
    const uploadId = `${t.transferId}-${fileId}`;
    const stored = () => {
      try {
        return statSync(path.join(ferry.dataDir, 'files', 'uploads', uploadId)).size;
      } catch {
        return 0;
      }
    };
    const tusPost = (headers: Record<string, string>, body?: Buffer) =>
      raw(ferry.url, '/api/transfer/uploads', {
        method: 'POST',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Metadata': `transferId ${b64(t.transferId)},fileId ${b64(fileId)}`,
          'X-Upload-Token': t.uploadToken,
          ...headers,
        },
        body,
      });

    // Creation with any other length than the declared size is refused (§8 body).
    const refused: Array<Record<string, string>> = [
      { 'Upload-Length': String(declared + 1) },
      { 'Upload-Length': String(declared - 1) },
      { 'Upload-Length': String(5 * GB) },
      { 'Upload-Length': '1e3' },
      { 'Upload-Defer-Length': '1' },
      {},
    ];
    for (const headers of refused) {
      const res = await tusPost(headers);
      expect(res.status, `${JSON.stringify(headers)} → ${res.status} ${res.text}`).toBe(400);
      // tus's own protocol errors are plain text; Ferry's refusals are §8 JSON.
      if (res.json !== undefined) expect(errorShapeProblem(res.json, 400), res.text).toBeNull();
    }
    // Creation-with-upload carrying more bytes than Upload-Length.
    const withBody = await tusPost(
      { 'Upload-Length': String(declared), 'Content-Type': 'application/offset+octet-stream' },
      randomFile(declared + 500),
    );
    expect(withBody.status).toBeGreaterThanOrEqual(400);
    expect(withBody.status).toBeLessThan(500);
    expect(stored()).toBeLessThanOrEqual(declared);

    const tus = new TusTestClient(ferry.url, t.uploadToken);
    const created = await tus.create(t.transferId, fileId, declared);
    expect(created.status).toBe(201);
    // A PATCH longer than the upload, with Content-Length, then streamed (chunked, no length known up front).
    const long = await tus.patch(created.location!, 0, randomFile(declared + 500));
    expect(long.status).toBe(413);
    const { Readable } = await import('node:stream');
    const chunked = await tus
      .patch(created.location!, 0, Readable.from([randomFile(600), randomFile(600)]))
      .catch((error: unknown) => ({ status: 0, offset: -1, sha256: null, body: String(error) }));
    expect(chunked.status).not.toBe(204);
    expect(chunked.status).toBeLessThan(500);
    expect(stored()).toBeLessThanOrEqual(declared);
    const offset = await tus.offset(created.location!);
    expect(offset).toBeLessThanOrEqual(declared);
    const state = await raw(ferry.url, `/api/transfer/transfers/${t.transferId}/upload-state`, {
      headers: { 'x-upload-token': t.uploadToken },
    });
    const [file] = await db.query<{ size: number; uploaded_at: Date | null }>(
      'SELECT size, uploaded_at FROM transfer_files WHERE transfer_id = $1',
      [t.transferId],
    );
    expect(Number(file!.size)).toBe(declared);
    // If the upload counts as finished, its bytes are exactly the declared size and the hash is of them.
    if ((state.json as { files: Array<{ uploaded: boolean }> }).files[0]!.uploaded)
      expect(stored()).toBe(declared);
  });
});
