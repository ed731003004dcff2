// Section "load": many downloads and uploads at once against a Ferry of its own, for a fixed time.
// BENCH_LOAD_DOWNLOADS (500) closed loops each ask a download link (timed: the link call's p50/p99 under load) and
// read the body — a whole file, the ZIP of a transfer, or a Range resume (a tail of a file) — hashing it on the fly
// and checking it against the source; BENCH_LOAD_UPLOADS (50) loops create a transfer, upload BENCH_LOAD_UPLOAD_MB
// in one tus PATCH and complete it (Ferry's SHA-256 checked). The Ferry is fresh (its VmHWM is the load's alone) and
// runs with MAX_CONNECTIONS_PER_CLIENT=0: every client is 127.0.0.1 here.
// One instance: the embedded default (own DATA_DIR, embedded PostgreSQL, local files). BENCH_LOAD_INSTANCES=2 (or
// `npm run bench -- --instances 2`): that many instances on the machine's PostgreSQL (a bench database, dropped
// afterwards), s3rver and Redis, behind a round-robin proxy (lib/proxy.mjs).
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { onCleanup } from '../lib/cleanup.mjs';
import {
  completeTransfer,
  createTransfer,
  downloadLink,
  tusCreate,
  tusPatchBuffer,
  uploadTransfer,
} from '../lib/ferry-client.mjs';
import { download } from '../lib/http-client.mjs';
import { cpuSecondsOf, machineBusySeconds, processTree, startMemorySampler } from '../lib/procfs.mjs';
import { startS3rver } from '../lib/s3rver-process.mjs';
import { freePort, logExcerpt, startServer } from '../lib/server-process.mjs';
import { envInt, fmtMB, fmtMs, log, MB, MiB, now, percentile, sleep } from '../lib/util.mjs';
import { ZipVerifier } from '../lib/zip-verify.mjs';

/** Share of the download loops' iterations per kind (the rest are whole single files). */
const MIX = { zip: 0.2, range: 0.3 };
/** Tail ranges per file a Range resume picks from (their reference hashes are computed once each). */
const RANGE_STARTS = 32;
/** Distinct upload bodies (each upload loop sends one of them; Ferry must hash each to the known SHA-256). */
const UPLOAD_BODIES = 8;
const RSS_TARGET = 300e6;
const LINK_P99_TARGET_MS = 1000;
/** Error messages kept for the report. */
const KEEP_ERRORS = 5;

function settings() {
  return {
    seconds: envInt('BENCH_LOAD_SECONDS', 60),
    downloads: envInt('BENCH_LOAD_DOWNLOADS', 500),
    uploads: envInt('BENCH_LOAD_UPLOADS', 50, 0),
    fileMiB: envInt('BENCH_LOAD_FILE_MB', 10),
    transfers: envInt('BENCH_LOAD_TRANSFERS', 3),
    filesPerTransfer: envInt('BENCH_LOAD_FILES_PER_TRANSFER', 3),
    uploadMiB: envInt('BENCH_LOAD_UPLOAD_MB', 2),
    instances: envInt('BENCH_LOAD_INSTANCES', 1),
    databaseUrl: process.env.BENCH_LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    // a database of its own: the rate limiter's keys never meet those of tests sharing the machine's Redis
    redisUrl: process.env.BENCH_LOAD_REDIS_URL ?? 'redis://127.0.0.1:6379/11',
  };
}
/** @typedef {ReturnType<typeof settings>} Settings */

/** Every Ferry of this section: the load comes from one address, with hundreds of connections. */
const LOAD_ENV = { MAX_CONNECTIONS_PER_CLIENT: '0' };

/**
 * @typedef {object} Instance
 * @property {string} name
 * @property {number} pid
 * @property {ReturnType<typeof startMemorySampler>} sampler
 * @property {() => Promise<number | null>} stop
 */

/**
 * @typedef {object} Fleet
 * @property {string} baseUrl where the client sends everything (the instance, or the proxy in front of them)
 * @property {Instance[]} instances
 * @property {Array<{ name: string, pids: () => number[] }>} helpers other processes whose CPU time is reported
 *   (embedded PostgreSQL, proxy, s3rver)
 * @property {string} description
 * @property {string[]} logFiles the servers' logs, quoted when the load met errors
 * @property {() => Promise<void>} stop
 */

/** @param {any} ctx @returns {Promise<Fleet>} */
async function startOne(ctx) {
  const server = await ctx.startFerry('Ferry (load)', 'ferry-load-data', LOAD_ENV);
  let pgPids = /** @type {number[]} */ ([]);
  let pgAge = Number.POSITIVE_INFINITY;
  const embeddedPg = () => processTree(server.pid).filter((pid) => pid !== server.pid);
  const sampler = startMemorySampler(server.pid, {
    extraPids: () => {
      if (pgAge++ >= 5) {
        pgPids = embeddedPg();
        pgAge = 0;
      }
      return pgPids;
    },
  });
  return {
    baseUrl: server.baseUrl,
    instances: [{ name: 'Ferry', pid: server.pid, sampler, stop: server.stop }],
    helpers: [{ name: 'embedded PostgreSQL', pids: embeddedPg }],
    description: '1 instance, embedded default (embedded PostgreSQL, local files)',
    logFiles: [server.logFile],
    async stop() {
      const code = await server.stop();
      if (code !== 0) log(`warning: the load Ferry exited with code ${code}; log: ${server.logFile}`);
    },
  };
}

/** @param {any} ctx @param {Settings} s @returns {Promise<Fleet>} */
async function startScaledOut(ctx, s) {
  /** @type {Array<() => Promise<void>>} */
  const undo = [];
  const stopAll = async () => {
    for (const step of undo.reverse()) await step().catch((error) => log(`cleanup: ${error}`));
    undo.length = 0;
  };
  try {
    // a bench database on the machine's PostgreSQL (Ferry migrates it at start), dropped at the end
    const dbName = `ferry_bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(s.databaseUrl, `CREATE DATABASE ${dbName}`);
    const dropDb = onCleanup(
      `drop database ${dbName}`,
      () => adminQuery(s.databaseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`),
      () => undefined, // nothing synchronous can reach PostgreSQL: a leftover ferry_bench_* database is harmless
    );
    undo.push(dropDb);
    const dbUrl = new URL(s.databaseUrl);
    dbUrl.pathname = `/${dbName}`;

    const s3 = await startS3rver({
      tmpDir: ctx.tmpDir,
      bucket: 'ferry-bench',
      logFile: path.join(ctx.tmpDir, 's3rver.log'),
    });
    undo.push(s3.stop);
    log(`s3rver up (pid ${s3.pid}) at ${s3.endpoint}; database ${dbName}; Redis ${s.redisUrl}`);

    const proxyPort = await freePort();
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    const env = {
      ...LOAD_ENV,
      DATABASE_URL: dbUrl.toString(),
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      REDIS_URL: s.redisUrl,
      SECRET_KEY: randomBytes(32).toString('base64url'),
      PUBLIC_URL: proxyUrl,
    };
    /** @type {Instance[]} */
    const instances = [];
    const upstreams = [];
    /** @type {string[]} */
    const logFiles = [];
    // one after the other: the first one migrates the database
    for (let i = 1; i <= s.instances; i++) {
      const server = await ctx.startFerry(`Ferry ${i} (load)`, `ferry-load-${i}`, env);
      undo.push(async () => {
        const code = await server.stop();
        if (code !== 0) log(`warning: load Ferry ${i} exited with code ${code}; log: ${server.logFile}`);
      });
      instances.push({
        name: `Ferry ${i}`,
        pid: server.pid,
        sampler: startMemorySampler(server.pid),
        stop: server.stop,
      });
      upstreams.push(server.baseUrl);
      logFiles.push(server.logFile);
      log(`load Ferry ${i} up (pid ${server.pid}) at ${server.baseUrl}`);
    }
    const proxy = await startServer({
      name: 'load proxy',
      args: [
        path.join(path.dirname(new URL(import.meta.url).pathname), '../lib/proxy.mjs'),
        String(proxyPort),
        ...upstreams,
      ],
      env: { ...process.env, NODE_OPTIONS: '' },
      cwd: process.cwd(),
      port: proxyPort,
      healthPath: '/api/health',
      logFile: path.join(ctx.tmpDir, 'load-proxy.log'),
    });
    undo.push(async () => {
      await proxy.stop();
    });
    return {
      baseUrl: proxyUrl,
      instances,
      helpers: [
        // the machine's PostgreSQL names each backend's database in its process title
        { name: 'PostgreSQL (bench database backends)', pids: () => pidsNaming(dbName) },
        { name: 'proxy', pids: () => [proxy.pid] },
        { name: 's3rver', pids: () => [s3.pid] },
      ],
      description: `${s.instances} instances on the machine's PostgreSQL, s3rver and Redis, behind a round-robin Node proxy`,
      logFiles: [...logFiles, path.join(ctx.tmpDir, 's3rver.log'), proxy.logFile],
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Processes whose command line mentions `text` (PostgreSQL backends show their database there). @param {string} text */
function pidsNaming(text) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(text)) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** @param {string} url @param {string} sql */
async function adminQuery(url, sql) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * @typedef {object} SeedFile
 * @property {string} id
 * @property {string} name
 * @property {number} size
 * @property {string} sha256
 * @property {Buffer} bytes the source, kept in memory for the Range references
 * @property {Map<number, string>} tails SHA-256 of bytes [start, size) by start, filled on first use
 */

/**
 * Finished transfers of random files to download during the load (uploaded before it, untimed).
 * @param {string} baseUrl @param {Settings} s @param {string} tmpDir
 * @returns {Promise<Array<{ transferId: string, files: SeedFile[] }>>}
 */
async function seed(baseUrl, s, tmpDir) {
  const size = s.fileMiB * MiB;
  const count = s.transfers * s.filesPerTransfer;
  const source = randomBytes(size * count);
  const file = path.join(tmpDir, 'load-source.bin');
  await fs.writeFile(file, source);
  const out = [];
  for (let t = 0; t < s.transfers; t++) {
    const parts = Array.from({ length: s.filesPerTransfer }, (_, i) => {
      const start = (t * s.filesPerTransfer + i) * size;
      const bytes = source.subarray(start, start + size);
      return {
        name: `load-${t + 1}-${i + 1}.bin`,
        start,
        end: start + size - 1,
        size,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes,
      };
    });
    const uploaded = await uploadTransfer(baseUrl, file, parts);
    out.push({
      transferId: uploaded.transferId,
      files: parts.map((p, i) => ({
        id: /** @type {{ id: string }} */ (uploaded.files[i]).id,
        name: p.name,
        size,
        sha256: p.sha256,
        bytes: p.bytes,
        tails: new Map(),
      })),
    });
  }
  await fs.rm(file);
  return out;
}

/** @param {SeedFile} f @param {number} k 1..RANGE_STARTS-1 @returns {{ start: number, sha256: string }} */
function tailOf(f, k) {
  // not on round boundaries: an offset inside a read-ahead block and a ZIP-free byte position
  const start = Math.min(f.size - 1, Math.floor((f.size * k) / RANGE_STARTS) + ((k * 4099) % 997));
  let sha256 = f.tails.get(start);
  if (!sha256) {
    sha256 = createHash('sha256').update(f.bytes.subarray(start)).digest('hex');
    f.tails.set(start, sha256);
  }
  return { start, sha256 };
}

/** @template T @param {T[]} list @returns {T} */
const pick = (list) => /** @type {T} */ (list[Math.floor(Math.random() * list.length)]);

/**
 * The load: download and upload loops together for `s.seconds`; loops running when the time is up finish their
 * iteration (counted and checked; their bytes after the window do not count in the rate).
 * @param {Fleet} fleet @param {Awaited<ReturnType<typeof seed>>} transfers @param {Settings} s
 */
async function runMixedLoad(fleet, transfers, s) {
  const baseUrl = fleet.baseUrl;
  const sockets = s.downloads + s.uploads + 16;
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const uploadSize = s.uploadMiB * MiB;
  const bodies = Array.from({ length: UPLOAD_BODIES }, () => {
    const bytes = randomBytes(uploadSize);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });

  const stats = {
    downloads: { file: 0, zip: 0, range: 0 },
    uploads: 0,
    errors: 0,
    corrupted: 0,
    /** @type {string[]} */
    firstErrors: [],
    bytesInWindow: 0,
    bytesTotal: 0,
    uploadBytesInWindow: 0,
  };
  /** @type {number[]} */
  const linkMs = [];
  let stopping = false;

  /** @param {string} what @param {unknown} error */
  const fail = (what, error) => {
    stats.errors++;
    if (stats.firstErrors.length < KEEP_ERRORS)
      stats.firstErrors.push(
        `${what}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 400),
      );
  };
  /** @param {string} what */
  const corrupt = (what) => {
    stats.corrupted++;
    if (stats.firstErrors.length < KEEP_ERRORS) stats.firstErrors.push(`corrupted: ${what}`.slice(0, 400));
  };
  /**
   * Counts body bytes as they arrive (the rate counts only those inside the window) and keeps the first few
   * hundred, so that an error answer can be quoted.
   */
  const counting = (/** @type {{ update(chunk: Buffer): void }} */ inner) => {
    /** @type {Buffer[]} */
    const head = [];
    let headLength = 0;
    return {
      update(/** @type {Buffer} */ chunk) {
        stats.bytesTotal += chunk.length;
        if (!stopping) stats.bytesInWindow += chunk.length;
        if (headLength < 300) {
          head.push(chunk.subarray(0, 300 - headLength));
          headLength += Math.min(chunk.length, 300 - headLength);
        }
        inner.update(chunk);
      },
      text: () => Buffer.concat(head).toString('utf8'),
    };
  };

  const oneDownload = async () => {
    const roll = Math.random();
    const kind = roll < MIX.zip ? 'zip' : roll < MIX.zip + MIX.range ? 'range' : 'file';
    const transfer = pick(transfers);
    const file = pick(transfer.files);
    const t0 = now();
    let link;
    try {
      link = await downloadLink(baseUrl, transfer.transferId, kind === 'zip' ? undefined : file.id, {
        agent,
      });
    } catch (error) {
      fail(`link (${kind})`, error);
      return;
    }
    linkMs.push(now() - t0);
    const url = new URL(link.url, baseUrl).toString();
    try {
      if (kind === 'zip') {
        const verifier = new ZipVerifier();
        const sink = counting(verifier);
        const res = await download(url, { agent, sink });
        if (res.status !== 200) return fail('ZIP body', `HTTP ${res.status}: ${sink.text()}`);
        const problems = verifier.problems(transfer.files);
        if (problems.length > 0) return corrupt(`ZIP of ${transfer.transferId}: ${problems.join('; ')}`);
      } else if (kind === 'range') {
        const { start, sha256 } = tailOf(file, 1 + Math.floor(Math.random() * (RANGE_STARTS - 1)));
        const hash = createHash('sha256');
        const sink = counting(hash);
        const res = await download(url, { agent, sink, headers: { Range: `bytes=${start}-` } });
        if (res.status !== 206)
          return fail('Range body', `HTTP ${res.status} for bytes=${start}-: ${sink.text()}`);
        const want = `bytes ${start}-${file.size - 1}/${file.size}`;
        if (res.headers['content-range'] !== want)
          return corrupt(`${file.name} Content-Range ${res.headers['content-range']}, expected ${want}`);
        const got = hash.digest('hex');
        if (got !== sha256) return corrupt(`${file.name} bytes=${start}- (${res.bytes} bytes) sha256 ${got}`);
      } else {
        const hash = createHash('sha256');
        const sink = counting(hash);
        const res = await download(url, { agent, sink });
        if (res.status !== 200) return fail('file body', `HTTP ${res.status}: ${sink.text()}`);
        const got = hash.digest('hex');
        if (res.bytes !== file.size || got !== file.sha256)
          return corrupt(`${file.name}: ${res.bytes} bytes, sha256 ${got}`);
        if (link.sha256 && link.sha256 !== file.sha256)
          return corrupt(`${file.name}: link says sha256 ${link.sha256}`);
      }
      stats.downloads[kind]++;
    } catch (error) {
      fail(`${kind} body`, error);
    }
  };

  let uploadTurn = 0;
  const oneUpload = async () => {
    const body = /** @type {(typeof bodies)[number]} */ (bodies[uploadTurn++ % bodies.length]);
    try {
      const transfer = await createTransfer(
        baseUrl,
        [{ name: 'load-upload.bin', size: uploadSize }],
        {},
        { agent },
      );
      const fileId = /** @type {{ id: string }} */ (transfer.files[0]).id;
      const uploadUrl = await tusCreate(baseUrl, transfer, fileId, uploadSize, { agent });
      const patched = await tusPatchBuffer(uploadUrl, transfer.uploadToken, body.bytes, { agent });
      if (patched.status !== 204)
        return fail('tus PATCH', `HTTP ${patched.status}: ${patched.body.slice(0, 300)}`);
      if (!stopping) stats.uploadBytesInWindow += uploadSize;
      const stored = patched.headers['upload-sha256'];
      if (stored !== body.sha256)
        return corrupt(`upload: Ferry's Upload-Sha256 ${stored}, sent ${body.sha256}`);
      await completeTransfer(baseUrl, transfer, [{ id: fileId, sha256: body.sha256 }], { agent });
      stats.uploads++;
    } catch (error) {
      fail('upload', error);
    }
  };

  const loop = async (/** @type {() => Promise<void>} */ iteration) => {
    while (!stopping) await iteration();
  };

  const pidsOf = () => ({
    instances: fleet.instances.map((i) => i.pid),
    helpers: fleet.helpers.map((h) => h.pids()),
  });
  const pids0 = pidsOf();
  const cpu0 = {
    instances: pids0.instances.map((pid) => cpuSecondsOf(pid)),
    helpers: pids0.helpers.map((pids) => new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]))),
    client: process.cpuUsage(),
    busy: machineBusySeconds(),
  };
  const t0 = now();
  const workers = [
    ...Array.from({ length: s.downloads }, () => loop(oneDownload)),
    ...Array.from({ length: s.uploads }, () => loop(oneUpload)),
  ];
  // progress every 10 s: a stalled load shows itself before the end
  const progress = setInterval(() => {
    const d = stats.downloads;
    log(
      `  ${((now() - t0) / 1000).toFixed(0)} s: ${d.file + d.zip + d.range} downloads, ${stats.uploads} uploads, ` +
        `${stats.errors} errors, ${stats.corrupted} corrupted, ${(stats.bytesInWindow / MB / ((now() - t0) / 1000)).toFixed(0)} MB/s`,
    );
  }, 10_000);
  await sleep(s.seconds * 1000);
  stopping = true;
  const windowS = (now() - t0) / 1000;
  const cpuWindow = {
    instances: pids0.instances.map((pid, i) => cpuSecondsOf(pid) - /** @type {number} */ (cpu0.instances[i])),
    helpers: fleet.helpers.map((_, i) => {
      let sum = 0;
      for (const pid of fleet.helpers[i]?.pids() ?? []) {
        const cpu = cpuSecondsOf(pid);
        if (Number.isFinite(cpu)) sum += cpu - (cpu0.helpers[i]?.get(pid) ?? 0);
      }
      return sum;
    }),
    client: (() => {
      const c = process.cpuUsage(cpu0.client);
      return (c.user + c.system) / 1e6;
    })(),
    busy: machineBusySeconds() - cpu0.busy,
  };
  log(`  time is up after ${windowS.toFixed(1)} s: waiting for the loops' last iterations`);
  await Promise.all(workers);
  clearInterval(progress);
  const drainS = (now() - t0) / 1000 - windowS;
  agent.destroy();

  const own =
    cpuWindow.instances.reduce((a, b) => a + b, 0) +
    cpuWindow.helpers.reduce((a, b) => a + b, 0) +
    cpuWindow.client;
  const sorted = Float64Array.from(linkMs).sort();
  return {
    windowSeconds: windowS,
    drainSeconds: drainS,
    downloads: stats.downloads,
    downloadsTotal: stats.downloads.file + stats.downloads.zip + stats.downloads.range,
    uploads: stats.uploads,
    errors: stats.errors,
    corrupted: stats.corrupted,
    firstErrors: stats.firstErrors,
    downloadMBps: stats.bytesInWindow / MB / windowS,
    uploadMBps: stats.uploadBytesInWindow / MB / windowS,
    bytesDownloaded: stats.bytesTotal,
    link: {
      calls: sorted.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.length ? /** @type {number} */ (sorted[sorted.length - 1]) : Number.NaN,
    },
    cpuSeconds: {
      instances: Object.fromEntries(fleet.instances.map((inst, i) => [inst.name, cpuWindow.instances[i]])),
      helpers: Object.fromEntries(fleet.helpers.map((h, i) => [h.name, cpuWindow.helpers[i]])),
      client: cpuWindow.client,
      // the machine's PostgreSQL (scaled out) and everything else on the machine
      others: cpuWindow.busy - own,
      machineShareOthers: (cpuWindow.busy - own) / (windowS * os.cpus().length),
    },
  };
}

/** @type {import('./index.mjs').Section} */
export const load = {
  id: 'load',
  title: 'Load: downloads and uploads at once',

  async run(ctx) {
    const s = settings();
    if (!ctx.startFerry) {
      log('load: needs Ferry: skipped');
      return;
    }
    const fleet = s.instances === 1 ? await startOne(ctx) : await startScaledOut(ctx, s);
    /** @type {Record<string, any>} */
    const out = { settings: { ...s, mix: MIX }, setup: fleet.description };
    try {
      log(
        `load on ${fleet.description}: seeding ${s.transfers} transfers of ${s.filesPerTransfer} × ${s.fileMiB} MiB`,
      );
      const transfers = await seed(fleet.baseUrl, s, ctx.tmpDir);
      // the peaks of the seeding (a few 10 MiB uploads) are not the load's: VmHWM starts again from here
      out.afterSeeding = Object.fromEntries(
        fleet.instances.map((i) => [i.name, { ...i.sampler.peek(), vmHWMReset: i.sampler.resetPeaks() }]),
      );
      for (const [name, m] of Object.entries(out.afterSeeding))
        log(
          `load: ${name} peak RSS while seeding ${fmtMB(m.vmHWM)}` +
            (m.vmHWMReset
              ? ', VmHWM reset for the load'
              : ', VmHWM could NOT be reset: the peak below includes it'),
        );
      log(
        `load: ${s.downloads} download loops (link, then a file, a ZIP or a Range tail) and ${s.uploads} upload ` +
          `loops (${s.uploadMiB} MiB each) for ${s.seconds} s`,
      );
      const result = await runMixedLoad(fleet, transfers, s);
      Object.assign(out, result);
      const d = result.downloads;
      log(
        `load: ${result.downloadsTotal} downloads (${d.file} files, ${d.zip} ZIPs, ${d.range} Range tails), ` +
          `${result.uploads} uploads, ${result.errors} errors, ${result.corrupted} corrupted; ` +
          `${result.downloadMBps.toFixed(0)} MB/s down, ${result.uploadMBps.toFixed(1)} MB/s up; last iterations ` +
          `took ${result.drainSeconds.toFixed(1)} s more`,
      );
      log(
        `load: link p50 ${fmtMs(result.link.p50Ms)}, p99 ${fmtMs(result.link.p99Ms)}, max ${fmtMs(result.link.maxMs)} ` +
          `(${result.link.calls} calls)`,
      );
      const c = result.cpuSeconds;
      log(
        `load: CPU seconds in the window: ${Object.entries({ ...c.instances, ...c.helpers, client: c.client })
          .map(([name, v]) => `${name} ${Number(v).toFixed(1)}`)
          .join(
            ', ',
          )}, everything else ${c.others.toFixed(1)} (${(c.machineShareOthers * 100).toFixed(0)}% of the machine)`,
      );
      for (const message of result.firstErrors) log(`  ${message}`);
      if (result.errors > 0)
        for (const file of fleet.logFiles) log(`load: from ${path.basename(file)}:\n${logExcerpt(file, 12)}`);
    } finally {
      out.memory = Object.fromEntries(fleet.instances.map((i) => [i.name, i.sampler.stop()]));
      for (const [name, m] of Object.entries(out.memory))
        log(
          `load: ${name} peak RSS (VmHWM) ${fmtMB(m.vmHWM)}` +
            (m.peakExtraPss !== undefined ? `, embedded PostgreSQL peak PSS ${fmtMB(m.peakExtraPss)}` : ''),
        );
      await fleet.stop();
      ctx.results.load = out;
    }
  },

  rows(ctx) {
    const l = ctx.results.load;
    if (!l || l.windowSeconds === undefined) return [];
    const n = l.settings.instances;
    const label = `load ${l.settings.downloads}↓+${l.settings.uploads}↑ ${l.settings.seconds} s, ${n} instance${n > 1 ? 's' : ''}`;
    /** @type {import('./index.mjs').Row[]} */
    const rows = [
      {
        measure: `${label}: downloads file / ZIP / Range, uploads`,
        unit: 'text',
        baseline: null,
        ferry: `${l.downloads.file} / ${l.downloads.zip} / ${l.downloads.range}, ${l.uploads}`,
        ratio: false,
      },
      {
        measure: `${label}: errors`,
        unit: 'count',
        baseline: null,
        ferry: l.errors,
        ratio: false,
        target: { atMost: 0 },
      },
      {
        measure: `${label}: corrupted bodies`,
        unit: 'count',
        baseline: null,
        ferry: l.corrupted,
        ratio: false,
        target: { atMost: 0 },
      },
      {
        measure: `${label}: download rate (all bodies)`,
        unit: 'MB/s',
        baseline: null,
        ferry: l.downloadMBps,
        ratio: false,
      },
      {
        measure: `${label}: link call p99`,
        unit: 'ms',
        baseline: null,
        ferry: l.link.p99Ms,
        ferryNote: `(p50 ${fmtMs(l.link.p50Ms)}, max ${fmtMs(l.link.maxMs)})`,
        ratio: false,
        target: { maxFerry: LINK_P99_TARGET_MS },
      },
    ];
    const c = l.cpuSeconds;
    const cores = (/** @type {number} */ v) => (v / l.windowSeconds).toFixed(2);
    rows.push({
      measure: `${label}: CPU cores busy`,
      unit: 'text',
      baseline: null,
      ferry: `${Object.entries({ ...c.instances, ...c.helpers, client: c.client })
        .map(([name, v]) => `${name} ${cores(Number(v))}`)
        .join(', ')}, others ${cores(c.others)}`,
      ratio: false,
    });
    for (const [name, m] of Object.entries(l.memory ?? {})) {
      rows.push({
        measure: `${label}: ${name} peak RSS (VmHWM)`,
        unit: 'MB',
        baseline: null,
        ferry: /** @type {any} */ (m).vmHWM,
        ratio: false,
        target: { maxFerry: RSS_TARGET },
      });
    }
    return rows;
  },
};
