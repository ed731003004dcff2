import { existsSync } from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTransfer, fetchBytes, randomFile, readZip, sendTransfer, sha256 } from '../test/flows.js';
import { startTestFerry, TEST_REDIS_URL, type TestFerry } from '../test/harness.js';
import { startTestS3, type TestS3 } from '../test/s3rver.js';
import { TusTestClient } from '../test/tus-client.js';

describe('transfers on S3 storage', () => {
  let s3: TestS3;
  let ferry: TestFerry;
  let env: Record<string, string>;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await startTestS3();
    env = {
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PART_SIZE_MB: '5',
      REDIS_URL: TEST_REDIS_URL,
    };
    client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    ferry = await startTestFerry({ env });
  });
  afterAll(async () => {
    await ferry?.close();
    client?.destroy();
    await s3?.close();
  });

  const objectSize = async (key: string) =>
    (await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key })).catch(() => null))
      ?.ContentLength ?? null;

  const complete = (baseUrl: string, t: { transferId: string; uploadToken: string }, files: unknown[]) =>
    api(baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { files },
    });

  it('uploads a 12 MB file in several PATCHes into the bucket and serves it whole, by Range and in a ZIP', async () => {
    const big = randomFile(12_000_000);
    const notes = randomFile(1000);
    const t = await createTransfer(ferry.baseUrl, {
      files: [
        { name: 'video.mp4', size: big.length },
        { name: 'notes.txt', size: notes.length, relativePath: 'docs/notes.txt' },
      ],
    });
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    const created = await tus.create(t.transferId, t.files[0]!.id, big.length);
    expect(created.status).toBe(201);
    let last: Awaited<ReturnType<TusTestClient['patch']>> | undefined;
    for (const [start, end] of [
      [0, 3_500_000],
      [3_500_000, 8_000_000],
      [8_000_000, big.length],
    ] as const) {
      last = await tus.patch(created.location!, start, big.subarray(start, end));
      expect(last.status).toBe(204);
      expect(last.offset).toBe(end);
      expect(await tus.offset(created.location!)).toBe(end);
    }
    expect(last!.sha256).toBe(sha256(big));
    await tus.upload(t.transferId, t.files[1]!.id, notes);
    const done = await complete(ferry.baseUrl, t, [
      { id: t.files[0]!.id, sha256: sha256(big) },
      { id: t.files[1]!.id, sha256: sha256(notes) },
    ]);
    expect(done.status).toBe(200);

    // The bytes are in the bucket, under the upload id, and nothing went to local disk.
    expect(await objectSize(`${t.transferId}-${t.files[0]!.id}`)).toBe(big.length);
    expect(existsSync(path.join(ferry.dataDir, 'files'))).toBe(false);

    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    expect(link.body).toMatchObject({ size: big.length, sha256: sha256(big) });
    const whole = await fetchBytes(link.body.url);
    expect(whole.status).toBe(200);
    expect(sha256(whole.data)).toBe(sha256(big));
    const across = await fetchBytes(link.body.url, { range: 'bytes=5242000-5243999' }); // over a part boundary
    expect(across.status).toBe(206);
    expect(across.data.equals(big.subarray(5_242_000, 5_244_000))).toBe(true);
    const tail = await fetchBytes(link.body.url, { range: 'bytes=-1' });
    expect(tail.data.equals(big.subarray(big.length - 1))).toBe(true);

    const zipLink = await api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}`);
    const zip = await fetchBytes(zipLink.body.url);
    expect(zip.status).toBe(200);
    expect(zip.data.length).toBe(zipLink.body.size);
    const entries = await readZip(zip.data);
    expect([...entries.keys()]).toEqual(['video.mp4', 'docs/notes.txt']);
    expect(sha256(entries.get('video.mp4')!)).toBe(sha256(big));
    expect(entries.get('docs/notes.txt')!.equals(notes)).toBe(true);
    const resumed = await fetchBytes(zipLink.body.url, { range: 'bytes=6000000-' });
    expect(resumed.data.equals(zip.data.subarray(6_000_000))).toBe(true);
  });

  it('redirects single-file downloads to a short presigned URL when S3_PRESIGNED_DOWNLOADS is on', async () => {
    const presigning = await startTestFerry({ env: { ...env, S3_PRESIGNED_DOWNLOADS: 'true' } });
    try {
      const data = randomFile(70_000);
      const t = await sendTransfer(presigning.baseUrl, [{ name: 'report.pdf', data }]);
      const link = await api(
        presigning.baseUrl,
        `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
      );
      const res = await fetch(link.body.url, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const location = new URL(res.headers.get('location')!);
      expect(location.origin).toBe(new URL(s3.endpoint).origin);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(location.searchParams.get('response-content-disposition')).toContain('attachment');
      expect(sha256((await fetchBytes(location.toString())).data)).toBe(sha256(data));
      // HEAD is answered by Ferry itself; the ZIP is always assembled and served by Ferry.
      expect((await fetch(link.body.url, { method: 'HEAD', redirect: 'manual' })).status).toBe(200);
      const zip = await api(presigning.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}`);
      expect((await fetch(zip.body.url, { redirect: 'manual' })).status).toBe(200);
    } finally {
      await presigning.close();
    }
  });

  it('discards a finished upload whose checksum the client disputes, and takes the file again', async () => {
    const data = randomFile(200_000);
    const t = await createTransfer(ferry.baseUrl, { files: [{ name: 'x.bin', size: data.length }] });
    const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
    await tus.upload(t.transferId, t.files[0]!.id, data);
    const key = `${t.transferId}-${t.files[0]!.id}`;
    expect(await objectSize(key)).toBe(data.length);
    const wrong = await complete(ferry.baseUrl, t, [
      { id: t.files[0]!.id, sha256: sha256(Buffer.from('x')) },
    ]);
    expect(wrong.status).toBe(422);
    expect(await objectSize(key)).toBeNull();
    expect(await tus.upload(t.transferId, t.files[0]!.id, data)).toBe(sha256(data));
    const ok = await complete(ferry.baseUrl, t, [{ id: t.files[0]!.id, sha256: sha256(data) }]);
    expect(ok.status).toBe(200);
    const link = await api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}`);
    expect((await readZip((await fetchBytes(link.body.url)).data)).get('x.bin')!.equals(data)).toBe(true);
  });

  it('resumes an upload on a restarted server from the offset in the bucket, with the right SHA-256', async () => {
    const first = await startTestFerry({ env });
    const data = randomFile(12_000_000);
    const t = await createTransfer(first.baseUrl, { files: [{ name: 'big.bin', size: data.length }] });
    const tus = new TusTestClient(first.baseUrl, t.uploadToken);
    const created = await tus.create(t.transferId, t.files[0]!.id, data.length);
    // One full 5 MiB part plus a held-back tail of 757,120 bytes.
    expect((await tus.patch(created.location!, 0, data.subarray(0, 6_000_000))).offset).toBe(6_000_000);
    await first.close();

    // A new process knows no running hash: the store cannot read the unfinished upload back, so the finished
    // blob is hashed whole.
    const second = await startTestFerry({ dataDir: first.dataDir, databaseUrl: first.databaseUrl, env });
    try {
      const tus2 = new TusTestClient(second.baseUrl, t.uploadToken);
      const location = created.location!.replace(first.baseUrl, second.baseUrl);
      expect(await tus2.offset(location)).toBe(6_000_000);
      const rest = await tus2.patch(location, 6_000_000, data.subarray(6_000_000));
      expect(rest.status).toBe(204);
      expect(rest.sha256).toBe(sha256(data));
      expect((await complete(second.baseUrl, t, [{ id: t.files[0]!.id, sha256: sha256(data) }])).status).toBe(
        200,
      );
      const link = await api(
        second.baseUrl,
        `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
      );
      expect(sha256((await fetchBytes(link.body.url)).data)).toBe(sha256(data));
    } finally {
      await second.close();
    }
  });
});
