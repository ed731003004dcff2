// Section "latency": small API calls under load, over keep-alive connections (lib/load.mjs).
// Closed loop (N clients, each sending its next request when the previous one is answered): create a transfer,
// a download link for one transfer (a hot row) and for N transfers, the download page's info call, and the tus
// creation of a file's upload. Open loop (requests started at a fixed rate whether answered or not, each timed from
// its due time, so queueing counts): the same five at BENCH_LATENCY_RATE per second; target p99 ≤ 25 ms each.
// Baseline: the same clients against the bare server's /echo (POST parses the same JSON body; GET answers JSON),
// i.e. the ceiling of a do-nothing Node handler on this machine — a reference, not a target, so no ratio.
// Env: BENCH_LATENCY_SECONDS (10), BENCH_LATENCY_CONNECTIONS (50), BENCH_LATENCY_RATE (500),
// BENCH_LATENCY_OPEN_SOCKETS (256).
import {
  completeTransfer,
  createTransfer,
  downloadLink,
  tusCreate,
  tusPatchBuffer,
} from '../lib/ferry-client.mjs';
import { runLoad, runOpenLoop } from '../lib/load.mjs';
import { cpuSecondsOf, processTree } from '../lib/procfs.mjs';
import { envInt, fmtMs, log, now } from '../lib/util.mjs';

const CREATE_BODY = Buffer.from(JSON.stringify({ files: [{ name: 'latency.bin', size: 1024 * 1024 }] }));
/** Open-loop p99 target of every API call (ms). */
const P99_TARGET_MS = 25;
/** Files per transfer made for the tus-creation loads (each creation needs a file no upload was bound to yet). */
const TUS_FILES_PER_TRANSFER = 100;

/**
 * Runs a load and measures how many CPU cores the server process, its child processes (Ferry's embedded
 * PostgreSQL) and this client kept busy meanwhile: on a small machine they share the cores, which bounds req/s.
 * @template {import('../lib/load.mjs').LoadResult} R
 * @param {import('./index.mjs').ServerInfo} server
 * @param {() => Promise<R>} load
 */
async function withCpu(server, load) {
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
  const result = await load();
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

/** Closed loop, with the CPU it took. @param {import('./index.mjs').ServerInfo} server @param {Parameters<typeof runLoad>[0]} options */
const loadWithCpu = (server, options) => withCpu(server, () => runLoad(options));
/** Open loop, with the CPU it took. @param {import('./index.mjs').ServerInfo} server @param {Parameters<typeof runOpenLoop>[0]} options */
const openLoadWithCpu = (server, options) => withCpu(server, () => runOpenLoop(options));

/** @param {string} label @param {Awaited<ReturnType<typeof loadWithCpu>> & Partial<import('../lib/load.mjs').OpenLoopResult>} r */
function logResult(label, r) {
  log(
    `  ${label.padEnd(44)} p50 ${fmtMs(r.p50Ms)}  p99 ${fmtMs(r.p99Ms)}  max ${fmtMs(r.maxMs)}  ` +
      `${r.rps.toFixed(0)} req/s  (${r.requests} ok, ${r.errors} errors)`,
  );
  if (r.ratePerSecond !== undefined)
    log(
      `  ${''.padEnd(44)} open loop at ${r.ratePerSecond}/s: ${r.scheduled} due, sent late by ≤ ` +
        `${fmtMs(r.startLagP99Ms ?? Number.NaN)} (p99; max ${fmtMs(r.startLagMaxMs ?? Number.NaN)}), ` +
        `${r.maxInFlight} unanswered at most (${r.sockets} sockets), last answer ${fmtMs(r.drainMs ?? 0)} after the ` +
        `window${r.unanswered ? `, ${r.unanswered} given up` : ''}`,
    );
  const c = r.cores;
  log(
    `  ${''.padEnd(44)} cores busy: server ${c.server.toFixed(2)}, its child processes ${c.children.toFixed(2)}, ` +
      `client ${c.client.toFixed(2)}`,
  );
  if (r.errors > 0) log(`    first error: ${r.firstError}`);
}

function settings() {
  return {
    connections: envInt('BENCH_LATENCY_CONNECTIONS', 50),
    durationMs: envInt('BENCH_LATENCY_SECONDS', 10) * 1000,
    rate: envInt('BENCH_LATENCY_RATE', 500),
    openSockets: envInt('BENCH_LATENCY_OPEN_SOCKETS', 256),
  };
}

/** @typedef {ReturnType<typeof settings>} Settings */

/** Ferry's calls, and the baseline's /echo call each is held against (GET or POST). */
const CALLS = /** @type {const} */ ([
  ['create', 'create transfer', 'create'],
  ['link', 'download link, 1 transfer', 'link'],
  ['linkSpread', 'download link, {c} transfers', 'link'],
  ['info', 'download page info, {c} transfers', 'link'],
  ['tusCreate', 'tus creation (new upload of a file)', 'create'],
]);

/** @type {import('./index.mjs').Section} */
export const latency = {
  id: 'latency',
  title: 'API latency',

  async run(ctx, servers) {
    const s = settings();
    /** @type {Record<string, any>} */
    const out = { settings: s };
    ctx.results.latency = out;
    if (servers.baseline) out.baseline = await baselineLoad(servers.baseline, s);
    if (servers.ferry) out.ferry = await ferryLoad(servers.ferry, s);
  },

  rows(ctx) {
    const l = ctx.results.latency;
    if (!l) return [];
    const { connections: c, rate } = l.settings;
    /** @type {import('./index.mjs').Row[]} */
    const rows = [];
    const cell = (r) => (r ? `${fmtMs(r.p50Ms)} / ${fmtMs(r.p99Ms)} / ${r.rps.toFixed(0)}/s` : null);
    for (const [key, label, baselineKey] of CALLS) {
      const b = l.baseline?.closed?.[baselineKey];
      const f = l.ferry?.closed?.[key];
      if (!b && !f) continue;
      rows.push({
        measure: `API ${label.replace('{c}', String(c))}: p50 / p99 / rate*`,
        unit: 'text',
        baseline: cell(b),
        ferry: cell(f),
        ratio: false,
      });
    }
    for (const [key, label, baselineKey] of CALLS) {
      const b = l.baseline?.open?.[baselineKey];
      const f = l.ferry?.open?.[key];
      if (!b && !f) continue;
      const note = (r) =>
        r ? `(p50 ${fmtMs(r.p50Ms)}${r.errors ? `, ${r.errors} errors` : ''})` : undefined;
      rows.push({
        measure: `API ${label.replace('{c}', String(c))} at ${rate}/s: p99**`,
        unit: 'ms',
        baseline: b?.p99Ms ?? null,
        baselineNote: note(b),
        // a load with refused or failed requests does not meet the target, whatever its p99
        ferry: f ? (f.errors ? `${fmtMs(f.p99Ms)}, ${f.errors} errors` : f.p99Ms) : null,
        ferryNote: f && !f.errors ? note(f) : undefined,
        ratio: false,
        target: { atMost: P99_TARGET_MS },
      });
    }
    return rows;
  },
};

/** @param {import('./index.mjs').ServerInfo} server @param {Settings} s */
async function baselineLoad(server, s) {
  const { connections, durationMs, rate, openSockets } = s;
  log(
    `baseline API latency: ${connections} connections, then ${rate}/s open loop, ${durationMs / 1000} s each`,
  );
  const post = () => ({ method: 'POST', path: '/echo', body: CREATE_BODY });
  const get = () => ({ method: 'GET', path: '/echo?transferId=AAAAAAAAAAAAAAAA&fileId=AAAAAA' });
  const base = { baseUrl: server.baseUrl, durationMs };
  const closedCreate = await loadWithCpu(server, { ...base, next: post, expectStatus: 201, connections });
  logResult('POST /echo (JSON body)', closedCreate);
  const closedLink = await loadWithCpu(server, { ...base, next: get, expectStatus: 200, connections });
  logResult('GET /echo?…', closedLink);
  const open = { ...base, ratePerSecond: rate, maxSockets: openSockets };
  const openCreate = await openLoadWithCpu(server, { ...open, next: post, expectStatus: 201 });
  logResult(`POST /echo (JSON body), ${rate}/s`, openCreate);
  const openLink = await openLoadWithCpu(server, { ...open, next: get, expectStatus: 200 });
  logResult(`GET /echo?…, ${rate}/s`, openLink);
  return {
    closed: { create: closedCreate, link: closedLink },
    open: { create: openCreate, link: openLink },
  };
}

/** @param {import('./index.mjs').ServerInfo} server @param {Settings} s */
async function ferryLoad(server, s) {
  const { connections, durationMs, rate, openSockets } = s;
  log(`ferry API latency: ${connections} connections, then ${rate}/s open loop, ${durationMs / 1000} s each`);
  // finished one-file transfers to ask links for: one that every client asks for (as when a link is shared
  // widely; every call counts a download on that one row), and one per client (no shared row), which tells
  // row-lock contention apart from the cost of the call itself
  const transfers = [];
  for (let i = 0; i < connections; i++) transfers.push(await smallTransfer(server.baseUrl));
  const linkPath = (t) => `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.fileId}`;
  const hot = linkPath(transfers[0]);
  const spread = transfers.map(linkPath);
  const infos = transfers.map((t) => `/api/transfer/downloads/info?transferId=${t.transferId}`);
  const roundRobin = (/** @type {string[]} */ paths) => {
    let turn = 0;
    return () => ({ method: 'GET', path: /** @type {string} */ (paths[turn++ % paths.length]) });
  };
  /** @type {Array<[string, string, () => import('../lib/load.mjs').LoadRequest, number]>} */
  const gets = [
    ['link', 'GET …/downloads/link (one transfer)', () => ({ method: 'GET', path: hot }), 200],
    ['linkSpread', `GET …/downloads/link (${spread.length} transfers)`, roundRobin(spread), 200],
    ['info', `GET …/downloads/info (${infos.length} transfers)`, roundRobin(infos), 200],
  ];
  const createNext = () => ({ method: 'POST', path: '/api/transfer/transfers', body: CREATE_BODY });
  const base = { baseUrl: server.baseUrl, durationMs };

  /** @type {Record<string, any>} */
  const closed = {};
  closed.create = await loadWithCpu(server, { ...base, next: createNext, expectStatus: 201, connections });
  logResult('POST /api/transfer/transfers', closed.create);
  for (const [key, label, next, expectStatus] of gets) {
    closed[key] = await loadWithCpu(server, { ...base, next, expectStatus, connections });
    logResult(label, closed[key]);
  }
  // enough fresh files for the warm-up second and the window at half again the rate a creation got
  const closedTus = await tusCreations(
    server.baseUrl,
    Math.ceil(closed.create.rps * 1.5 * (durationMs / 1000 + 1)) + 500,
  );
  closed.tusCreate = await loadWithCpu(server, {
    ...base,
    next: closedTus.next,
    expectStatus: 201,
    connections,
  });
  logResult('POST /api/transfer/uploads (tus creation)', closed.tusCreate);
  closedTus.report();

  /** @type {Record<string, any>} */
  const open = {};
  const openBase = { ...base, ratePerSecond: rate, maxSockets: openSockets };
  for (const [key, label, next, expectStatus] of gets) {
    open[key] = await openLoadWithCpu(server, { ...openBase, next, expectStatus });
    logResult(`${label}, ${rate}/s`, open[key]);
  }
  open.create = await openLoadWithCpu(server, { ...openBase, next: createNext, expectStatus: 201 });
  logResult(`POST /api/transfer/transfers, ${rate}/s`, open.create);
  const openTus = await tusCreations(server.baseUrl, Math.ceil(rate * (durationMs / 1000 + 1) * 1.05) + 100);
  open.tusCreate = await openLoadWithCpu(server, { ...openBase, next: openTus.next, expectStatus: 201 });
  logResult(`POST /api/transfer/uploads (tus creation), ${rate}/s`, open.tusCreate);
  openTus.report();
  return { closed, open };
}

/**
 * Creates a finished transfer of one small file, and checks its link once (fails loudly before the load if broken).
 * @param {string} baseUrl
 */
async function smallTransfer(baseUrl) {
  const body = Buffer.from('latency bench\n');
  const transfer = await createTransfer(baseUrl, [{ name: 'small.txt', size: body.length }]);
  const fileId = /** @type {{ id: string }} */ (transfer.files[0]).id;
  const uploadUrl = await tusCreate(baseUrl, transfer, fileId, body.length);
  const patched = await tusPatchBuffer(uploadUrl, transfer.uploadToken, body);
  if (patched.status !== 204)
    throw new Error(`latency setup: PATCH answered ${patched.status} ${patched.body}`);
  await completeTransfer(baseUrl, transfer, [{ id: fileId }]);
  await downloadLink(baseUrl, transfer.transferId, fileId);
  return { transferId: transfer.transferId, fileId };
}

/**
 * tus creation requests (POST <uploadEndpoint>, as the web app's tus client sends them) for `count` files of new
 * transfers of TUS_FILES_PER_TRANSFER files each: a file is bound to one upload, so every creation names a file
 * none was bound to yet. Should the load outrun `count`, files are named again (tus lets a client create the same
 * file's upload again) and `report` says how often.
 * @param {string} baseUrl
 * @param {number} count
 */
async function tusCreations(baseUrl, count) {
  const t0 = now();
  const b64 = (value) => Buffer.from(value, 'utf8').toString('base64');
  /** @type {import('../lib/load.mjs').LoadRequest[]} */
  const requests = [];
  while (requests.length < count) {
    const n = Math.min(TUS_FILES_PER_TRANSFER, count - requests.length);
    const files = Array.from({ length: n }, (_, i) => ({ name: `tus-${i}.bin`, size: 1024 * 1024 }));
    const transfer = await createTransfer(baseUrl, files);
    const endpoint = new URL(transfer.uploadEndpoint, baseUrl);
    for (const file of transfer.files)
      requests.push({
        method: 'POST',
        path: endpoint.pathname,
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(file.size),
          'Upload-Metadata': `transferId ${b64(transfer.transferId)},fileId ${b64(file.id)},filename ${b64(file.name)}`,
          'X-Upload-Token': transfer.uploadToken,
        },
      });
  }
  log(
    `  ${count} files for tus creations (${Math.ceil(count / TUS_FILES_PER_TRANSFER)} transfers) made in ` +
      `${((now() - t0) / 1000).toFixed(1)} s`,
  );
  let turn = 0;
  return {
    next: () => /** @type {import('../lib/load.mjs').LoadRequest} */ (requests[turn++ % requests.length]),
    report: () => {
      if (turn > requests.length)
        log(
          `  note: the load outran the ${requests.length} files; ${turn - requests.length} creations named a file again`,
        );
    },
  };
}
