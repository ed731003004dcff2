import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Fleet, freePort } from '../support/ferry.js';
import {
  api,
  createTransfer,
  fetchBytes,
  pool,
  randomFile,
  raw,
  sha256,
  sleep,
  TusTestClient,
  tally,
} from '../support/http.js';

/** The embedded default (no DATABASE_URL): PostgreSQL inside DATA_DIR, files on local disk. */
const EMBEDDED = {};
const MiB = 1024 * 1024;

/**
 * A request body that sends `data` in 256 KiB chunks, a little at a time, and never ends by itself: the
 * server is killed while it is still arriving.
 */
function endlessUpload(data: Buffer) {
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= data.length) return; // stays open: the PATCH is cut by the kill, not finished
      const chunk = data.subarray(sent, sent + 256 * 1024);
      sent += chunk.length;
      setTimeout(() => this.push(chunk), 5);
    },
  });
  return { stream, sent: () => sent };
}

/**
 * The pids of the embedded PostgreSQL of a data dir: the postmaster and every process it started. Synchronous on
 * purpose: it runs between the kill of Ferry and the kill of PostgreSQL, while requests are still in flight.
 */
function embeddedPostgresPids(dataDir: string): number[] {
  const postmaster = Number.parseInt(
    readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]!,
    10,
  );
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat = '';
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid …; comm may hold spaces, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === postmaster) pids.push(Number(entry));
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('crash recovery on the embedded default', () => {
  const fleet = new Fleet();
  afterAll(() => fleet.stopAll());

  it('SIGKILL in the middle of an upload, restart on the same data dir, resume: the right SHA-256', async () => {
    const first = await fleet.start({ env: EMBEDDED });
    const data = randomFile(24 * MiB + 12345);
    const t = await createTransfer(first.url, { files: [{ name: 'film.mov', size: data.length }] });
    const fileId = t.files[0]!.id;
    const tus = new TusTestClient(first.url, t.uploadToken);
    const created = await tus.create(t.transferId, fileId, data.length);
    expect(created.status).toBe(201);
    const acked = await tus.patch(created.location!, 0, data.subarray(0, 6 * MiB));
    expect(acked).toMatchObject({ status: 204, offset: 6 * MiB });

    // Second PATCH: stream up to 8 MiB more and kill the server while the request is still open.
    const body = endlessUpload(data.subarray(6 * MiB, 14 * MiB));
    const cut = tus.patch(created.location!, 6 * MiB, body.stream).then(
      (r) => ({ finished: r.status }),
      (error: unknown) => ({ failed: String(error) }),
    );
    for (let i = 0; i < 200 && body.sent() < 4 * MiB; i++) await sleep(25);
    expect(body.sent()).toBeGreaterThanOrEqual(4 * MiB);
    const sentAtKill = body.sent();
    await first.kill('SIGKILL');
    expect(await cut).toHaveProperty('failed');

    const second = await fleet.restart(first, EMBEDDED, await freePort());
    const location = created.location!.replace(first.url, second.url);
    const tus2 = new TusTestClient(second.url, t.uploadToken);
    const offset = await tus2.offset(location);
    // Whatever was acknowledged is kept; what is on disk beyond it came from the cut PATCH, in order.
    expect(offset).toBeGreaterThanOrEqual(6 * MiB);
    expect(offset).toBeLessThanOrEqual(6 * MiB + body.sent());
    console.log(
      `local upload: acknowledged 6 MiB, had streamed ${sentAtKill} more when killed, offset after restart ${offset}`,
    );

    let at = offset;
    let last: Awaited<ReturnType<TusTestClient['patch']>> | undefined;
    while (at < data.length) {
      const end = Math.min(at + 7 * MiB, data.length);
      last = await tus2.patch(location, at, data.subarray(at, end));
      expect(last.status, last.body).toBe(204);
      expect(last.offset).toBe(end);
      at = end;
    }
    expect(last!.sha256).toBe(sha256(data));
    const done = await api(second.url, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { files: [{ id: fileId, sha256: sha256(data) }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const link = await api(
      second.url,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${fileId}`,
    );
    expect(link.status).toBe(200);
    const got = await fetchBytes(link.body.url);
    expect(got.status).toBe(200);
    expect(sha256(got.data)).toBe(sha256(data));
  });

  it('SIGKILL (Ferry and its PostgreSQL) during a burst of creations: every acknowledged transfer exists after restart', async () => {
    const first = await fleet.start({ env: EMBEDDED });
    const TOTAL = 200;
    const KILL_AFTER = 100;
    const acknowledged: Array<{ transferId: string; uploadToken: string; files: number }> = [];
    const outcomes: string[] = [];
    let killing: Promise<void> | null = null;
    let pgPids: number[] = [];

    await pool(
      Array.from({ length: TOTAL }, (_, i) => i),
      20,
      async (i) => {
        if (killing) {
          outcomes.push('not sent');
          return;
        }
        const files = 1 + (i % 5);
        try {
          const res = await raw(first.url, '/api/transfer/transfers', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              name: `burst ${i}`,
              files: Array.from({ length: files }, (_, f) => ({ name: `f${f}.bin`, size: 1000 + f })),
            }),
          });
          outcomes.push(String(res.status));
          if (res.status === 201) {
            const body = res.json as { transferId: string; uploadToken: string };
            acknowledged.push({ transferId: body.transferId, uploadToken: body.uploadToken, files });
          }
        } catch {
          outcomes.push('cut');
        }
        if (acknowledged.length >= KILL_AFTER && !killing) {
          // As an OOM kill of the whole service would: Ferry first, then its PostgreSQL, no clean shutdown.
          // All at once, while the other workers' requests are still in flight.
          killing = first.kill('SIGKILL');
          pgPids = embeddedPostgresPids(first.dataDir);
          for (const pid of pgPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
        }
      },
    );
    await killing;
    expect(pgPids.length).toBeGreaterThan(0);
    for (let i = 0; i < 100 && pgPids.some(alive); i++) await sleep(50);
    expect(pgPids.filter(alive)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(outcomes.filter((o) => o !== '201' && o !== 'cut' && o !== 'not sent')).toEqual([]);

    console.log(
      `burst: ${JSON.stringify(tally(outcomes))} when Ferry and ${pgPids.length} PostgreSQL processes were killed`,
    );
    const second = await fleet.restart(first, EMBEDDED, await freePort());
    const states = await pool(acknowledged, 10, async (a) => {
      const res = await raw(second.url, `/api/transfer/transfers/${a.transferId}/upload-state`, {
        headers: { 'x-upload-token': a.uploadToken },
      });
      const body = res.json as { transferId?: string; files?: unknown[] } | undefined;
      return res.status === 200 && body?.transferId === a.transferId && body.files?.length === a.files
        ? 'ok'
        : `${a.transferId}: ${res.status} ${res.text.slice(0, 200)}`;
    });
    expect(tally(states)).toEqual({ ok: acknowledged.length });
  });
});
