#!/usr/bin/env node
// Ferry benchmark: `npm run bench` (after `npx tsc -b apps/server`). See bench/README.md.
//
// 1. writes a random test file (BENCH_SIZE_MB MiB, default 1024) into a temp dir;
// 2. starts the bare baseline server (bench/baseline-server.mjs) and runs every section against it;
// 3. starts Ferry (apps/server/dist/main.js, own DATA_DIR with its embedded PostgreSQL) and runs them again;
// 4. prints a table (last thing on stdout) and writes bench/out/results.json.
// Servers are stopped and temp files removed on success, error and Ctrl-C alike.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanupAll, onCleanup, wasInterrupted } from './lib/cleanup.mjs';
import { jsonAgent } from './lib/http-client.mjs';
import {
  cpuSecondsOf,
  cpuSecondsOfAll,
  machineBusySeconds,
  processTree,
  startMemorySampler,
} from './lib/procfs.mjs';
import { renderTable, rowsForJson, writeJson } from './lib/report.mjs';
import { freePort, logExcerpt, startServer } from './lib/server-process.mjs';
import { createTestFile } from './lib/testfile.mjs';
import { envInt, fmtMB, log, MiB, now, sizeLabel, syncDisks } from './lib/util.mjs';
import { sections } from './sections/index.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');
// BENCH_FERRY_MAIN: another build of the server to measure (e.g. a patched copy, for an A/B comparison)
const ferryMain = path.resolve(
  process.env.BENCH_FERRY_MAIN ?? path.join(repoRoot, 'apps/server/dist/main.js'),
);
const outFile = path.join(benchDir, 'out/results.json');

/** The node flags of `npm start` (package.json), so that Ferry is measured as it is run. */
function npmStartNodeFlags() {
  const start = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts.start;
  const words = String(start).trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`npm start is not a node command: ${start}`);
  return words.slice(1, -1);
}

// Options are environment variables (bench/README.md); `--instances N` (`npm run bench -- --instances 2`) is the
// same as BENCH_LOAD_INSTANCES=N: the load section on N instances behind a proxy.
const { values: flags } = parseArgs({ options: { instances: { type: 'string' } }, strict: true });
if (flags.instances !== undefined) process.env.BENCH_LOAD_INSTANCES = flags.instances;

const config = {
  sizeBytes: envInt('BENCH_SIZE_MB', 1024) * MiB,
  runs: envInt('BENCH_RUNS', 5),
  parts: envInt('BENCH_PARTS', 4),
  sections: (process.env.BENCH_SECTIONS ?? sections.map((s) => s.id).join(',')).split(',').filter(Boolean),
  only: process.env.BENCH_ONLY ?? '', // 'baseline' or 'ferry' to run one side (profiling)
  keepTmp: process.env.BENCH_KEEP_TMP === '1',
  tmpRoot: process.env.BENCH_TMPDIR ?? os.tmpdir(),
  // Ferry gets the node flags of `npm start`, plus extra ones, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof
  // --cpu-prof-dir=/tmp/prof" (--cpu-prof is not allowed in NODE_OPTIONS); NODE_OPTIONS of this process is not
  // passed on
  ferryNodeArgs: [
    ...npmStartNodeFlags(),
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  ],
  baselineNodeArgs: (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
};

async function main() {
  const started = now();
  const unknown = config.sections.filter((id) => !sections.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`unknown BENCH_SECTIONS: ${unknown.join(', ')}`);
  const active = sections.filter((s) => config.sections.includes(s.id));
  if (!existsSync(ferryMain) && config.only !== 'baseline') {
    throw new Error(`${ferryMain} is missing: build the server first (npx tsc -b apps/server)`);
  }

  const tmpDir = await fs.mkdtemp(path.join(config.tmpRoot, 'ferry-bench-'));
  // the embedded PostgreSQL runs as the postgres system user when we are root: it must reach DATA_DIR
  await fs.chmod(tmpDir, 0o755);
  onCleanup(
    `remove ${tmpDir}`,
    async () => {
      if (config.keepTmp) log(`keeping ${tmpDir} (BENCH_KEEP_TMP=1)`);
      else await fs.rm(tmpDir, { recursive: true, force: true });
    },
    () => {
      if (!config.keepTmp) rmSync(tmpDir, { recursive: true, force: true });
    },
  );
  log(`temp dir ${tmpDir}; ${os.cpus().length} CPUs, node ${process.version}`);
  log(
    `size ${sizeLabel(config.sizeBytes)}, ${config.runs} runs (median reported), ${config.parts} parts, ` +
      `sections: ${active.map((s) => s.id).join(', ')}`,
  );

  let t0 = now();
  // only the throughput section moves the test file: without it, no 1 GiB is written for nothing
  const testFile = active.some((s) => s.id === 'throughput' || s.id === 'encryption')
    ? await createTestFile(path.join(tmpDir, 'source.bin'), config.sizeBytes, config.parts)
    : { file: '', size: 0, sha256: '', parts: [] };
  if (testFile.file) {
    await syncDisks();
    log(`test file written in ${((now() - t0) / 1000).toFixed(1)} s, sha256 ${testFile.sha256}`);
  }

  /** @type {import('./sections/index.mjs').BenchContext} */
  const ctx = {
    testFile,
    runs: config.runs,
    tmpDir,
    results: {},
    startFerry: undefined,
    startBaseline: undefined,
  };
  /** @type {import('./sections/index.mjs').Servers} */
  const servers = {};
  /** @type {Record<string, any>} */
  const serverInfo = {};
  /** @type {Record<string, ReturnType<typeof startMemorySampler>>} */
  const samplers = {};
  /** @type {Record<string, () => Promise<number | null>>} */
  const stops = {};

  // ---- servers: both up for the whole run, so sections can alternate between them ---------------------------
  /**
   * Starts a baseline server (bench/baseline-server.mjs) storing into `dirName` under the temp dir, with `extraEnv`
   * on top (e.g. BASELINE_HASH=1). Sections may start their own.
   * @param {string} name @param {string} dirName @param {Record<string, string>} [extraEnv] @param {string} [logName]
   */
  const startBaseline = async (name, dirName, extraEnv = {}, logName = `${dirName}.log`) => {
    const filesDir = path.join(tmpDir, dirName);
    await fs.mkdir(filesDir);
    const port = await freePort();
    return startServer({
      name,
      args: [...config.baselineNodeArgs, path.join(benchDir, 'baseline-server.mjs')],
      env: { ...process.env, PORT: String(port), DIR: filesDir, NODE_OPTIONS: '', ...extraEnv },
      cwd: repoRoot,
      port,
      healthPath: '/health',
      logFile: path.join(tmpDir, logName),
    });
  };
  // CPU of the servers sections start and stop themselves: ours, not "other processes" of the machine
  const sectionServers = new Set();
  let stoppedSectionServersCpu = 0;
  /** @template {{ pid: number, stop: () => Promise<number | null> }} S @param {S} server @returns {S} */
  const counted = (server) => {
    sectionServers.add(server.pid);
    return {
      ...server,
      stop: async () => {
        stoppedSectionServersCpu += cpuSecondsOfAll(processTree(server.pid));
        sectionServers.delete(server.pid);
        return server.stop();
      },
    };
  };
  if (config.only !== 'ferry') {
    t0 = now();
    const server = await startBaseline('baseline server', 'baseline-files', {}, 'baseline.log');
    log(`baseline server up (pid ${server.pid}) in ${((now() - t0) / 1000).toFixed(1)} s`);
    servers.baseline = server;
    stops.baseline = server.stop;
    samplers.baseline = startMemorySampler(server.pid);
    serverInfo.baseline = { startupMs: now() - t0, memoryAfterSection: {} };
  }
  /**
   * Starts a Ferry (as `npm start` does) on its own DATA_DIR under the temp dir, with `extraEnv` on top of the
   * bench's settings. Sections may start their own (e.g. `encryption`, with a key file).
   * @param {string} name @param {string} dataDir @param {Record<string, string>} [extraEnv] @param {string} [logName]
   */
  const startFerry = async (name, dataDir, extraEnv = {}, logName = 'ferry.log') => {
    const port = await freePort();
    return startServer({
      name,
      args: [...config.ferryNodeArgs, ferryMain],
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: process.env.BENCH_FERRY_LOG_LEVEL ?? 'warn',
        NODE_ENV: 'production',
        NODE_OPTIONS: '',
        // the API load creates thousands of anonymous transfers from one address: the limiter still runs on each
        // (its cost is measured), but never refuses one
        ANONYMOUS_TRANSFERS_PER_WINDOW: '1000000000',
        ANONYMOUS_PENDING_UPLOAD_GB: '1000000',
        // the open-loop API load may hold more keep-alive connections from this one address than a client is
        // allowed by default (64): counted, never refused
        MAX_CONNECTIONS_PER_CLIENT: '1000000',
        ...extraEnv,
      },
      cwd: repoRoot,
      port,
      healthPath: '/api/health',
      logFile: path.join(tmpDir, logName),
      onForcedExit: () => stopOrphanPostgres(dataDir),
    });
  };
  ctx.startFerry = async (name, dirName, extraEnv) => {
    const dataDir = path.join(tmpDir, dirName);
    const server = await startFerry(name, dataDir, extraEnv, `${dirName}.log`);
    return { ...counted(server), dataDir };
  };
  ctx.startBaseline = async (name, dirName, extraEnv) =>
    counted(await startBaseline(name, dirName, extraEnv));
  if (config.only !== 'baseline') {
    const dataDir = path.join(tmpDir, 'ferry-data');
    t0 = now();
    const server = await startFerry('Ferry', dataDir);
    log(
      `Ferry up (pid ${server.pid}) in ${((now() - t0) / 1000).toFixed(1)} s (embedded PostgreSQL included), ` +
        `node ${config.ferryNodeArgs.join(' ') || '(no flags)'}`,
    );
    servers.ferry = { ...server, dataDir };
    stops.ferry = server.stop;
    // PostgreSQL backends come and go with the pool: refresh the list every few samples
    let pgPids = /** @type {number[]} */ ([]);
    let pgAge = Number.POSITIVE_INFINITY;
    samplers.ferry = startMemorySampler(server.pid, {
      extraPids: () => {
        if (pgAge++ >= 5) {
          pgPids = processTree(server.pid).filter((pid) => pid !== server.pid);
          pgAge = 0;
        }
        return pgPids;
      },
    });
    serverInfo.ferry = { startupMs: now() - t0, memoryAfterSection: {} };
  }

  // ---- sections -------------------------------------------------------------------------------------------
  // CPU used by everything else on the machine while the sections run: other jobs make every number noisy
  const ownPids = () => [
    ...Object.values(servers).flatMap((server) => (server ? processTree(server.pid) : [])),
    ...[...sectionServers].flatMap((pid) => processTree(pid)),
  ];
  const busy0 = machineBusySeconds();
  const own0 = cpuSecondsOfAll(ownPids()) + cpuSecondsOf(process.pid);
  const wall0 = now();
  try {
    for (const section of active) {
      log(`== ${section.title} ==`);
      await section.run(ctx, servers);
      for (const [side, sampler] of Object.entries(samplers)) {
        serverInfo[side].memoryAfterSection[section.id] = sampler.peek();
      }
    }
  } finally {
    const wallS = (now() - wall0) / 1000;
    const others =
      machineBusySeconds() -
      busy0 -
      (cpuSecondsOfAll(ownPids()) + stoppedSectionServersCpu + cpuSecondsOf(process.pid) - own0);
    ctx.results.machine = {
      cpus: os.cpus().length,
      sectionsWallSeconds: wallS,
      otherProcessesCpuSeconds: others,
      otherProcessesCpuShare: others / (wallS * os.cpus().length),
      loadAverageAtEnd: os.loadavg(),
    };
    for (const side of /** @type {const} */ (['ferry', 'baseline'])) {
      if (!samplers[side]) continue;
      serverInfo[side].memory = samplers[side].stop();
      const code = await stops[side]?.();
      serverInfo[side].exitCode = code;
      if (code !== 0 && !wasInterrupted()) {
        log(`warning: the ${side} server exited with code ${code} after SIGTERM; from its log:`);
        console.log(logExcerpt(/** @type {any} */ (servers[side]).logFile));
      }
    }
  }
  for (const side of Object.keys(samplers)) {
    const m = serverInfo[side].memory;
    log(
      `${side} peak RSS (VmHWM) ${fmtMB(m.vmHWM)}` +
        (m.peakExtraPss !== undefined ? `, embedded PostgreSQL peak PSS ${fmtMB(m.peakExtraPss)}` : ''),
    );
  }

  // ---- report ---------------------------------------------------------------------------------------------
  /** @type {import('./sections/index.mjs').Row[]} */
  const rows = active.flatMap((s) => s.rows(ctx));
  const memRow = rows.findIndex((r) => r.measure.startsWith('API'));
  const hwmAfter = (side, sectionId) => serverInfo[side]?.memoryAfterSection[sectionId]?.vmHWM ?? null;
  /** @type {import('./sections/index.mjs').Row[]} */
  const memoryRows = [];
  if (active.some((s) => s.id === 'throughput') && active.length > 1) {
    memoryRows.push({
      measure: 'server peak RSS, large transfers (VmHWM)',
      unit: 'MB',
      baseline: hwmAfter('baseline', 'throughput'),
      ferry: hwmAfter('ferry', 'throughput'),
      ratio: false,
      target: { maxFerry: 200e6 },
    });
  }
  memoryRows.push(
    {
      measure: 'server peak RSS, whole run (VmHWM)',
      unit: 'MB',
      baseline: serverInfo.baseline?.memory.vmHWM ?? null,
      ferry: serverInfo.ferry?.memory.vmHWM ?? null,
      ratio: false,
      target: { maxFerry: 200e6 },
    },
    {
      measure: '  + embedded PostgreSQL (peak PSS, all procs)',
      unit: 'MB',
      baseline: null,
      ferry: serverInfo.ferry?.memory.peakExtraPss ?? null,
      ratio: false,
    },
  );
  rows.splice(memRow === -1 ? rows.length : memRow, 0, ...memoryRows);

  const durationS = (now() - started) / 1000;
  await writeJson(outFile, {
    date: new Date().toISOString(),
    durationSeconds: durationS,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryBytes: os.totalmem(),
      node: process.version,
    },
    config: { ...config, units: 'MB = 1e6 bytes; medians of `runs` runs' },
    testFile: { size: testFile.size, sha256: testFile.sha256, parts: testFile.parts },
    table: rowsForJson(rows),
    servers: serverInfo,
    results: ctx.results,
  });

  printDiagnostics(ctx);
  console.log('');
  console.log(
    `Ferry bench — ${sizeLabel(config.sizeBytes)}, median of ${config.runs}, MB = 10^6 bytes, ` +
      `${os.cpus().length} CPUs, node ${process.version}; took ${durationS.toFixed(0)} s; JSON: ${path.relative(repoRoot, outFile)}`,
  );
  const machine = ctx.results.machine;
  if (machine && machine.otherProcessesCpuShare > 0.1) {
    console.log(
      `! other processes used ${(machine.otherProcessesCpuShare * 100).toFixed(0)}% of the machine's CPU time during ` +
        'the measurements: they compete with client and servers, so rates are noisy (see every run above).',
    );
  }
  if (rows.some((r) => r.measure.startsWith('API'))) {
    const s = ctx.results.latency?.settings;
    console.log(
      `* API rows: closed loop, ${s?.connections} keep-alive clients, ${(s?.durationMs ?? 0) / 1000} s each, client on ` +
        'the same machine; baseline = bare node /echo (a ceiling, not a target).',
    );
    console.log(
      `** open loop: ${s?.rate} requests/s started on schedule whatever the answers (up to ${s?.openSockets} ` +
        'keep-alive sockets), each timed from its due time, so queueing counts; baseline = /echo as above.',
    );
  }
  console.log('');
  console.log(renderTable(rows));
}

/** CPU seconds per GB moved, per throughput measure: who pays for the bytes. @param {any} ctx */
function printDiagnostics(ctx) {
  const t = ctx.results.throughput;
  if (!t) return;
  console.log('');
  console.log(
    'CPU seconds per GB moved (medians; server = the node server process incl. its threads, user/kernel;',
  );
  console.log("client = this bench process), and every run's rate:");
  for (const side of ['baseline', 'baselineHash', 'ferry']) {
    for (const [key, list] of Object.entries(t[side] ?? {})) {
      if (!list.length || key.endsWith('E2E')) continue;
      const perGB = (pick) => {
        const values = list.map((s) => pick(s) / (s.bytes / 1e9)).sort((a, b) => a - b);
        return values[values.length >> 1].toFixed(2);
      };
      console.log(
        `  ${side.padEnd(12)} ${key.padEnd(16)} server ${perGB((s) => s.serverUserS)} usr + ${perGB((s) => s.serverSysS)} sys` +
          `  client ${perGB((s) => s.clientCpuS)}  runs ${list.map((s) => s.mbps.toFixed(0)).join(' / ')} MB/s`,
      );
    }
  }
}

/** After a SIGKILL of Ferry, its embedded postmaster would live on: ask it to shut down fast. @param {string} dataDir */
function stopOrphanPostgres(dataDir) {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGINT');
  } catch {
    // no postmaster
  }
}

try {
  await main();
} catch (error) {
  if (!wasInterrupted()) {
    console.error('[bench] failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  }
} finally {
  jsonAgent.destroy();
  if (!wasInterrupted()) await cleanupAll();
}
