// Section "latency": small API calls under concurrency (closed loop, keep-alive; see lib/load.mjs).
// Ferry: POST /api/transfer/transfers (create, one small file) and GET /api/transfer/downloads/link (one file).
// Baseline: the same client against the bare server's /echo (POST parses the same JSON body; GET answers JSON),
// i.e. the ceiling of a do-nothing Node handler on this machine — a reference, not a target, so no ratio.
// Env: BENCH_LATENCY_SECONDS (default 10), BENCH_LATENCY_CONNECTIONS (default 50).
import { completeTransfer, createTransfer, downloadLink, tusCreate } from '../lib/ferry-client.mjs';
import { request } from '../lib/http-client.mjs';
import { runLoad } from '../lib/load.mjs';
import { cpuSecondsOf, processTree } from '../lib/procfs.mjs';
import { envInt, fmtMs, log, now } from '../lib/util.mjs';

const CREATE_BODY = Buffer.from(JSON.stringify({ files: [{ name: 'latency.bin', size: 1024 * 1024 }] }));

/**
 * Runs a load and measures how many CPU cores the server process, its child processes (Ferry's embedded
 * PostgreSQL) and this client kept busy meanwhile: on a small machine they share the cores, which bounds req/s.
 * @param {import('./index.mjs').ServerInfo} server
 * @param {Parameters<typeof runLoad>[0]} options
 */
async function loadWithCpu(server, options) {
  const childrenCpu = () =>
    new Map(
      processTree(server.pid)
        .filter((pid) => pid !== server.pid)
        .map((pid) => [pid, cpuSecondsOf(pid)]),
    );
  const children0 = childrenCpu();
  const server0 = cpuSecondsOf(server.pid);
  const client0 = process.cpuUsage();
  const t0 = now();
  const result = await runLoad(options);
  const seconds = (now() - t0) / 1000;
  const client = process.cpuUsage(client0);
  const server1 = cpuSecondsOf(server.pid);
  // processes born meanwhile (new pool connections) count whole; ones that exited meanwhile are lost (rare)
  let children = 0;
  for (const [pid, cpu] of childrenCpu())
    if (Number.isFinite(cpu)) children += cpu - (children0.get(pid) ?? 0);
  return {
    ...result,
    cores: {
      server: (server1 - server0) / seconds,
      children: children / seconds,
      client: (client.user + client.system) / 1e6 / seconds,
    },
  };
}

/** @param {string} label @param {Awaited<ReturnType<typeof loadWithCpu>>} r */
function logResult(label, r) {
  log(
    `  ${label.padEnd(34)} p50 ${fmtMs(r.p50Ms)}  p99 ${fmtMs(r.p99Ms)}  max ${fmtMs(r.maxMs)}  ` +
      `${r.rps.toFixed(0)} req/s  (${r.requests} ok, ${r.errors} errors)`,
  );
  const c = r.cores;
  log(
    `  ${''.padEnd(34)} cores busy: server ${c.server.toFixed(2)}, its child processes ${c.children.toFixed(2)}, ` +
      `client ${c.client.toFixed(2)}`,
  );
  if (r.errors > 0) log(`    first error: ${r.firstError}`);
}

function settings() {
  return {
    connections: envInt('BENCH_LATENCY_CONNECTIONS', 50),
    durationMs: envInt('BENCH_LATENCY_SECONDS', 10) * 1000,
  };
}

/** @type {import('./index.mjs').Section} */
export const latency = {
  id: 'latency',
  title: 'API latency',

  async run(ctx, servers) {
    const { connections, durationMs } = settings();
    /** @type {Record<string, any>} */
    const out = { settings: { connections, durationMs } };
    ctx.results.latency = out;
    if (servers.baseline) out.baseline = await baselineLoad(servers.baseline, connections, durationMs);
    if (servers.ferry) out.ferry = await ferryLoad(servers.ferry, connections, durationMs);
  },

  rows(ctx) {
    const l = ctx.results.latency;
    if (!l) return [];
    const c = l.settings.connections;
    /** @type {import('./index.mjs').Row[]} */
    const rows = [];
    for (const [key, label, baselineKey] of [
      ['create', 'create transfer', 'create'],
      ['link', 'download link, 1 transfer', 'link'],
      ['linkSpread', `download link, ${c} transfers`, 'link'],
    ]) {
      const b = l.baseline?.[baselineKey];
      const f = l.ferry?.[key];
      if (!b && !f) continue;
      const cell = (r) => (r ? `${fmtMs(r.p50Ms)} / ${fmtMs(r.p99Ms)} / ${r.rps.toFixed(0)}/s` : null);
      rows.push({
        measure: `API ${label}: p50 / p99 / rate*`,
        unit: 'text',
        baseline: cell(b),
        ferry: cell(f),
        ratio: false,
      });
    }
    return rows;
  },
};

/** @param {import('./index.mjs').ServerInfo} server @param {number} connections @param {number} durationMs */
async function baselineLoad(server, connections, durationMs) {
  log(`baseline API latency: ${connections} connections, ${durationMs / 1000} s per endpoint`);
  const create = await loadWithCpu(server, {
    baseUrl: server.baseUrl,
    next: () => ({ method: 'POST', path: '/echo', body: CREATE_BODY }),
    expectStatus: 201,
    connections,
    durationMs,
  });
  logResult('POST /echo (JSON body)', create);
  const link = await loadWithCpu(server, {
    baseUrl: server.baseUrl,
    next: () => ({ method: 'GET', path: '/echo?transferId=AAAAAAAAAAAAAAAA&fileId=AAAAAA' }),
    expectStatus: 200,
    connections,
    durationMs,
  });
  logResult('GET /echo?…', link);
  return { create, link };
}

/** @param {import('./index.mjs').ServerInfo} server @param {number} connections @param {number} durationMs */
async function ferryLoad(server, connections, durationMs) {
  log(`ferry API latency: ${connections} connections, ${durationMs / 1000} s per endpoint`);
  const create = await loadWithCpu(server, {
    baseUrl: server.baseUrl,
    next: () => ({ method: 'POST', path: '/api/transfer/transfers', body: CREATE_BODY }),
    expectStatus: 201,
    connections,
    durationMs,
  });
  logResult('POST /api/transfer/transfers', create);

  // finished one-file transfers to ask links for: one that every client asks for (as when a link is shared
  // widely; every call counts a download on that one row), and one per client (no shared row), which tells
  // row-lock contention apart from the cost of the call itself
  const paths = [];
  for (let i = 0; i < connections; i++) paths.push(await smallTransferLinkPath(server.baseUrl));
  const hot = /** @type {string} */ (paths[0]);
  const link = await loadWithCpu(server, {
    baseUrl: server.baseUrl,
    next: () => ({ method: 'GET', path: hot }),
    expectStatus: 200,
    connections,
    durationMs,
  });
  logResult('GET …/downloads/link (one transfer)', link);
  let turn = 0;
  const linkSpread = await loadWithCpu(server, {
    baseUrl: server.baseUrl,
    next: () => ({ method: 'GET', path: /** @type {string} */ (paths[turn++ % paths.length]) }),
    expectStatus: 200,
    connections,
    durationMs,
  });
  logResult(`GET …/downloads/link (${paths.length} transfers)`, linkSpread);
  return { create, link, linkSpread };
}

/**
 * Creates a finished transfer of one small file; returns the path of its download-link call.
 * @param {string} baseUrl
 */
async function smallTransferLinkPath(baseUrl) {
  const body = Buffer.from('latency bench\n');
  const transfer = await createTransfer(baseUrl, [{ name: 'small.txt', size: body.length }]);
  const fileId = /** @type {{ id: string }} */ (transfer.files[0]).id;
  const uploadUrl = await tusCreate(baseUrl, transfer, fileId, body.length);
  const patched = await request(uploadUrl, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
      'X-Upload-Token': transfer.uploadToken,
    },
    body,
  });
  if (patched.status !== 204)
    throw new Error(`latency setup: PATCH answered ${patched.status} ${patched.body}`);
  await completeTransfer(baseUrl, transfer, [{ id: fileId }]);
  await downloadLink(baseUrl, transfer.transferId, fileId); // fails loudly before the load if broken
  return `/api/transfer/downloads/link?transferId=${transfer.transferId}&fileId=${fileId}`;
}
