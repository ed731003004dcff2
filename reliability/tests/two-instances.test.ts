import { createHmac, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../../apps/server/src/jobs/queue.js';
import { startTestS3, type TestS3 } from '../../apps/server/src/test/s3rver.js';
import { type FerryProcess, Fleet } from '../support/ferry.js';
import {
  api,
  codedErrorProblem,
  createTransfer,
  fetchBytes,
  randomFile,
  raw,
  sendTransfer,
  sha256,
  sleep,
  TusTestClient,
  tally,
} from '../support/http.js';
import { type FreshDatabase, freshDatabase, requireRedis, TEST_REDIS_URL } from '../support/infra.js';

const MiB = 1024 * 1024;
const RIGHT = 'correct horse battery staple';

/** A PATCH body that trickles `data` out in 256 KiB chunks and never ends: it is cut by the kill. */
function endlessUpload(data: Buffer) {
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= data.length) return;
      const chunk = data.subarray(sent, sent + 256 * 1024);
      sent += chunk.length;
      setTimeout(() => this.push(chunk), 5);
    },
  });
  return { stream, sent: () => sent };
}

/** Signs a download token the way Ferry does (`base64url(json).base64url(hmac-sha256)`), with any key. */
function signToken(key: string, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

describe('two Ferry instances sharing PostgreSQL, S3 and Redis', () => {
  const fleet = new Fleet();
  let s3: TestS3;
  let db: FreshDatabase;
  let env: Record<string, string>;
  let a: FerryProcess;
  let b: FerryProcess;

  beforeAll(async () => {
    await requireRedis();
    db = await freshDatabase();
    s3 = await startTestS3();
    env = {
      DATABASE_URL: db.url,
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PART_SIZE_MB: '5',
      REDIS_URL: TEST_REDIS_URL,
      SECRET_KEY: randomBytes(32).toString('base64url'),
      PASSWORD_ATTEMPTS_PER_WINDOW: '5',
    };
    // One after the other here; starting together is a test of its own below.
    a = await fleet.start({ env });
    b = await fleet.start({ env });
  });
  afterAll(async () => {
    await fleet.stopAll();
    await s3?.close();
    await db?.drop();
  });

  it('replicas started together on an empty database all come up (migrations and queues do not race)', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 2; round++) {
      const fresh = await freshDatabase();
      const replicas = new Fleet();
      try {
        const started = await Promise.allSettled(
          [0, 1, 2].map(() => replicas.start({ env: { ...env, DATABASE_URL: fresh.url } })),
        );
        for (const s of started)
          if (s.status === 'rejected') {
            const message = String(s.reason);
            const fatal = /"level":60.*?"message":"([^"]*)"/.exec(message)?.[1];
            failures.push(`round ${round}: ${fatal ?? message.slice(0, 300)}`);
          }
      } finally {
        await replicas.stopAll();
        await fresh.drop();
      }
    }
    expect(failures).toEqual([]);
  });

  it('both are ready, each with its database, storage and Redis', async () => {
    for (const server of [a, b]) {
      const ready = await raw(server.url, '/api/ready');
      expect(ready.status, ready.text).toBe(200);
      expect(ready.json).toMatchObject({
        status: 'ready',
        checks: { database: 'ok', storage: 'ok', redis: 'ok' },
      });
    }
  });

  it('an upload to A, cut by SIGKILL mid-PATCH, resumes on B; both (A restarted) serve the right bytes', async () => {
    const data = randomFile(30_000_000);
    const t = await createTransfer(a.url, { files: [{ name: 'footage.mp4', size: data.length }] });
    const fileId = t.files[0]!.id;
    const tusA = new TusTestClient(a.url, t.uploadToken);
    const created = await tusA.create(t.transferId, fileId, data.length);
    expect(created.status).toBe(201);
    for (const [start, end] of [
      [0, 6 * MiB],
      [6 * MiB, 12 * MiB],
    ] as const) {
      const r = await tusA.patch(created.location!, start, data.subarray(start, end));
      expect(r, r.body).toMatchObject({ status: 204, offset: end });
    }
    // A third PATCH streams on; A is killed while it is still arriving.
    const body = endlessUpload(data.subarray(12 * MiB, 24 * MiB));
    const cut = tusA.patch(created.location!, 12 * MiB, body.stream).then(
      (r) => ({ finished: r.status }),
      (error: unknown) => ({ failed: String(error) }),
    );
    for (let i = 0; i < 400 && body.sent() < 7 * MiB; i++) await sleep(25);
    expect(body.sent()).toBeGreaterThanOrEqual(7 * MiB);
    const sentAtKill = body.sent();
    await a.kill('SIGKILL');
    expect(await cut).toHaveProperty('failed');

    // The upload URL is the same path on B. A's tus lock is left in Redis until it expires (≤ 10 s).
    const location = created.location!.replace(a.url, b.url);
    const tusB = new TusTestClient(b.url, t.uploadToken);
    const headStarted = Date.now();
    let offset = -1;
    let lastError = '';
    while (offset < 0 && Date.now() - headStarted < 45_000) {
      try {
        offset = await tusB.offset(location);
      } catch (error) {
        lastError = String(error);
        await sleep(500);
      }
    }
    expect(offset, `HEAD on B never answered 200: ${lastError}`).toBeGreaterThanOrEqual(0);
    // Two whole 5 MiB parts were acknowledged and stored; nothing beyond what was sent can be counted.
    expect(offset).toBeGreaterThanOrEqual(10 * MiB);
    expect(offset).toBeLessThanOrEqual(12 * MiB + body.sent());
    console.log(
      `s3 upload: acknowledged ${12 * MiB}, had streamed ${sentAtKill} more when A was killed; B's HEAD answered offset ` +
        `${offset} after ${Date.now() - headStarted} ms`,
    );

    let at = offset;
    let last: Awaited<ReturnType<TusTestClient['patch']>> | undefined;
    while (at < data.length) {
      const end = Math.min(at + 7 * MiB, data.length);
      last = await tusB.patch(location, at, data.subarray(at, end));
      expect(last.status, last.body).toBe(204);
      expect(last.offset).toBe(end);
      at = end;
    }
    expect(last!.sha256).toBe(sha256(data));
    const done = await api(b.url, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { files: [{ id: fileId, sha256: sha256(data) }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    const query = `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${fileId}`;
    const fromB = await api(b.url, query);
    expect(fromB.status).toBe(200);
    const gotB = await fetchBytes(fromB.body.url);
    expect(gotB.status).toBe(200);
    expect(sha256(gotB.data)).toBe(sha256(data));

    a = await fleet.restart(a, env);
    const fromA = await api(a.url, query);
    expect(fromA.status).toBe(200);
    expect(sha256((await fetchBytes(fromA.body.url)).data)).toBe(sha256(data));
    // A link A issued works on B, and one B issued works on A: one SECRET_KEY signs for both.
    const aLinkOnB = await fetchBytes(fromA.body.url.replace(a.url, b.url));
    expect(aLinkOnB.status).toBe(200);
    expect(sha256(aLinkOnB.data)).toBe(sha256(data));
    const bLinkOnA = await fetchBytes(fromB.body.url.replace(b.url, a.url), {
      range: 'bytes=5242000-5243999',
    });
    expect(bLinkOnA.status).toBe(206);
    expect(bLinkOnA.data.equals(data.subarray(5_242_000, 5_244_000))).toBe(true);
  });

  it('download links are signed with the shared SECRET_KEY and nothing else', async () => {
    const data = randomFile(5000);
    const t = await sendTransfer(a.url, [{ name: 'a.bin', data }]);
    const payload = { t: t.transferId, f: t.files[0]!.id, e: Date.now() + 3_600_000 };
    for (const server of [a, b]) {
      const good = await fetchBytes(
        `${server.url}/api/transfer/downloads/blob/${signToken(env.SECRET_KEY!, payload)}`,
      );
      expect(good.status).toBe(200);
      expect(good.data.equals(data)).toBe(true);
      const forged = await raw(
        server.url,
        `/api/transfer/downloads/blob/${signToken(randomBytes(32).toString('base64url'), payload)}`,
      );
      expect(codedErrorProblem(forged, 404, 'TRANSFER_NOT_FOUND')).toBeNull();
    }
  });

  it('maxDownloads=5 holds across both: 30 concurrent link calls split over A and B, exactly 5 succeed', async () => {
    const t = await sendTransfer(a.url, [{ name: 'a.bin', data: randomFile(2048) }], { maxDownloads: 5 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        raw(i % 2 ? b.url : a.url, `/api/transfer/downloads/link?transferId=${t.transferId}`),
      ),
    );
    expect(tally(answers.map((r) => r.status))).toEqual({ 200: 5, 403: 25 });
    for (const r of answers.filter((x) => x.status === 403))
      expect(codedErrorProblem(r, 403, 'TOO_MANY_DOWNLOADS')).toBeNull();
    const [row] = await db.query<{ download_count: number }>(
      'SELECT download_count FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(row!.download_count).toBe(5);
    for (const server of [a, b]) {
      const info = await raw(server.url, `/api/transfer/downloads/info?transferId=${t.transferId}`);
      expect((info.json as { downloadsLeft: number }).downloadsLeft).toBe(0);
    }
  });

  it('runs background jobs once across both: one schedule, and each job worked by exactly one instance', async () => {
    // One row per scheduled job, however many instances scheduled it.
    const schedules = await db.query<{ name: string }>('SELECT name FROM pgboss.schedule ORDER BY name');
    expect(schedules.map((r) => r.name)).toEqual([
      'maintenance.hosts-recheck',
      'maintenance.purge-security-log',
      'maintenance.sweep-unfinished',
      'maintenance.tick',
      'transfers.availability-sweep',
      'webhooks.deliver',
    ]);
    // Abandoned uploads for the sweep to find: each must be removed once, by whichever instance works the job.
    const stale: string[] = [];
    for (let i = 0; i < 6; i++) {
      const t = await createTransfer(i % 2 ? a.url : b.url, { files: [{ name: `s${i}.bin`, size: 10 }] });
      stale.push(t.transferId);
    }
    await db.query(`UPDATE transfers SET created_at = now() - interval '10 days' WHERE id = ANY($1)`, [
      stale,
    ]);
    const jobs = new JobQueue({ databaseUrl: db.url, queues: [], logger: pino({ level: 'silent' }) });
    await jobs.start();
    try {
      const ids = await Promise.all(
        Array.from({ length: 12 }, () => jobs.send('maintenance.sweep-unfinished', {})),
      );
      const deadline = Date.now() + 60_000;
      let rows: Array<{ state: string; retry_count: number; removed: number }> = [];
      while (Date.now() < deadline) {
        rows = await db.query(
          `SELECT state, retry_count, coalesce((output->>'removed')::int, 0) AS removed FROM pgboss.job WHERE id = ANY($1)`,
          [ids],
        );
        if (rows.length === ids.length && rows.every((r) => r.state === 'completed')) break;
        await sleep(250);
      }
      expect(rows.map((r) => r.state)).toEqual(ids.map(() => 'completed'));
      expect(rows.every((r) => r.retry_count === 0)).toBe(true);
      // Every stale transfer was removed by exactly one job run, never twice.
      expect(rows.reduce((sum, r) => sum + r.removed, 0)).toBe(stale.length);
      expect(await db.query('SELECT id FROM transfers WHERE id = ANY($1)', [stale])).toEqual([]);
    } finally {
      await jobs.stop({ graceful: true, timeoutMs: 5000 });
    }
  });

  it('password guesses alternating A and B share one count: 429 after 5 in all', async () => {
    const t = await sendTransfer(b.url, [{ name: 'a.bin', data: randomFile(100) }], { password: RIGHT });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await raw(i % 2 ? b.url : a.url, '/api/transfer/downloads/check-password', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transferId: t.transferId, password: `guess ${i}` }),
      });
      expect(errorShapeOk(res), res.text).toBe(true);
      statuses.push(res.status);
    }
    // Per-instance counts would allow 5 on each (10 in all) and answer 403 throughout.
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429, 429]);
    for (const server of [a, b]) {
      const res = await raw(server.url, '/api/transfer/downloads/check-password', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transferId: t.transferId, password: RIGHT }),
      });
      expect(codedErrorProblem(res, 429, 'RATE_LIMITED')).toBeNull();
    }
  });
});

function errorShapeOk(res: { status: number; headers: Headers; json: unknown }): boolean {
  const code = res.status === 403 ? 'WRONG_PASSWORD' : 'RATE_LIMITED';
  return codedErrorProblem(res, res.status, code) === null;
}
