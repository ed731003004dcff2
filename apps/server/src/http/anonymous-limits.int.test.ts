import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, randomFile, sha256 } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { runningTotalsDrift } from '../test/running-totals.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Anonymous transfers, per client address: a creation rate (429 past it) and a cap on the bytes their unfinished
 * uploads declare (400 LIMIT_EXCEEDED, limitErrors anonymousPendingBytes) that holds across instances, since it
 * is counted in the database; their unfinished uploads are swept sooner than an account's.
 */
let a: TestFerry;
let b: TestFerry;
const CAP = 1000;

beforeAll(async () => {
  const env = {
    ANONYMOUS_TRANSFERS_PER_WINDOW: '6',
    ANONYMOUS_PENDING_UPLOAD_GB: String(CAP / 1e9),
    UNFINISHED_UPLOAD_TTL_HOURS: '72',
    ANONYMOUS_UNFINISHED_UPLOAD_TTL_HOURS: '6',
  };
  a = await startTestFerry({ env });
  b = await startTestFerry({ env, databaseUrl: a.databaseUrl });
});
// Whatever a test did, each address's running total is the sum over its unfinished transfers.
afterEach(async () => {
  expect(await runningTotalsDrift(a)).toEqual({ searchText: [], storage: [], pending: [] });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Creates an S2 transfer of one file of `size` declared bytes from client address `ip`. */
async function create(ferry: TestFerry, ip: string, size: number) {
  const res = await ferry.app.inject({
    method: 'POST',
    url: '/api/transfer/transfers',
    payload: { type: 'S2', files: [{ name: 'big.bin', size }] },
    remoteAddress: ip,
  });
  return { status: res.statusCode, retryAfter: Number(res.headers['retry-after']), body: res.json() };
}

/** The running total of an address's unfinished declared bytes (anonymous_pending; no row: nothing unfinished). */
async function pending(ip: string): Promise<number | null> {
  const rows = await query<{ bytes: string }>(a, 'SELECT bytes FROM anonymous_pending WHERE client_ip = $1', [
    ip,
  ]);
  return rows[0] ? Number(rows[0].bytes) : null;
}

describe('anonymous transfer creation', () => {
  it('caps the declared bytes of a client’s unfinished uploads; finishing one frees its share', async () => {
    const ip = '198.51.100.10';
    const first = await create(a, ip, 600);
    expect(first.status).toBe(201);
    const over = await create(b, ip, 600);
    expect(over.status).toBe(400);
    expect(over.body.codes).toEqual(['LIMIT_EXCEEDED']);
    expect(over.body.limitErrors).toEqual([{ limit: 'anonymousPendingBytes', max: CAP, actual: 1200 }]);
    // Within the cap still, and another address has its own.
    expect((await create(a, ip, 400)).status).toBe(201);
    expect((await create(b, '198.51.100.11', 1000)).status).toBe(201);

    // The first upload finished: its bytes no longer count, and its address is not kept.
    const data = randomFile(600);
    const t = first.body;
    await new TusTestClient(a.baseUrl, t.uploadToken).upload(t.transferId, t.files[0].id, data);
    const done = await api(a.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { files: [{ id: t.files[0].id, sha256: sha256(data) }] },
    });
    expect(done.status).toBe(200);
    expect(await pending(ip)).toBe(400);
    expect((await create(b, ip, 600)).status).toBe(201);
    expect(await pending(ip)).toBe(1000);
    const [row] = await query<{ client_ip: string | null }>(
      a,
      'SELECT client_ip FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(row!.client_ip).toBeNull();
  });

  it('holds the cap when creations race on two instances', async () => {
    const ip = '198.51.100.20';
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => create(i % 2 ? b : a, ip, 400)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 400)).toHaveLength(4);
    const [sum] = await query<{ n: string }>(
      a,
      `SELECT coalesce(sum(total_size), 0) AS n FROM transfers WHERE client_ip = $1 AND status = 'UPLOADING'`,
      [ip],
    );
    expect(Number(sum!.n)).toBe(800);
    expect(await pending(ip)).toBe(800);
  });

  it('keeps the running total equal to the sum whatever ends an unfinished upload', async () => {
    const ip = '198.51.100.50';
    const ids: string[] = [];
    for (const size of [100, 200, 300]) ids.push((await create(a, ip, size)).body.transferId);
    expect(await pending(ip)).toBe(600);
    // Refused creations take nothing: the total is what was stored.
    expect((await create(b, ip, 401)).status).toBe(400);
    expect(await pending(ip)).toBe(600);
    // Any status change out of UPLOADING, by whichever path, gives the share back (here the operator's SQL).
    await query(a, `UPDATE transfers SET status = 'DISABLED' WHERE id = $1`, [ids[0]]);
    expect(await pending(ip)).toBe(500);
    // A change that keeps it UPLOADING does not.
    await query(a, `UPDATE transfers SET status = 'UPLOADING', name = 'renamed' WHERE id = $1`, [ids[1]]);
    expect(await pending(ip)).toBe(500);
    await query(a, 'DELETE FROM transfers WHERE id = $1', [ids[1]]);
    expect(await pending(ip)).toBe(300);
    // The last one gone, the address has no row left.
    await query(a, 'UPDATE transfers SET client_ip = NULL WHERE id = $1', [ids[2]]);
    expect(await pending(ip)).toBeNull();
    expect((await create(b, ip, CAP)).status).toBe(201);
  });

  it('stores a whole transfer (files, recipients, events) in its one statement, or nothing', async () => {
    const ip = '198.51.100.60';
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/transfer/transfers',
      payload: {
        type: 'S1',
        senderEmail: 'sender@example.com',
        recipients: ['one@example.com', 'two@example.com'],
        files: [
          { name: 'a.bin', size: 10 },
          { name: 'b.bin', size: 20 },
        ],
      },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().transferId;
    const counts = await query<{ files: number; recipients: number; events: number }>(
      a,
      `SELECT (SELECT count(*) FROM transfer_files WHERE transfer_id = $1) AS files,
        (SELECT count(*) FROM transfer_recipients WHERE transfer_id = $1) AS recipients,
        (SELECT count(*) FROM transfer_events WHERE transfer_id = $1) AS events`,
      [id],
    );
    // CREATED, two RECIPIENT_ADDED, DOWNLOAD_CONFIRMATION_ENABLED, EXPIRY_REMINDER_ENABLED
    expect(counts[0]).toEqual({ files: 2, recipients: 2, events: 5 });
    expect(await pending(ip)).toBe(30);
    const before = await query<{ n: string }>(a, 'SELECT count(*) AS n FROM transfer_files');
    // Over the cap: nothing of it is stored.
    const over = await create(a, ip, CAP);
    expect(over.status).toBe(400);
    expect(over.body.limitErrors).toEqual([{ limit: 'anonymousPendingBytes', max: CAP, actual: CAP + 30 }]);
    expect(await query(a, 'SELECT count(*) AS n FROM transfer_files')).toEqual(before);
  });

  it('refuses creations past the rate with 429 and Retry-After', async () => {
    const ip = '198.51.100.30';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await create(a, ip, 1)).status);
    expect(statuses).toEqual(Array(6).fill(201));
    const limited = await create(a, ip, 1);
    expect(limited.status).toBe(429);
    expect(limited.body.codes).toEqual(['RATE_LIMITED']);
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(limited.retryAfter).toBeLessThanOrEqual(3600);
    expect((await create(a, '198.51.100.31', 1)).status).toBe(201);
  });

  it('sweeps an anonymous unfinished upload sooner than an account’s', async () => {
    const anonymous = await create(a, '198.51.100.40', 10);
    const fresh = await create(a, '198.51.100.41', 10);
    const old = await create(a, '198.51.100.42', 10);
    await query(a, `UPDATE transfers SET created_at = now() - interval '7 hours' WHERE id = $1`, [
      anonymous.body.transferId,
    ]);
    await query(
      a,
      `UPDATE transfers SET created_at = now() - interval '7 hours', owner_id = 'someone' WHERE id = $1`,
      [old.body.transferId],
    );
    await a.cleanup.sweepUnfinished();
    const left = await query<{ id: string }>(a, 'SELECT id FROM transfers WHERE id = ANY($1)', [
      [anonymous.body.transferId, fresh.body.transferId, old.body.transferId],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([fresh.body.transferId, old.body.transferId].sort());
    expect(await pending('198.51.100.40')).toBeNull();
    expect(await pending('198.51.100.41')).toBe(10);
  });
});
