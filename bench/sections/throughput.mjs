// Section "throughput": large-file upload and download, baseline vs Ferry, with the same client code.
// Measurements alternate between the two servers (run 1: baseline first, run 2: Ferry first, ...) so that drift
// of a shared machine (other jobs, page-cache state, memory reclaim) hits both alike; the median is reported.
import { downloadLink, uploadTransfer } from '../lib/ferry-client.mjs';
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

/** @param {string} what @param {boolean} ok @param {string} detail */
function verify(what, ok, detail) {
  if (!ok) throw new Error(`verification failed: ${what}: ${detail}`);
}

/** The bare server: PUT /files/<name>, GET /files/<name> (bench/baseline-server.mjs). */
function baselineSide(/** @type {BenchContext} */ ctx, /** @type {ServerInfo} */ server) {
  const { file, size, parts, sha256 } = ctx.testFile;
  const put = async (name, start, end) => {
    const res = await uploadRange(`${server.baseUrl}/files/${name}`, { method: 'PUT', file, start, end });
    verify(`baseline PUT ${name}`, res.status === 201, `HTTP ${res.status} ${res.body}`);
    verify(`baseline PUT ${name}`, JSON.parse(res.body).bytes === end - start + 1, res.body);
    return res;
  };
  return {
    /** Untimed: one part up and down, so JIT compilation and first-use costs are not measured. */
    async warmup() {
      const p = /** @type {import('../lib/testfile.mjs').Part} */ (parts[0]);
      await put('warmup', p.start, p.end);
      const res = await download(`${server.baseUrl}/files/warmup`);
      verify('baseline warm-up download', res.sha256 === p.sha256, `sha256 ${res.sha256}`);
    },
    /** @param {number} run */
    async uploadSingle(run) {
      const res = await put(`single-${run}`, 0, size - 1);
      return { bytes: size, ms: res.ms };
    },
    /** @param {number} run */
    async uploadParallel(run) {
      const t0 = now();
      await Promise.all(parts.map((p) => put(`part-${run}-${p.index}`, p.start, p.end)));
      return { bytes: size, ms: now() - t0 };
    },
    /** @param {number} run */
    async download(run) {
      const res = await download(`${server.baseUrl}/files/single-${run}`);
      verify('baseline download', res.status === 200, `HTTP ${res.status}`);
      verify('baseline download', res.bytes === size, `${res.bytes} bytes, expected ${size}`);
      verify('baseline download', res.sha256 === sha256, `sha256 ${res.sha256}, expected ${sha256}`);
      return { bytes: res.bytes, ms: res.ms };
    },
  };
}

/** Ferry: tus uploads into transfers, downloads through signed links (lib/ferry-client.mjs). */
export function ferrySide(/** @type {BenchContext} */ ctx, /** @type {ServerInfo} */ server) {
  const { file, size, parts, sha256 } = ctx.testFile;
  /** @type {Map<number, { single?: Awaited<ReturnType<typeof uploadTransfer>>, multi?: Awaited<ReturnType<typeof uploadTransfer>> }>} */
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
    /** @type {Array<{ key: string, label: string, sides: Array<'baseline' | 'ferry'> }>} */
    const plan = [
      { key: 'uploadSingle', label: `upload ${S} (one stream)`, sides: ['baseline', 'ferry'] },
      { key: 'uploadParallel', label: `upload ${S} (${n} parallel parts)`, sides: ['baseline', 'ferry'] },
      { key: 'download', label: `download ${S}`, sides: ['baseline', 'ferry'] },
      { key: 'downloadZip', label: `download ${S} as ZIP`, sides: ['ferry'] },
      { key: 'downloadZipParts', label: `download ${n} parts as one ZIP`, sides: ['ferry'] },
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
    };
    for (const key of picked) {
      const need = /** @type {Record<string, string>} */ (needs)[key];
      if (need && !picked.includes(need)) throw new Error(`BENCH_STEPS: ${key} needs ${need}`);
    }
    if (picked.length > 0) plan.splice(0, plan.length, ...plan.filter((step) => picked.includes(step.key)));
    const impl = {
      baseline: servers.baseline ? baselineSide(ctx, servers.baseline) : null,
      ferry: servers.ferry ? ferrySide(ctx, servers.ferry) : null,
    };
    /** @type {Record<'baseline' | 'ferry', Record<string, Sample[]>>} */
    const out = { baseline: {}, ferry: {} };
    /** @param {'baseline' | 'ferry'} side @param {string} key @param {Sample} sample */
    const record = (side, key, sample) => {
      const list = out[side][key] ?? [];
      list.push(sample);
      out[side][key] = list;
    };
    log(`warm-up (untimed): ${sizeLabel(testFile.parts[0]?.size ?? 0)} up and down on each server`);
    for (const side of /** @type {const} */ (['baseline', 'ferry'])) await impl[side]?.warmup();
    for (let run = 1; run <= runs; run++) {
      log(`throughput run ${run}/${runs}`);
      const order = /** @type {Array<'baseline' | 'ferry'>} */ (
        run % 2 ? ['baseline', 'ferry'] : ['ferry', 'baseline']
      );
      for (const step of plan) {
        for (const side of order) {
          const fn = /** @type {any} */ (impl[side])?.[step.key];
          const server = servers[side];
          if (!fn || !server || !step.sides.includes(side)) continue;
          await syncDisks(); // untimed: no writeback of the previous step during this one
          const sample = await measure(server.pid, () => fn(run));
          logSample(`${side.padEnd(8)} ${step.label}`, sample);
          record(side, step.key, sample);
          const e2eMs = /** @type {number | undefined} */ (sample.extra?.e2eMs);
          if (e2eMs) {
            const e2e = { ...sample, ms: e2eMs, mbps: sample.bytes / 1e6 / (e2eMs / 1000) };
            record(side, `${step.key}E2E`, e2e);
            log(`  ${' '.repeat(9)}  end-to-end (create+tus+complete) ${fmtMBps(e2e.mbps).padStart(10)}`);
          }
        }
      }
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
    ].filter((row) => row.baseline !== null || row.ferry !== null); // measurements BENCH_STEPS left out
  },
};
