import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fetchBytes, randomFile, readZip, sendTransfer, sha256 } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';

describe('downloading', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry({ env: { PASSWORD_ATTEMPTS_PER_WINDOW: '5' } });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  const link = (transferId: string, extra = '') =>
    api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${transferId}${extra}`);

  it('serves one file as an attachment that is never rendered, with Range support', async () => {
    const data = randomFile(300_000);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'image.svg', data }]);
    const res = await link(t.transferId, `&fileId=${t.files[0]!.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fileName: 'image.svg', size: data.length, sha256: sha256(data) });
    const whole = await fetchBytes(res.body.url);
    expect(whole.status).toBe(200);
    expect(sha256(whole.data)).toBe(sha256(data));
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="image.svg"/);
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-security-policy')).toContain('sandbox');

    const part = await fetchBytes(res.body.url, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
    expect(part.data.equals(data.subarray(1000, 2000))).toBe(true);
    const tail = await fetchBytes(res.body.url, { range: 'bytes=-500' });
    expect(tail.data.equals(data.subarray(data.length - 500))).toBe(true);
    const open = await fetchBytes(res.body.url, { range: 'bytes=299000-' });
    expect(open.data.equals(data.subarray(299_000))).toBe(true);
    const beyond = await fetchBytes(res.body.url, { range: `bytes=${data.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${data.length}`);
  });

  it('streams the whole transfer as a ZIP with folders kept, duplicates renamed, and resumable by Range', async () => {
    const a = randomFile(70_000);
    const b = randomFile(1);
    const c = randomFile(0);
    const d = randomFile(5000);
    const t = await sendTransfer(
      ferry.baseUrl,
      [
        { name: 'a.bin', data: a, relativePath: 'album/2024/a.bin' },
        { name: 'b.txt', data: b },
        { name: 'empty.txt', data: c, relativePath: 'album/empty.txt' },
        { name: 'b.txt', data: d },
      ],
      { name: 'Holiday / photos' },
    );
    const res = await link(t.transferId);
    expect(res.body.fileName).toBe('Holiday photos.zip');
    expect(res.body.sha256).toBeNull();
    const zip = await fetchBytes(res.body.url);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Number(zip.headers.get('content-length'))).toBe(zip.data.length);
    expect(zip.data.length).toBe(res.body.size);
    const entries = await readZip(zip.data);
    expect([...entries.keys()]).toEqual(['album/2024/a.bin', 'b.txt', 'album/empty.txt', 'b (2).txt']);
    expect(entries.get('album/2024/a.bin')!.equals(a)).toBe(true);
    expect(entries.get('b (2).txt')!.equals(d)).toBe(true);
    const resumed = await fetchBytes(res.body.url, { range: 'bytes=100-' });
    expect(resumed.status).toBe(206);
    expect(resumed.data.equals(zip.data.subarray(100))).toBe(true);
  });

  it('describes a transfer on the info call and withholds files behind a password', async () => {
    const data = randomFile(1000);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'secret.pdf', data }], {
      password: 'correct horse',
      message: 'hi',
    });
    const locked = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect(locked.body).toMatchObject({
      passwordProtected: true,
      locked: true,
      files: [],
      message: null,
      fileCount: 1,
    });
    const open = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/info?transferId=${t.transferId}&password=correct%20horse`,
    );
    expect(open.body).toMatchObject({ locked: false, message: 'hi', files: [{ name: 'secret.pdf' }] });

    const missing = await link(t.transferId);
    expect(missing.status).toBe(401);
    expect(missing.body.codes).toEqual(['PASSWORD_REQUIRED']);
    const wrong = await link(t.transferId, '&password=nope');
    expect(wrong.status).toBe(403);
    expect(wrong.body.codes).toEqual(['WRONG_PASSWORD']);
    const right = await link(t.transferId, `&fileId=${t.files[0]!.id}&password=correct%20horse`);
    expect(right.status).toBe(200);
    expect(sha256((await fetchBytes(right.body.url)).data)).toBe(sha256(data));
  });

  it('check-password answers 200 when right, 403 when wrong and 429 once guessing goes on', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'x.txt', data: randomFile(10) }], {
      password: 'pw-123456',
    });
    const check = (password: string) =>
      api(ferry.baseUrl, '/api/transfer/downloads/check-password', {
        method: 'POST',
        json: { transferId: t.transferId, password },
      });
    expect((await check('pw-123456')).body).toEqual({ ok: true });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await check(`guess-${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await check('pw-123456');
    expect(limited.status).toBe(429);
    expect(limited.body.codes).toEqual(['RATE_LIMITED']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts downloads exactly: 20 racing link calls against maxDownloads=3 give 3 links', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'x.txt', data: randomFile(10) }], {
      maxDownloads: 3,
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => link(t.transferId)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(17);
    expect(refused[0]!.body.codes).toEqual(['TOO_MANY_DOWNLOADS']);
    const rows = await query<{ download_count: number }>(
      ferry,
      'SELECT download_count FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(rows[0]!.download_count).toBe(3);
    const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect(info.body.downloadsLeft).toBe(0);
  });

  it('counts the link calls of one visit (same browserCode) as one download', async () => {
    const t = await sendTransfer(
      ferry.baseUrl,
      [
        { name: 'a.txt', data: randomFile(10) },
        { name: 'b.txt', data: randomFile(20) },
      ],
      { maxDownloads: 2 },
    );
    const visit = (code: string, fileId: string, order: number) =>
      link(t.transferId, `&fileId=${fileId}&browserCode=${code}&orderId=${order}`);
    const [a, b] = t.files.map((f) => f.id) as [string, string];
    expect((await visit('visit-1', a, 1)).status).toBe(200);
    expect((await visit('visit-1', b, 2)).status).toBe(200);
    expect((await visit('visit-1', a, 3)).status).toBe(200);
    const racing = await Promise.all(['visit-2', 'visit-3', 'visit-4'].map((code) => visit(code, a, 1)));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 403, 403]);
    expect((await visit('visit-5', b, 1)).body.codes).toEqual(['TOO_MANY_DOWNLOADS']);
    const rows = await query<{ download_count: number }>(
      ferry,
      'SELECT download_count FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(rows[0]!.download_count).toBe(2);
  });

  it('counts a visit again from another client, and from the same client once its hour is over', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      maxDownloads: 10,
    });
    const { port } = new URL(ferry.baseUrl);
    // A link call of visit "v1" from a given local address and user agent; answers its status.
    const visit = (localAddress: string, userAgent: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            localAddress,
            path: `/api/transfer/downloads/link?transferId=${t.transferId}&browserCode=v1&orderId=1`,
            headers: { 'user-agent': userAgent },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
      });
    const counted = async () =>
      (
        await query<{ download_count: number }>(ferry, 'SELECT download_count FROM transfers WHERE id = $1', [
          t.transferId,
        ])
      )[0]!.download_count;
    const steps: number[] = [];
    for (const [address, agent] of [
      ['127.0.0.1', 'browser A'],
      ['127.0.0.1', 'browser A'],
      ['127.0.0.1', 'browser B'],
      ['127.0.0.2', 'browser A'],
      ['127.0.0.2', 'browser A'],
    ] as const) {
      expect(await visit(address, agent)).toBe(200);
      steps.push(await counted());
    }
    expect(steps).toEqual([1, 1, 2, 3, 3]);
    // An hour after its first count, the same client's visit counts again, and starts a new hour.
    await query(
      ferry,
      `UPDATE download_sessions SET counted_at = now() - interval '61 minutes', created_at = now() - interval '61 minutes'
        WHERE transfer_id = $1`,
      [t.transferId],
    );
    expect(await visit('127.0.0.1', 'browser A')).toBe(200);
    expect(await counted()).toBe(4);
    expect(await visit('127.0.0.1', 'browser A')).toBe(200);
    expect(await counted()).toBe(4);
  });

  it('never hands out a file or the ZIP as a preview, and counts nothing for one', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.pdf', data: randomFile(100) }], {
      maxDownloads: 1,
      forceEmailWhenDownloadS2: true,
    });
    for (const extra of [`&fileId=${t.files[0]!.id}&preview=true`, '&preview=true']) {
      const preview = await link(t.transferId, extra);
      expect(preview.status).toBe(404);
      expect(preview.body).toMatchObject({ status: 404, codes: ['PREVIEW_NOT_AVAILABLE'] });
      expect(preview.body.url).toBeUndefined();
    }
    const rows = await query<{ download_count: number; logged: number }>(
      ferry,
      `SELECT download_count, (SELECT count(*)::int FROM downloads WHERE transfer_id = $1) AS logged
         FROM transfers WHERE id = $1`,
      [t.transferId],
    );
    expect(rows[0]).toEqual({ download_count: 0, logged: 0 });
    const download = await link(t.transferId, '&downloaderEmail=ann%40example.com');
    expect(download.status).toBe(200);
  });

  it('counts nothing for a HEAD on the link call', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      maxDownloads: 1,
    });
    const url = `${ferry.baseUrl}/api/transfer/downloads/link?transferId=${t.transferId}`;
    for (let i = 0; i < 3; i++) expect((await fetch(url, { method: 'HEAD' })).status).toBe(405);
    const rows = await query<{ download_count: number }>(
      ferry,
      'SELECT download_count FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(rows[0]!.download_count).toBe(0);
    expect((await link(t.transferId)).status).toBe(200);
  });

  it('answers unknown transfers with 404 and expired ones with 410, also for links handed out before', async () => {
    const unknown = await link('AAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.body.codes).toEqual(['TRANSFER_NOT_FOUND']);
    const malformed = await link('../etc/passwd');
    expect(malformed.status).toBe(400);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'x.txt', data: randomFile(10) }]);
    const earlier = await link(t.transferId);
    await query(ferry, `UPDATE transfers SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      t.transferId,
    ]);
    const expired = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect(expired.status).toBe(410);
    expect(expired.body.codes).toEqual(['TRANSFER_EXPIRED']);
    expect((await fetchBytes(earlier.body.url)).status).toBe(410);
  });

  it('refuses forged or altered download tokens', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'x.txt', data: randomFile(10) }]);
    const res = await link(t.transferId);
    const url = new URL(res.body.url);
    const [body, mac] = url.pathname.split('/').pop()!.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
    payload.e += 86_400_000 * 365;
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    expect((await fetchBytes(`${ferry.baseUrl}/api/transfer/downloads/blob/${forged}`)).status).toBe(404);
  });

  it('aborting a download mid-stream leaves the server healthy', async () => {
    const data = randomFile(5_000_000);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'big.bin', data }]);
    const res = await link(t.transferId);
    const controller = new AbortController();
    const response = await fetch(res.body.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await new Promise((r) => setTimeout(r, 100));
    const again = await fetchBytes(res.body.url);
    expect(again.status).toBe(200);
    expect((await readZip(again.data)).get('big.bin')!.equals(data)).toBe(true);
  });
});
