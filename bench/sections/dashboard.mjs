// Section "dashboard": the transfer list of one account that holds 100 000 transfers (GET /api/transfer/transfers).
// The account is registered through the API (its verification link read from Ferry's outbox); the transfers are
// seeded straight into Ferry's embedded PostgreSQL (creating 100 000 through the API would measure creation, and
// take minutes). Then closed-loop load on: the first page, a deep page (by cursor), a search by name, a search
// by file name, and a filter by type and status; p50 / p95 / p99 and requests/s for each.
// Env: BENCH_DASHBOARD_TRANSFERS (default 100000), BENCH_DASHBOARD_SECONDS (default 5),
// BENCH_DASHBOARD_CONNECTIONS (default 1: one person paging their own list; raise it for throughput).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { request } from '../lib/http-client.mjs';
import { runLoad } from '../lib/load.mjs';
import { envInt, fmtMs, log, now, sleep } from '../lib/util.mjs';

const PASSWORD = 'bench password for the dashboard';

/** @param {string} what @param {{ status: number, body: string }} res @param {number} want */
function expectStatus(what, res, want) {
  if (res.status !== want)
    throw new Error(`${what}: HTTP ${res.status} (expected ${want}): ${res.body.slice(0, 300)}`);
}

/** The verification token mailed to `email`, from DATA_DIR/outbox (quoted-printable soft breaks undone). */
async function verificationToken(dataDir, email) {
  const dir = path.join(dataDir, 'outbox');
  const deadline = now() + 20_000;
  while (now() < deadline) {
    for (const file of (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.eml'))) {
      // quoted-printable: soft line breaks out, =XX escapes decoded
      const text = (await readFile(path.join(dir, file), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
      if (!text.includes(email)) continue;
      const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(text);
      if (match) return match[1];
    }
    await sleep(100);
  }
  throw new Error(`no verification mail for ${email} in ${dir}`);
}

/** Registers and verifies an account, opens a session; returns its uid and bearer header. */
async function account(baseUrl, dataDir) {
  const email = `bench-${process.pid}@dashboard.example`;
  expectStatus(
    'register',
    await request(`${baseUrl}/api/auth/register`, { method: 'POST', json: { email, password: PASSWORD } }),
    202,
  );
  const token = await verificationToken(dataDir, email);
  const verified = await request(`${baseUrl}/api/auth/verify-email`, { method: 'POST', json: { token } });
  expectStatus('verify', verified, 200);
  const session = await request(`${baseUrl}/api/auth/auth/session-cookie`, {
    headers: { 'id-token': verified.json.idToken },
  });
  expectStatus('session', session, 200);
  const headers = { authorization: `Bearer ${session.json.sessionCookie}` };
  const me = await request(`${baseUrl}/api/auth/me`, { headers });
  return { uid: me.json.user.uid, headers };
}

/** A client of Ferry's embedded PostgreSQL (port from its postmaster.pid, password from DATA_DIR). */
async function embeddedDatabase(dataDir) {
  const pid = (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
  const port = Number(pid[3]);
  const { password } = JSON.parse(await readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'ferry', password, database: 'ferry' });
  await client.connect();
  return client;
}

/**
 * `count` transfers for `ownerId` over the last year, of every type and a few statuses, each with 1–3 files and,
 * for S1, 2 recipients; names and file names from a small vocabulary so that searches match a realistic share.
 */
async function seed(db, ownerId, count) {
  const t0 = now();
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO transfers (id, type, status, name, upload_token_hash, owner_id, sender_email, total_size, file_count,
                            expires_at, created_at)
     SELECT 'b' || lpad(to_hex(g), 15, '0'),
            (ARRAY['S1','S2','S2','S3'])[1 + g % 4],
            (ARRAY['ENABLED','ENABLED','ENABLED','DISABLED','UPLOADING'])[1 + g % 5],
            (ARRAY['Quarterly report','Holiday photos','Contract draft','Site plans','Raw footage','Invoices'])[1 + g % 6]
              || ' ' || g,
            md5(g::text), $1, 'bench@dashboard.example', 1000000 + g, 1 + g % 3,
            now() + interval '30 days' - (g || ' minutes')::interval,
            now() - (g || ' minutes')::interval
       FROM generate_series(1, $2::int) g`,
    [ownerId, count],
  );
  await db.query(
    `INSERT INTO transfer_files (transfer_id, id, position, name, size, sha256)
     SELECT 'b' || lpad(to_hex(g), 15, '0'), 'f' || lpad(to_hex(k), 5, '0'), k,
            (ARRAY['report.pdf','IMG_2041.jpg','draft-v3.docx','plan.dwg','clip.mov'])[1 + (g + k) % 5],
            333333 + g, md5(g::text || k::text) || md5(k::text || g::text)
       FROM generate_series(1, $1::int) g, generate_series(0, 2) k
      WHERE k < 1 + g % 3`,
    [count],
  );
  await db.query(
    `INSERT INTO transfer_recipients (transfer_id, position, email, secret_hash)
     SELECT 'b' || lpad(to_hex(g), 15, '0'), k, 'person' || (g % 500) || '-' || k || '@clients.example', md5(g::text || k::text)
       FROM generate_series(1, $1::int) g, generate_series(0, 1) k
      WHERE g % 4 = 1`,
    [count],
  );
  await db.query('COMMIT');
  // Vacuumed, not only analysed: the triggers that keep each transfer's search text rewrite every row of the load
  // (for its files, then for its recipients), and autovacuum would otherwise be cleaning up after them through the
  // first cases measured. The figures are the list's in a steady state.
  await db.query('VACUUM (ANALYZE) transfers, transfer_files, transfer_recipients');
  return now() - t0;
}

function settings() {
  return {
    count: envInt('BENCH_DASHBOARD_TRANSFERS', 100_000),
    durationMs: envInt('BENCH_DASHBOARD_SECONDS', 5) * 1000,
    connections: envInt('BENCH_DASHBOARD_CONNECTIONS', 1),
  };
}

/** @type {import('./index.mjs').Section} */
export const dashboard = {
  id: 'dashboard',
  title: 'Dashboard transfer list',

  async run(ctx, servers) {
    const ferry = servers.ferry;
    if (!ferry?.dataDir) return;
    const { count, durationMs, connections } = settings();
    const { uid, headers } = await account(ferry.baseUrl, ferry.dataDir);
    const db = await embeddedDatabase(ferry.dataDir);
    let seedMs;
    try {
      seedMs = await seed(db, uid, count);
    } finally {
      await db.end();
    }
    log(
      `dashboard: ${count} transfers seeded in ${(seedMs / 1000).toFixed(1)} s; ${connections} connections`,
    );
    const list = (query) => `/api/transfer/transfers?${new URLSearchParams(query)}`;
    // A deep page: follow cursors 40 pages in (1000 items), then load that page over and over.
    let cursor = null;
    for (let i = 0; i < 40; i++) {
      const page = await request(`${ferry.baseUrl}${list({ limit: '25', ...(cursor ? { cursor } : {}) })}`, {
        headers,
      });
      expectStatus('list page', page, 200);
      cursor = page.json.nextCursor;
    }
    const first = await request(`${ferry.baseUrl}${list({ limit: '25' })}`, { headers });
    expectStatus('first page', first, 200);
    const cases = [
      ['first page (25, newest first)', list({ limit: '25' })],
      ['page 41 by cursor', list({ limit: '25', cursor })],
      ['search by name ("footage")', list({ limit: '25', q: 'footage' })],
      ['search by file name ("draft-v3")', list({ limit: '25', q: 'draft-v3' })],
      ['search by recipient ("person42-")', list({ limit: '25', q: 'person42-' })],
      // One and two characters: common ones (a page fills at once) and ones no transfer has (everything looked at).
      ['search, one common character ("e")', list({ limit: '25', q: 'e' })],
      ['search, one absent character ("z")', list({ limit: '25', q: 'z' })],
      ['search, two characters ("v3", 1 in 5 files)', list({ limit: '25', q: 'v3' })],
      ['search, two absent characters ("qz")', list({ limit: '25', q: 'qz' })],
      ['filter S1 + DISABLED', list({ limit: '25', type: 'S1', status: 'DISABLED' })],
      ['sorted by size, ascending', list({ limit: '25', sort: 'size', dir: 'asc' })],
    ];
    const out = { settings: { count, durationMs, connections }, seedMs, total: first.json.total, cases: [] };
    for (const [label, pathAndQuery] of cases) {
      const r = await runLoad({
        baseUrl: ferry.baseUrl,
        next: () => ({ method: 'GET', path: pathAndQuery, headers }),
        expectStatus: 200,
        connections,
        durationMs,
      });
      log(
        `  ${label.padEnd(36)} p50 ${fmtMs(r.p50Ms)}  p95 ${fmtMs(r.p95Ms)}  p99 ${fmtMs(r.p99Ms)}  ` +
          `${r.rps.toFixed(0)} req/s  (${r.requests} ok, ${r.errors} errors)`,
      );
      if (r.errors > 0) log(`    first error: ${r.firstError}`);
      out.cases.push({ label, ...r });
    }
    ctx.results.dashboard = out;
  },

  rows(ctx) {
    const d = ctx.results.dashboard;
    if (!d) return [];
    // Targets (issue 24): pages p50 ≤ 15 ms; every search and filter p95 ≤ 100 ms.
    const page = (label) => label.startsWith('first page') || label.startsWith('page ');
    return d.cases.map((c) => {
      const ok = page(c.label) ? c.p50Ms <= 15 : c.p95Ms <= 100;
      return {
        measure: `list of ${d.settings.count} transfers, ${c.label}: p50 / p95 / rate`,
        unit: 'text',
        baseline: null,
        ferry: `${fmtMs(c.p50Ms)} / ${fmtMs(c.p95Ms)} / ${c.rps.toFixed(0)}/s`,
        ferryNote: `${page(c.label) ? 'p50 ≤ 15 ms' : 'p95 ≤ 100 ms'} ${c.errors === 0 && ok ? 'ok' : 'MISSED'}`,
        ratio: false,
      };
    });
  },
};
