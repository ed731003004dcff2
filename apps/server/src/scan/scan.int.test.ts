import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../packages/sdk/src/cli/main.js';
import { SWEEP_UNFINISHED } from '../main.js';
import { EICAR, startTestClamd, type TestClamd } from '../test/clamd.js';
import { api, fetchBytes, readZip, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

// A real clamd on a one-line signature database (EICAR only), no network; see test/clamd.ts.
let clamd: TestClamd;
let sink: SmtpSink;
const ferries: TestFerry[] = [];

beforeAll(async () => {
  clamd = await startTestClamd();
  sink = await startSmtpSink();
}, 90_000);

afterAll(async () => {
  for (const f of ferries) await f.close();
  await sink?.close();
  await clamd?.stop();
});

async function ferryWith(env: Record<string, string>) {
  const ferry = await startTestFerry({
    env: { ...clamd.env, SMTP_URL: sink.url, SCAN_RETRY_DELAY_SECONDS: '1', ...env },
  });
  ferries.push(ferry);
  return ferry;
}

/** Creates, uploads and completes an S2 transfer as a signed-in sender. */
async function send(
  ferry: TestFerry,
  bearer: Record<string, string>,
  files: Array<{ name: string; data: Buffer }>,
) {
  const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: bearer,
    json: { type: 'S2', files: files.map((f) => ({ name: f.name, size: f.data.length })) },
  });
  expect(created.status).toBe(201);
  const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
  for (const [i, f] of files.entries())
    await tus.upload(created.body.transferId, created.body.files[i].id, f.data);
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: files.map((f, i) => ({ id: created.body.files[i].id, sha256: sha256(f.data) })) },
  });
  expect(done.status).toBe(200);
  return {
    transferId: created.body.transferId as string,
    ids: created.body.files.map((f: { id: string }) => f.id),
  };
}

const info = (ferry: TestFerry, transferId: string) =>
  api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${transferId}`);
const link = (ferry: TestFerry, transferId: string, fileId?: string) =>
  api(
    ferry.baseUrl,
    `/api/transfer/downloads/link?transferId=${transferId}${fileId ? `&fileId=${fileId}` : ''}`,
  );

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const statuses = (body: { files: Array<{ name: string; scanStatus: string }> }) =>
  Object.fromEntries(body.files.map((f) => [f.name, f.scanStatus]));

describe('virus scanning, SCAN_POLICY=block (the default with clamd)', () => {
  it('holds the transfer SCANNING, then serves the clean files, blocks EICAR and mails the sender', async () => {
    const ferry = await ferryWith({});
    const sender = await signedInAccount(ferry.baseUrl, 'scan-block@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const clean = Buffer.from('just a harmless text file\n');
    const { transferId, ids } = await send(ferry, sender.bearer, [
      { name: 'clean.txt', data: clean },
      { name: 'eicar.com', data: Buffer.from(EICAR) },
    ]);
    // Right after completion it is SCANNING, or already through it (scans are quick): either way nothing infected
    // is served, and it became AVAILABLE only after every verdict (checked on the events below).
    const early = await link(ferry, transferId, ids[1]);
    expect(early.status).toBeGreaterThanOrEqual(403);
    const done = await until(
      () => info(ferry, transferId),
      (r) => r.body.status === 'ENABLED',
    );
    expect(statuses(done.body)).toEqual({ 'clean.txt': 'clean', 'eicar.com': 'infected' });

    const blocked = await link(ferry, transferId, ids[1]);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ status: 403, codes: ['FILE_INFECTED'] });
    const ok = await link(ferry, transferId, ids[0]);
    expect(ok.status).toBe(200);
    expect((await fetchBytes(ok.body.url)).data.equals(clean)).toBe(true);
    // The ZIP leaves the infected file out.
    const zip = await link(ferry, transferId);
    expect(zip.status).toBe(200);
    const entries = await readZip((await fetchBytes(zip.body.url)).data);
    expect([...entries.keys()]).toEqual(['clean.txt']);

    // `ferry get` fetches the clean file, names the infected one on stderr, and exits 1.
    const out = await mkdtemp(path.join(tmpdir(), 'ferry-scan-get-'));
    let stderr = '';
    const code = await main(['node', 'ferry', 'get', `${ferry.baseUrl}/dl/${transferId}`, '--out', out], {
      stdout: { write: () => true },
      stderr: { isTTY: false, write: (text: string) => (stderr += text) },
      env: { FERRY_STATE_DIR: path.join(out, '.state') },
      signal: new AbortController().signal,
    });
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('skipped eicar.com: the virus scan found it infected');
    expect((await readdir(out)).filter((n) => !n.startsWith('.'))).toEqual(['clean.txt']);
    expect((await readFile(path.join(out, 'clean.txt'))).equals(clean)).toBe(true);

    const events = await query<{ type: string }>(
      ferry,
      "SELECT type FROM transfer_events WHERE transfer_id = $1 AND (type LIKE 'SCAN_%' OR type = 'AVAILABLE') ORDER BY id",
      [transferId],
    );
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('SCAN_STARTED');
    expect(types.slice(1, 3).sort()).toEqual(['SCAN_DONE_INFECTED', 'SCAN_DONE_OK']);
    expect(types[3]).toBe('AVAILABLE');
    const mail = await sink.waitFor(
      (m) => m.to.includes('scan-block@example.test') && /eicar\.com/.test(m.parsed.text || ''),
    );
    expect(mail.parsed.text).toContain('Eicar-Test-Signature');
  }, 120_000);

  it('marks a file over the stream limit not-scanned, never clean, without holding on to it', async () => {
    const ferry = await ferryWith({ CLAMD_STREAM_MAX_BYTES: '1000' });
    const sender = await signedInAccount(ferry.baseUrl, 'scan-large@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const { transferId, ids } = await send(ferry, sender.bearer, [
      { name: 'big.bin', data: Buffer.alloc(5000, 7) },
      { name: 'small.txt', data: Buffer.from('small') },
    ]);
    const done = await until(
      () => info(ferry, transferId),
      (r) => r.body.status === 'ENABLED',
    );
    expect(statuses(done.body)).toEqual({ 'big.bin': 'not-scanned', 'small.txt': 'clean' });
    expect((await link(ferry, transferId, ids[0])).status).toBe(200);
  }, 120_000);

  it('keeps files pending while clamd is down, retries, and scans them once it is back', async () => {
    const ferry = await ferryWith({});
    const sender = await signedInAccount(ferry.baseUrl, 'scan-outage@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    await clamd.stop();
    try {
      const { transferId, ids } = await send(ferry, sender.bearer, [
        { name: 'a.txt', data: Buffer.from('aaa') },
      ]);
      // At least one failed attempt, and still nothing known: pending, held, not served.
      await until(
        () =>
          query<{ retry_count: number }>(
            ferry,
            "SELECT retry_count FROM pgboss.job WHERE name = 'scan.file' AND data->>'transferId' = $1",
            [transferId],
          ),
        (rows) => (rows[0]?.retry_count ?? 0) >= 1,
      );
      const held = await info(ferry, transferId);
      expect(held.body.status).toBe('SCANNING');
      expect(statuses(held.body)).toEqual({ 'a.txt': 'pending' });
      expect((await link(ferry, transferId, ids[0])).body.codes).toEqual(['FILE_SCANNING']);
      await clamd.start();
      const done = await until(
        () => info(ferry, transferId),
        (r) => r.body.status === 'ENABLED',
        90_000,
      );
      expect(statuses(done.body)).toEqual({ 'a.txt': 'clean' });
    } finally {
      await clamd.start().catch(() => undefined);
    }
  }, 150_000);
});

describe('virus scanning of added files and clones', () => {
  it('scans files added to a sent transfer; a clone keeps the verdicts of its source', async () => {
    const ferry = await ferryWith({});
    const sender = await signedInAccount(ferry.baseUrl, 'scan-add@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const { transferId } = await send(ferry, sender.bearer, [
      { name: 'first.txt', data: Buffer.from('first') },
    ]);
    await until(
      () => info(ferry, transferId),
      (r) => r.body.status === 'ENABLED',
    );
    const eicar = Buffer.from(EICAR);
    const added = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/files`, {
      method: 'POST',
      headers: sender.bearer,
      json: { files: [{ name: 'added.com', size: eicar.length }] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const fileId = added.body.files[0].id as string;
    await new TusTestClient(ferry.baseUrl, added.body.uploadToken).upload(transferId, fileId, eicar);
    const completed = await api(
      ferry.baseUrl,
      `/api/transfer/transfers/${transferId}/additions/${added.body.additionId}/complete`,
      { method: 'POST', headers: sender.bearer, json: { files: [{ id: fileId, sha256: sha256(eicar) }] } },
    );
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    // Never served before its verdict (FILE_SCANNING), and blocked after it.
    expect(['FILE_SCANNING', 'FILE_INFECTED']).toContain(
      (await link(ferry, transferId, fileId)).body.codes[0],
    );
    const scanned = await until(
      () => info(ferry, transferId),
      (r) => statuses(r.body)['added.com'] === 'infected',
    );
    expect(statuses(scanned.body)).toEqual({ 'first.txt': 'clean', 'added.com': 'infected' });
    expect((await link(ferry, transferId, fileId)).body.codes).toEqual(['FILE_INFECTED']);

    const clone = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/clone`, {
      method: 'POST',
      headers: sender.bearer,
      json: {},
    });
    expect(clone.status, JSON.stringify(clone.body)).toBe(201);
    const cloneId = clone.body.transferId as string;
    const cloned = await until(
      () => info(ferry, cloneId),
      (r) => r.status === 200 && r.body.status === 'ENABLED',
    );
    expect(statuses(cloned.body)).toEqual({ 'first.txt': 'clean', 'added.com': 'infected' });
    expect((await link(ferry, cloneId, fileId)).body.codes).toEqual(['FILE_INFECTED']);
    // The same bytes were not scanned again.
    const started = await query(
      ferry,
      "SELECT 1 FROM transfer_events WHERE transfer_id = $1 AND type = 'SCAN_STARTED'",
      [cloneId],
    );
    expect(started).toHaveLength(0);
  }, 120_000);
});

describe('virus scanning turned off', () => {
  it('lets the hourly sweep move on transfers left SCANNING: their files are not-scanned, never clean', async () => {
    await clamd.stop();
    let ferry: TestFerry;
    let transferId: string;
    try {
      ferry = await ferryWith({});
      const sender = await signedInAccount(ferry.baseUrl, 'scan-off@example.test', (to) =>
        sink.waitFor((m) => m.to.includes(to)),
      );
      ({ transferId } = await send(ferry, sender.bearer, [{ name: 'a.txt', data: Buffer.from('aaa') }]));
      expect((await info(ferry, transferId)).body.status).toBe('SCANNING');
      await ferry.close();
      ferries.splice(ferries.indexOf(ferry), 1);
    } finally {
      await clamd.start();
    }
    // The same database and data, now without clamd.
    const off = await startTestFerry({
      dataDir: ferry.dataDir,
      databaseUrl: ferry.databaseUrl,
      env: { SMTP_URL: sink.url },
    });
    ferries.push(off);
    const job = await off.jobs.send(SWEEP_UNFINISHED, {});
    expect(job).not.toBeNull();
    const done = await until(
      () => info(off, transferId),
      (r) => r.body.status === 'ENABLED',
    );
    expect(statuses(done.body)).toEqual({ 'a.txt': 'not-scanned' });
  }, 120_000);
});

describe('virus scanning, SCAN_POLICY=background', () => {
  it('delivers at once and pulls an infected file when it is found', async () => {
    const ferry = await ferryWith({ SCAN_POLICY: 'background' });
    const sender = await signedInAccount(ferry.baseUrl, 'scan-bg@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const { transferId, ids } = await send(ferry, sender.bearer, [
      { name: 'ok.txt', data: Buffer.from('fine') },
      { name: 'eicar.txt', data: Buffer.from(EICAR) },
    ]);
    const first = await info(ferry, transferId);
    expect(first.body.status).toBe('ENABLED');
    const done = await until(
      () => info(ferry, transferId),
      (r) => r.body.files.every((f: { scanStatus: string }) => f.scanStatus !== 'pending'),
    );
    expect(statuses(done.body)).toEqual({ 'ok.txt': 'clean', 'eicar.txt': 'infected' });
    expect((await link(ferry, transferId, ids[1])).body.codes).toEqual(['FILE_INFECTED']);
    expect((await link(ferry, transferId, ids[0])).status).toBe(200);
  }, 120_000);

  it('revokes the previews of a file found infected later: a rendition URL issued before stops serving', async () => {
    const ferry = await ferryWith({ SCAN_POLICY: 'background' });
    const sender = await signedInAccount(ferry.baseUrl, 'scan-preview@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    await clamd.stop();
    try {
      const { transferId, ids } = await send(ferry, sender.bearer, [
        { name: 'notes.txt', data: Buffer.from(EICAR) },
      ]);
      // Not scanned yet, served at once (background): its text rendition is made and shown.
      const preview = () =>
        api(
          ferry.baseUrl,
          `/api/transfer/downloads/link?transferId=${transferId}&fileId=${ids[0]}&preview=true`,
        );
      const shown = await until(preview, (r) => r.status === 200);
      const before = await fetch(shown.body.url);
      expect(before.status).toBe(200);
      expect(await before.text()).toBe(EICAR);
      await clamd.start();
      await until(
        () => info(ferry, transferId),
        (r) => r.body.files[0].scanStatus === 'infected',
        90_000,
      );
      const after = await fetch(shown.body.url);
      expect(after.status).toBe(403);
      expect(((await after.json()) as { codes: string[] }).codes).toEqual(['FILE_INFECTED']);
      expect((await preview()).body.codes).toEqual(['FILE_INFECTED']);
      const thumbs = await api(
        ferry.baseUrl,
        `/api/transfer/downloads/thumbnail-links?transferId=${transferId}`,
        {
          method: 'POST',
          json: { fileIds: ids, format: 'web' },
        },
      );
      expect(thumbs.body.thumbnails).toEqual([{ fileId: ids[0], status: 'none', preview: false }]);
    } finally {
      await clamd.start().catch(() => undefined);
    }
  }, 150_000);

  it('without clamd, every file is not-scanned (never clean)', async () => {
    const ferry = await startTestFerry({ env: { SMTP_URL: sink.url } });
    ferries.push(ferry);
    const sender = await signedInAccount(ferry.baseUrl, 'scan-none@example.test', (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const { transferId } = await send(ferry, sender.bearer, [
      { name: 'eicar.txt', data: Buffer.from(EICAR) },
    ]);
    const got = await info(ferry, transferId);
    expect(got.body.status).toBe('ENABLED');
    expect(statuses(got.body)).toEqual({ 'eicar.txt': 'not-scanned' });
  }, 60_000);
});
