import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferSseKey } from '../storage/s3-sse-c.js';
import { api, fetchBytes, readZip, sendTransfer, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { startTestS3, type TestS3 } from '../test/s3rver.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

describe('S3 storage with SSE-C (STORAGE_ENCRYPTION_KEY_FILE)', () => {
  const master = randomBytes(32);
  /** Transfers of an account whose limits say disableSSEC: the harness then refuses any SSE-C header. */
  const plainTransfers = new Set<string>();
  let keyDir: string;
  let s3: TestS3;
  let sink: SmtpSink;
  let ferry: TestFerry;
  beforeAll(async () => {
    keyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-key-'));
    await fs.writeFile(path.join(keyDir, 'storage.key'), master.toString('base64'));
    s3 = await startTestS3({
      sseC: (key) => {
        const transferId = /^([A-Za-z0-9]+)-/.exec(key)?.[1];
        return transferId && !plainTransfers.has(transferId) ? transferSseKey(master, transferId) : null;
      },
      extraBuckets: ['ferry-test-eu'],
    });
    sink = await startSmtpSink();
    ferry = await startTestFerry({
      env: {
        STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PART_SIZE_MB: '5',
        S3_PRESIGNED_DOWNLOADS: 'true',
        S3_REGIONS: JSON.stringify({ eu: { bucket: 'ferry-test-eu' } }),
        SINGLE_INSTANCE: 'true',
        STORAGE_ENCRYPTION_KEY_FILE: path.join(keyDir, 'storage.key'),
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
      },
    });
  });
  afterAll(async () => {
    await ferry?.close();
    await s3?.close();
    await sink?.close();
    await fs.rm(keyDir, { recursive: true, force: true });
  });

  it('sends the transfer’s key on every object call, and streams downloads through Ferry (no presigned URL)', async () => {
    const big = randomBytes(6 * 1024 * 1024 + 123); // more than one 5 MiB part
    const small = randomBytes(5000);
    const t = await sendTransfer(ferry.baseUrl, [
      { name: 'big.bin', data: big },
      { name: 'small.txt', data: small },
    ]);
    expect((await query(ferry, 'SELECT sse_c FROM transfers WHERE id = $1', [t.transferId]))[0]).toEqual({
      sse_c: true,
    });
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    const res = await fetch(link.body.url, { redirect: 'manual' });
    expect(res.status).toBe(200); // served by Ferry, not a 302 to the bucket
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(big));
    const part = await fetchBytes(link.body.url, { range: 'bytes=5242000-5243000' });
    expect(part.data.equals(big.subarray(5_242_000, 5_243_001))).toBe(true);
    const zip = await api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}`);
    const entries = await readZip((await fetchBytes(zip.body.url)).data);
    expect(entries.get('big.bin')!.equals(big)).toBe(true);
    expect(entries.get('small.txt')!.equals(small)).toBe(true);
    expect(s3.refused).toEqual([]);
  });

  /** A signed-in account with these limit settings (PUT /transfer/limits/{id}/by-user), and its new transfer. */
  async function accountTransfer(label: string, settings: Record<string, unknown>, data: Buffer) {
    const who = await signedInAccount(ferry.baseUrl, `${label}-${process.pid}@ferry.example`, (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const limits = await api(ferry.baseUrl, `/api/transfer/limits/${who.uid}/by-user`, {
      method: 'PUT',
      headers: who.bearer,
      json: settings,
    });
    expect(limits.body).toMatchObject(settings);
    const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: who.bearer,
      json: { files: [{ name: 'file.bin', size: data.length }] },
    });
    expect(created.status).toBe(201);
    return created.body as { transferId: string; uploadToken: string; files: Array<{ id: string }> };
  }

  async function upload(
    t: { transferId: string; uploadToken: string; files: Array<{ id: string }> },
    data: Buffer,
  ) {
    await new TusTestClient(ferry.baseUrl, t.uploadToken).upload(t.transferId, t.files[0]!.id, data);
    const done = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { files: [{ id: t.files[0]!.id, sha256: sha256(data) }] },
    });
    expect(done.status).toBe(200);
  }

  it('keeps a region-locked transfer’s objects in its region’s bucket, with its SSE-C key', async () => {
    const data = randomBytes(30_000);
    const t = await accountTransfer('region', { forcedRegion: 'eu' }, data);
    const before = s3.requests.length;
    await upload(t, data);
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    const res = await fetch(link.body.url, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(data));
    const calls = s3.requests.slice(before).filter((r) => r.path.includes(t.transferId));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((r) => !r.path.startsWith('/ferry-test-eu/'))).toEqual([]);
    expect(s3.refused).toEqual([]);
  });

  it('stores the transfers of an account whose limits say disableSSEC without SSE-C, presigned as before', async () => {
    const data = randomBytes(20_000);
    const t = await accountTransfer('plain', { disableSSEC: true }, data);
    plainTransfers.add(t.transferId);
    await upload(t, data);
    expect((await query(ferry, 'SELECT sse_c FROM transfers WHERE id = $1', [t.transferId]))[0]).toEqual({
      sse_c: false,
    });
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    const res = await fetch(link.body.url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(sha256((await fetchBytes(res.headers.get('location')!)).data)).toBe(sha256(data));
    expect(s3.refused).toEqual([]);
  });
});
