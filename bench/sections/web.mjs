// Section "web": what the web app (apps/web, as built by `npm run build`; this section builds nothing) costs a
// signed-out visitor on its two most visited pages: the uploader at `/` and a recipient's download page
// `/dl/{id}` (a finished transfer made through the API for the run; an unknown id would show the not-found page).
// 1. JavaScript: each page is opened in a fresh headless Chromium (Debian's, through playwright-core) and every
//    script it requests until it is drawn and the network is quiet is counted (the entry, its modulepreloads, the
//    route's lazy chunks, the language file, workers; bench/lib/web-page.mjs), each with its gzip bytes as the
//    server sends them to a browser that accepts gzip. Targets: `/` ≤ 150 KB, `/dl/{id}` ≤ 100 KB.
// 2. Lighthouse (as the `site` section runs it: npm `lighthouse`, default mobile settings, performance only)
//    BENCH_WEB_RUNS times per page, each in a fresh Chromium; median and spread. Target: ≥ 95.
// The CPU the rest of the machine used meanwhile is printed: Lighthouse's simulated timings grow with a busy host.
// Env: BENCH_WEB_RUNS (3), BENCH_WEB_LIGHTHOUSE (0 skips Lighthouse), CHROMIUM_PATH (/usr/bin/chromium).
import os from 'node:os';
import { onCleanup } from '../lib/cleanup.mjs';
import { machineBusySeconds, treeCpuSeconds } from '../lib/procfs.mjs';
import { envInt, log, median, now } from '../lib/util.mjs';
import { createDownloadPage, pageJavaScript } from '../lib/web-page.mjs';
import { lighthouseRun } from './site.mjs';

/** The issue's budgets, gzip bytes of all JavaScript a page loads. */
export const WEB_JS_TARGETS = { home: 150e3, download: 100e3 };
export const WEB_SCORE_TARGET = 95;

function settings() {
  return {
    runs: envInt('BENCH_WEB_RUNS', 3),
    lighthouse: process.env.BENCH_WEB_LIGHTHOUSE !== '0',
    chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (v) => (v === null || v === undefined ? '—' : `${Math.round(v)} ms`);

/**
 * The CPU share the rest of the machine took since `start` (everything but this bench's process tree: its servers,
 * browsers and their reaped children).
 * @param {{ busy: number, own: number, at: number }} start @param {number} cpus
 */
function otherProcessesShare(start, cpus) {
  const wallS = (now() - start.at) / 1000;
  const others = machineBusySeconds() - start.busy - (treeCpuSeconds(process.pid) - start.own);
  return { seconds: others, share: others / (wallS * cpus), wallS };
}

/** @param {string} baseUrl */
async function measureJavaScript(baseUrl, pages, chromiumPath) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const close = onCleanup(
    'stop the JavaScript count browser',
    () => browser.close(),
    () => {
      // playwright kills the browsers it launched when this process exits
    },
  );
  try {
    for (const page of pages) {
      const t0 = now();
      try {
        const measured = await pageJavaScript(browser, `${baseUrl}${page.path}`);
        if (measured.status !== 200) throw new Error(`HTTP ${measured.status}`);
        if (!measured.heading)
          throw new Error('nothing drawn (no <h1>): is the web app built? (npm run build)');
        page.js = measured;
        log(
          `web ${page.label}: ${measured.scripts.length} scripts, ${kb(measured.gzipBytes)} gzip ` +
            `(${kb(measured.rawBytes)} raw, ${kb(measured.wireBytes)} on the wire as Chromium takes them), ` +
            `h1 "${measured.heading}" (${((now() - t0) / 1000).toFixed(1)} s)`,
        );
        for (const s of measured.scripts)
          log(`    ${s.path.padEnd(52)} ${kb(s.gzip).padStart(9)} gzip ${kb(s.raw).padStart(9)} raw`);
      } catch (error) {
        page.error = error instanceof Error ? error.message : String(error);
        log(`web ${page.label}: ${page.error}`);
      }
    }
  } finally {
    await close();
  }
}

/** @type {import('./index.mjs').Section} */
export const web = {
  id: 'web',
  title: 'Web app: JavaScript of / and /dl/{id}, and Lighthouse',

  async run(ctx, servers) {
    const ferry = servers.ferry;
    if (!ferry) return;
    const s = settings();
    const cpus = os.cpus().length;
    const start = { busy: machineBusySeconds(), own: treeCpuSeconds(process.pid), at: now() };
    const download = await createDownloadPage(ferry.baseUrl);
    /** @type {any[]} */
    const pages = [
      { id: 'home', label: '/', path: '/', target: WEB_JS_TARGETS.home },
      { id: 'download', label: '/dl/{id}', path: download.path, target: WEB_JS_TARGETS.download },
    ];
    const out = { settings: s, pages, machine: /** @type {any} */ (null) };
    ctx.results.web = out;

    await measureJavaScript(ferry.baseUrl, pages, s.chromium);

    if (s.lighthouse) {
      for (const page of pages) {
        page.lighthouse = { runs: /** @type {any[]} */ ([]), errors: /** @type {string[]} */ ([]) };
        for (let i = 0; i < s.runs; i++) {
          const t0 = now();
          try {
            const r = await lighthouseRun(`${ferry.baseUrl}${page.path}`, s.chromium);
            page.lighthouse.runs.push(r);
            const scriptBytes = r.scripts.reduce((sum, x) => sum + x.transferSize, 0);
            log(
              `  Lighthouse ${page.label} run ${i + 1}: ${r.score}  FCP ${ms(r.fcpMs)}  LCP ${ms(r.lcpMs)}  ` +
                `TBT ${ms(r.tbtMs)}  CLS ${r.cls?.toFixed(3)}  SI ${ms(r.speedIndexMs)}  ` +
                `(${((now() - t0) / 1000).toFixed(0)} s; benchmark index ${r.benchmarkIndex}; its load took ` +
                `${r.scripts.length} scripts, ${kb(scriptBytes)} as sent)`,
            );
            for (const w of r.warnings) log(`    warning: ${w}`);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            page.lighthouse.errors.push(message);
            log(`  Lighthouse ${page.label} run ${i + 1} failed: ${message}`);
          }
        }
        const scores = page.lighthouse.runs.map((r) => r.score);
        page.lighthouse.median = scores.length > 0 ? median(scores) : null;
        page.lighthouse.benchmarkIndex = median(
          page.lighthouse.runs.map((r) => r.benchmarkIndex ?? Number.NaN),
        );
        const last = page.lighthouse.runs.at(-1);
        if (last) {
          log(`  ${page.label}: median ${page.lighthouse.median}; LCP element: ${last.lcpElement ?? '—'}`);
          if (page.lighthouse.median !== null && page.lighthouse.median < WEB_SCORE_TARGET) {
            log(`    main-thread work (simulated ms): ${JSON.stringify(last.mainThread)}`);
            log(
              `    long tasks: ${last.longTasks.map((t) => `${t.url.replace(ferry.baseUrl, '')} ${t.ms} ms`).join(', ')}`,
            );
            for (const a of last.failing) log(`    ${a.id}: ${a.displayValue || `score ${a.score}`}`);
          }
        }
      }
    }

    out.machine = otherProcessesShare(start, cpus);
    log(
      `web: other processes used ${(out.machine.share * 100).toFixed(0)}% of the machine's CPU during the section ` +
        `(${out.machine.seconds.toFixed(0)} CPU-s in ${out.machine.wallS.toFixed(0)} s on ${cpus} CPUs)`,
    );
    if (pages.some((p) => p.lighthouse?.benchmarkIndex < 1000))
      log(
        '  ! a benchmark index under 1000 means the CPU was slow or shared while Lighthouse ran: its simulated ' +
          'timings scale with the host, so scores are lower than on a quiet machine',
      );
  },

  rows(ctx) {
    const d = ctx.results.web;
    if (!d) return [];
    /** @type {import('./index.mjs').Row[]} */
    const rows = [];
    for (const page of d.pages) {
      rows.push({
        measure: `web: JavaScript of ${page.label}, all it loads (gzip)`,
        unit: 'KB',
        baseline: null,
        ferry: page.js ? page.js.gzipBytes : `error: ${String(page.error ?? 'not measured').slice(0, 60)}`,
        ferryNote: page.js ? `(${page.js.scripts.length} files)` : '',
        ratio: false,
        target: { atMost: page.target },
      });
    }
    for (const page of d.pages) {
      const lh = page.lighthouse;
      if (!lh) continue;
      const n = lh.runs.length + lh.errors.length;
      const scores = lh.runs.map((r) => r.score);
      rows.push({
        measure: `web: Lighthouse mobile performance, ${page.label}`,
        unit: 'score',
        baseline: null,
        ferry: lh.median ?? `error: ${(lh.errors[0] ?? 'no run').slice(0, 60)}`,
        ferryNote:
          lh.median === null
            ? ''
            : `(median of ${lh.runs.length}: ${scores.join(' / ')}` +
              `${lh.errors.length > 0 ? `; ${lh.errors.length} of ${n} runs failed` : ''}` +
              `; host index ${Number.isFinite(lh.benchmarkIndex) ? lh.benchmarkIndex.toFixed(0) : '?'})`,
        ratio: false,
        target: { atLeast: WEB_SCORE_TARGET },
      });
    }
    if (d.machine)
      rows.push({
        measure: 'web: CPU used by other processes meanwhile',
        unit: 'text',
        baseline: null,
        ferry: `${(d.machine.share * 100).toFixed(0)} %`,
        ratio: false,
      });
    return rows;
  },
};
