// Section "throughput": large-file upload and download, baseline vs Ferry, with the same client code.
// Measurements alternate between the two servers (run 1: baseline first, run 2: Ferry first, ...) so that drift
// of a shared machine (other jobs, page-cache state, memory reclaim) hits both alike; the median is reported.
// Also: bytes the way the web app moves them (50 MiB tus PATCHes, the download page's calls, the client hashing),
// against the baseline's plain PUT/GET with the client hashing too; and the parallel-parts upload against a second
// baseline that hashes every uploaded byte as Ferry must (BASELINE_HASH=1), measured in the same alternation.
import { createHash } from 'node:crypto';
import {
  downloadLikeWebApp,
  downloadLink,
  uploadInChunks,
  uploadTransfer,
  webTusChunkBytes,
} from '../lib/ferry-client.mjs';
import { download, uploadRange } from '../lib/http-client.mjs';
import { measure } from '../lib/measure.mjs';
import { fmtMBps, log, median, now, sizeLabel, syncDisks } from '../lib/util.mjs';
import { ZipVerifier } from '../lib/zip-verify.mjs';

/** @typedef {import('../lib/measure.mjs').Sample} Sample */
/** @typedef {import('./index.mjs').BenchContext} BenchContext */
/** @typedef {import('./index.mjs').ServerInfo} ServerInfo */
/** @typedef {import('./index.mjs').Row} Row */

/** Ferry should move bytes at least this fast relative to the bare baseline. */
const MIN_RATIO = { minRatio: 0.9 };
/** The web app's uploads and downloads against the baseline's plain PUT/GET. */
const WEB_MIN_RATIO = { minRatio: 0.95 };

/** @typedef {'baseline' | 'baselineHash' | 'ferry'} Side */

/** @param {string} what @param {Sample} sample */
function logSample(what, sample) {
  log(
    `  ${what.padEnd(40)} ${fmtMBps(sample.mbps).padStart(10)}  ${(sample.ms / 1000).toFixed(2)} s` +
      `  server CPU ${sample.serverUserS.toFixed(2)} usr + ${sample.serverSysS.toFixed(2)} sys s` +
      `  client CPU ${sample.clientCpuS.toFixed(2)} s`,
  );
  const threads = Object.entries(sample.serverThreadsS)
    .sort((a, b) => b[1] - a[1])
    .map(([name, s]) => `${name} ${s.toFixed(2)}`)
    .join(', ');
  log(
    `  ${''.padEnd(40)} server threads (CPU s): ${threads}; ` +
      `${Math.round(sample.serverMinorFaults / (sample.bytes / 1e9))} page faults per GB`,
  );
}

/** What the web app's way costs besides the bytes: per-PATCH times and turn-arounds, the download page's calls. */
function logWebDetail(/** @type {Sample} */ sample) {
  const x = /** @type {Record<string, any> | undefined} */ (sample.extra);
  const ms = (/** @type {number[]} */ list) => list.map((v) => v.toFixed(0)).join(' / ');
  if (x?.perPatchMs)
    log(
      `  ${''.padEnd(40)} PATCHes alone ${fmtMBps(sample.bytes / 1e6 / (x.patchMs / 1000))}; each (ms): ` +
        `${ms(x.perPatchMs)}; between them (ms): ${ms(x.gapsMs) || '—'}; ` +
        `create + tus creation + complete ${(sample.ms - x.patchMs).toFixed(0)} ms`,
    );
  if (x?.apiMs !== undefined)
    log(
      `  ${''.padEnd(40)} info + link ${x.apiMs.toFixed(1)} ms, then first body byte after ` +
        `${x.ttfbMs.toFixed(1)} ms`,
    );
}

/** @param {string} what @param {boolean} ok @param {string} detail */
function verify(what, ok, detail) {
  if (!ok) throw new Error(`verification failed: ${what}: ${detail}`);
}

/**
 * The bare server: PUT /files/<name>, GET /files/<name> (bench/baseline-server.mjs). With BASELINE_HASH=1 it answers
 * a PUT with the SHA-256 of what it received, which is checked too.
 */
function baselineSide(/** @type {BenchContext} */ ctx, /** @type {ServerInfo} */ server) {
  const { file, size, parts, sha256 } = ctx.testFile;
  /** @param {string} name @param {number} start @param {number} end @param {string} expected the range's SHA-256 @param {import('node:crypto').Hash} [hash] */
  const put = async (name, start, end, expected, hash) => {
    const res = await uploadRange(`${server.baseUrl}/files/${name}`, {
      method: 'PUT',
      file,
      start,
      end,
      hash,
    });
    verify(`baseline PUT ${name}`, res.status === 201, `HTTP ${res.status} ${res.body}`);
    const answer = JSON.parse(res.body);
    verify(`baseline PUT ${name}`, answer.bytes === end - start + 1, res.body);
    if (answer.sha256 !== undefined) verify(`baseline PUT ${name}`, answer.sha256 === expected, res.body);
    return res;
  };
  /** @param {string} name @param {string} what */
  const get = async (name, what) => {
    const res = await download(`${server.baseUrl}/files/${name}`);
    verify(what, res.status === 200, `HTTP ${res.status}`);
    verify(what, res.bytes === size, `${res.bytes} bytes, expected ${size}`);
    verify(what, res.sha256 === sha256, `sha256 ${res.sha256}, expected ${sha256}`);
    return { bytes: res.bytes, ms: res.ms };
  };
  return {
    /** Untimed: one part up and down, so JIT compilation and first-use costs are not measured. */
    async warmup() {
      const p = /** @type {import('../lib/testfile.mjs').Part} */ (parts[0]);
      await put('warmup', p.start, p.end, p.sha256);
      const res = await download(`${server.baseUrl}/files/warmup`);
      verify('baseline warm-up download', res.sha256 === p.sha256, `sha256 ${res.sha256}`);
    },
    /** @param {number} run */
    async uploadSingle(run) {
      const res = await put(`single-${run}`, 0, size - 1, sha256);
      return { bytes: size, ms: res.ms };
    },
    /** The web app's counterpart: one plain PUT, the client hashing what it sends. */
    async uploadWeb(/** @type {number} */ run) {
      const hash = createHash('sha256');
      const res = await put(`web-${run}`, 0, size - 1, sha256, hash);
      verify('baseline PUT (client hash)', hash.digest('hex') === sha256, 'the client hashed other bytes');
      return { bytes: size, ms: res.ms };
    },
    /** @param {number} run */
    async uploadParallel(run) {
      const t0 = now();
      await Promise.all(parts.map((p) => put(`part-${run}-${p.index}`, p.start, p.end, p.sha256)));
      return { bytes: size, ms: now() - t0 };
    },
    /** @param {number} run */
    async download(run) {
      return get(`single-${run}`, 'baseline download');
    },
    /** The web app's counterpart: a plain GET of what uploadWeb stored, the client hashing the body. */
    async downloadWeb(/** @type {number} */ run) {
      return get(`web-${run}`, 'baseline download (web counterpart)');
    },
  };
}

/** Ferry: tus uploads into transfers, downloads through signed links (lib/ferry-client.mjs). */
export function ferrySide(/** @type {BenchContext} */ ctx, /** @type {ServerInfo} */ server) {
  const { file, size, parts, sha256 } = ctx.testFile;
  /** @type {Map<number, { single?: Awaited<ReturnType<typeof uploadTransfer>>, multi?: Awaited<ReturnType<typeof uploadTransfer>>, web?: Awaited<ReturnType<typeof uploadInChunks>> }>} */
  const transfers = new Map();
  const singleName = (run) => `bench-${run}.bin`;
  const partName = (run, index) => `part-${run}-${index}.bin`;
  const of = (run) => {
    let entry = transfers.get(run);
    if (!entry) {
      entry = {};
      transfers.set(run, entry);
    }
    return entry;
  };
  const zip = async (transferId, expected, label) => {
    const link = await downloadLink(server.baseUrl, transferId);
    const res = await download(link.url, { sink: new ZipVerifier() });
    verify(label, res.status === 200, `HTTP ${res.status}`);
    verify(label, res.bytes === link.size, `${res.bytes} bytes, the link said ${link.size}`);
    const problems = /** @type {ZipVerifier} */ (res.sink).problems(expected);
    verify(label, problems.length === 0, problems.join('; '));
    return { bytes: res.bytes, ms: res.ms };
  };
  return {
    /** Untimed: one part up and down, plain and as ZIP, so JIT compilation and first-use costs are not measured. */
    async warmup() {
      const p = /** @type {import('../lib/testfile.mjs').Part} */ (parts[0]);
      const warm = await uploadTransfer(server.baseUrl, file, [{ ...p, name: 'warmup.bin' }]);
      const link = await downloadLink(server.baseUrl, warm.transferId, warm.files[0]?.id);
      const res = await download(link.url);
      verify('ferry warm-up download', res.sha256 === p.sha256, `sha256 ${res.sha256}`);
      await zip(
        warm.transferId,
        [{ name: 'warmup.bin', size: p.size, sha256: p.sha256 }],
        'ferry warm-up ZIP',
      );
    },
    /** One tus PATCH; `ms` is the PATCH (first body byte to 204), `extra.e2eMs` create+PATCH+complete. */
    async uploadSingle(/** @type {number} */ run) {
      const single = await uploadTransfer(server.baseUrl, file, [
        { name: singleName(run), start: 0, end: size - 1, size, sha256 },
      ]);
      of(run).single = single;
      return { bytes: size, ms: single.patchMs, extra: { e2eMs: single.totalMs } };
    },
    /** One transfer of N files, all PATCHes at once; `ms` from the first PATCH byte to the last 204. */
    async uploadParallel(/** @type {number} */ run) {
      const multi = await uploadTransfer(
        server.baseUrl,
        file,
        parts.map((p) => ({ ...p, name: partName(run, p.index) })),
      );
      of(run).multi = multi;
      return { bytes: size, ms: multi.patchMs, extra: { e2eMs: multi.totalMs } };
    },
    /**
     * The web app's upload: 50 MiB PATCHes (its chunk size) one after the other, the client hashing; `ms` from the
     * transfer's creation to its completion (what the sender waits for), the PATCHes alone in `extra`.
     */
    async uploadWeb(/** @type {number} */ run) {
      const web = await uploadInChunks(
        server.baseUrl,
        file,
        { name: `web-${run}.bin`, start: 0, end: size - 1, size, sha256 },
        webTusChunkBytes(),
      );
      of(run).web = web;
      return {
        bytes: size,
        ms: web.totalMs,
        extra: { patchMs: web.patchMs, perPatchMs: web.perPatchMs, gapsMs: web.gapsMs },
      };
    },
    /** The download page's way: info, link (with a visit's browser code), the blob hashed; `ms` from info on. */
    async downloadWeb(/** @type {number} */ run) {
      const web = of(run).web;
      if (!web) throw new Error('download before upload');
      const res = await downloadLikeWebApp(server.baseUrl, web.transferId, web.fileId);
      verify('ferry web download', res.status === 200, `HTTP ${res.status}`);
      verify('ferry web download', res.bytes === size, `${res.bytes} bytes, expected ${size}`);
      verify('ferry web download', res.sha256 === sha256, `sha256 ${res.sha256}, expected ${sha256}`);
      return { bytes: res.bytes, ms: res.ms, extra: { apiMs: res.apiMs, ttfbMs: res.ttfbMs } };
    },
    async download(/** @type {number} */ run) {
      const single = of(run).single;
      if (!single) throw new Error('download before upload');
      const link = await downloadLink(server.baseUrl, single.transferId, single.files[0]?.id);
      const res = await download(link.url);
      verify('ferry download', res.status === 200, `HTTP ${res.status}`);
      verify('ferry download', res.bytes === size, `${res.bytes} bytes, expected ${size}`);
      verify('ferry download', res.sha256 === sha256, `sha256 ${res.sha256}, expected ${sha256}`);
      return { bytes: res.bytes, ms: res.ms };
    },
    async downloadZip(/** @type {number} */ run) {
      const single = of(run).single;
      if (!single) throw new Error('download before upload');
      return zip(single.transferId, [{ name: singleName(run), size, sha256 }], 'ferry ZIP download');
    },
    async downloadZipParts(/** @type {number} */ run) {
      const multi = of(run).multi;
      if (!multi) throw new Error('download before upload');
      const expected = parts.map((p) => ({ name: partName(run, p.index), size: p.size, sha256: p.sha256 }));
      return zip(multi.transferId, expected, 'ferry ZIP download of the parts');
    },
  };
}

/** @type {import('./index.mjs').Section} */
export const throughput = {
  id: 'throughput',
  title: 'Large-file throughput',

  async run(ctx, servers) {
    const { runs, testFile } = ctx;
    const S = sizeLabel(testFile.size);
    const n = testFile.parts.length;
    const chunk = sizeLabel(webTusChunkBytes());
    /** @type {Array<{ key: string, label: string, sides: Side[] }>} */
    const plan = [
      { key: 'uploadSingle', label: `upload ${S} (one stream)`, sides: ['baseline', 'ferry'] },
      {
        key: 'uploadParallel',
        label: `upload ${S} (${n} parallel parts)`,
        sides: ['baseline', 'baselineHash', 'ferry'],
      },
      { key: 'download', label: `download ${S}`, sides: ['baseline', 'ferry'] },
      { key: 'downloadZip', label: `download ${S} as ZIP`, sides: ['ferry'] },
      { key: 'downloadZipParts', label: `download ${n} parts as one ZIP`, sides: ['ferry'] },
      { key: 'uploadWeb', label: `upload ${S}, web app (${chunk} PATCHes)`, sides: ['baseline', 'ferry'] },
      { key: 'downloadWeb', label: `download ${S}, web app (info, link)`, sides: ['baseline', 'ferry'] },
    ];
    // BENCH_STEPS picks some of the measurements (e.g. `uploadParallel` alone while working on it); the
    // downloads read what `uploadSingle` / `uploadParallel` of the same run uploaded.
    const picked = (process.env.BENCH_STEPS ?? '').split(',').filter(Boolean);
    const unknown = picked.filter((key) => !plan.some((step) => step.key === key));
    if (unknown.length > 0) throw new Error(`unknown BENCH_STEPS: ${unknown.join(', ')}`);
    const needs = {
      download: 'uploadSingle',
      downloadZip: 'uploadSingle',
      downloadZipParts: 'uploadParallel',
      downloadWeb: 'uploadWeb',
    };
    for (const key of picked) {
      const need = /** @type {Record<string, string>} */ (needs)[key];
      if (need && !picked.includes(need)) throw new Error(`BENCH_STEPS: ${key} needs ${need}`);
    }
    if (picked.length > 0) plan.splice(0, plan.length, ...plan.filter((step) => picked.includes(step.key)));
    // the baseline that hashes as Ferry must, for the parallel-parts upload: started here, stopped at the end
    const hashing =
      servers.baseline && ctx.startBaseline && plan.some((step) => step.sides.includes('baselineHash'))
        ? await ctx.startBaseline('hashing baseline server', 'baseline-hash-files', { BASELINE_HASH: '1' })
        : null;
    if (hashing) log(`hashing baseline server up (pid ${hashing.pid}, BASELINE_HASH=1)`);
    /** @type {Record<Side, ServerInfo | undefined>} */
    const serverOf = { baseline: servers.baseline, baselineHash: hashing ?? undefined, ferry: servers.ferry };
    const impl = {
      baseline: servers.baseline ? baselineSide(ctx, servers.baseline) : null,
      baselineHash: hashing ? baselineSide(ctx, hashing) : null,
      ferry: servers.ferry ? ferrySide(ctx, servers.ferry) : null,
    };
    /** @type {Record<Side, Record<string, Sample[]>>} */
    const out = { baseline: {}, baselineHash: {}, ferry: {} };
    /** @param {Side} side @param {string} key @param {Sample} sample */
    const record = (side, key, sample) => {
      const list = out[side][key] ?? [];
      list.push(sample);
      out[side][key] = list;
    };
    try {
      log(`warm-up (untimed): ${sizeLabel(testFile.parts[0]?.size ?? 0)} up and down on each server`);
      for (const side of /** @type {const} */ (['baseline', 'baselineHash', 'ferry']))
        await impl[side]?.warmup();
      for (let run = 1; run <= runs; run++) {
        log(`throughput run ${run}/${runs}`);
        const order = /** @type {Side[]} */ (
          run % 2 ? ['baseline', 'baselineHash', 'ferry'] : ['ferry', 'baselineHash', 'baseline']
        );
        for (const step of plan) {
          for (const side of order) {
            const fn = /** @type {any} */ (impl[side])?.[step.key];
            const server = serverOf[side];
            if (!fn || !server || !step.sides.includes(side)) continue;
            await syncDisks(); // untimed: no writeback of the previous step during this one
            const sample = await measure(server.pid, () => fn(run));
            logSample(`${side.padEnd(12)} ${step.label}`, sample);
            record(side, step.key, sample);
            logWebDetail(sample);
            const e2eMs = /** @type {number | undefined} */ (sample.extra?.e2eMs);
            if (e2eMs) {
              const e2e = { ...sample, ms: e2eMs, mbps: sample.bytes / 1e6 / (e2eMs / 1000) };
              record(side, `${step.key}E2E`, e2e);
              log(`  ${' '.repeat(9)}  end-to-end (create+tus+complete) ${fmtMBps(e2e.mbps).padStart(10)}`);
            }
          }
        }
      }
    } finally {
      const code = await hashing?.stop();
      if (hashing && code !== 0)
        log(`warning: the hashing baseline exited with code ${code}; log: ${hashing.logFile}`);
    }
    ctx.results.throughput = out;
  },

  rows(ctx) {
    const t = ctx.results.throughput;
    if (!t) return [];
    const { size, parts } = ctx.testFile;
    const S = sizeLabel(size);
    const m = (side, key) => {
      const list = t[side]?.[key];
      return list?.length ? median(list.map((s) => s.mbps)) : null;
    };
    /** @type {Row[]} */
    return [
      {
        measure: `upload ${S} (one stream)`,
        unit: 'MB/s',
        baseline: m('baseline', 'uploadSingle'),
        ferry: m('ferry', 'uploadSingle'),
        target: MIN_RATIO,
      },
      {
        measure: `upload ${S} end-to-end (create+tus+complete)`,
        unit: 'MB/s',
        baseline: m('baseline', 'uploadSingle'),
        ferry: m('ferry', 'uploadSingleE2E'),
      },
      {
        measure: `upload ${S} (${parts.length} parallel parts)`,
        unit: 'MB/s',
        baseline: m('baseline', 'uploadParallel'),
        ferry: m('ferry', 'uploadParallel'),
        target: MIN_RATIO,
      },
      {
        measure: `upload ${S} (${parts.length} parallel parts), baseline hashing`,
        unit: 'MB/s',
        baseline: m('baselineHash', 'uploadParallel'),
        baselineNote: '(SHA-256 + CRC32)',
        ferry: m('ferry', 'uploadParallel'),
      },
      {
        measure: `download ${S}`,
        unit: 'MB/s',
        baseline: m('baseline', 'download'),
        ferry: m('ferry', 'download'),
        target: MIN_RATIO,
      },
      {
        measure: `download ${S} as ZIP`,
        unit: 'MB/s',
        baseline: m('baseline', 'download'),
        baselineNote: '(plain dl)',
        ferry: m('ferry', 'downloadZip'),
        target: MIN_RATIO,
      },
      {
        measure: `download ${parts.length} parts as one ZIP`,
        unit: 'MB/s',
        baseline: m('baseline', 'download'),
        baselineNote: '(plain dl)',
        ferry: m('ferry', 'downloadZipParts'),
      },
      {
        measure: `upload ${S}, web app: ${sizeLabel(webTusChunkBytes())} tus PATCHes, create→complete`,
        unit: 'MB/s',
        baseline: m('baseline', 'uploadWeb'),
        baselineNote: '(PUT)',
        ferry: m('ferry', 'uploadWeb'),
        target: WEB_MIN_RATIO,
      },
      {
        measure: `download ${S}, web app: info, link, blob`,
        unit: 'MB/s',
        baseline: m('baseline', 'downloadWeb'),
        baselineNote: '(GET)',
        ferry: m('ferry', 'downloadWeb'),
        target: WEB_MIN_RATIO,
      },
    ].filter((row) => row.baseline !== null || row.ferry !== null); // measurements BENCH_STEPS left out
  },
};
