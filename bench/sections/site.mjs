// Section "site": what the public site (apps/server/src/site, the pages of core's SITE_PAGES) costs a visitor.
// 1. Crawls every site page in a few languages, as a browser would ask for it (Accept-Encoding: gzip), and adds up
//    per page the gzip bytes of every script the HTML loads (<script src>, <link rel="modulepreload">); the HTML's
//    own gzip bytes and its images' bytes are kept too. Target: ≤ 120 KB of JavaScript on every page.
// 2. Runs Lighthouse (npm `lighthouse`, default mobile settings: simulated throttling, a Moto G Power-sized
//    screen) on the heaviest page (HTML + images) and on /support, performance category only, BENCH_SITE_RUNS
//    times each with a fresh headless Chromium (Debian's, through chrome-launcher); the median score per page is
//    reported. Target: ≥ 95. A run that fails is an error in the table, never the end of the bench.
// Env: BENCH_SITE_LANGS (en,fr,ar,jp), BENCH_SITE_RUNS (3), BENCH_SITE_PAGES (paths for Lighthouse, comma-separated;
// default: the heaviest English page and /support), BENCH_SITE_LIGHTHOUSE (0 skips Lighthouse), CHROMIUM_PATH
// (/usr/bin/chromium).
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { onCleanup } from '../lib/cleanup.mjs';
import { envInt, log, median, now } from '../lib/util.mjs';

export const SITE_JS_TARGET_BYTES = 120e3;
export const SITE_SCORE_TARGET = 95;
/** Lighthouse's own limit for one page is 45 s of loading; this covers launch, loading and scoring. */
const LIGHTHOUSE_RUN_TIMEOUT_MS = 180_000;

function settings() {
  const lighthousePages = (process.env.BENCH_SITE_PAGES ?? '').split(',').filter(Boolean);
  return {
    languages: (process.env.BENCH_SITE_LANGS ?? 'en,fr,ar,jp').split(',').filter(Boolean),
    runs: envInt('BENCH_SITE_RUNS', 3),
    lighthouse: process.env.BENCH_SITE_LIGHTHOUSE !== '0',
    lighthousePages,
    chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  };
}

/**
 * One GET, the body as it came over the wire (not decoded).
 * @param {string} url
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }>}
 */
function getRaw(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} in 30 s`)));
    req.on('error', reject);
  });
}

/**
 * A resource's size as a browser receives it with gzip: the bytes on the wire when the server compressed it,
 * else the body gzipped here (level 6, zlib's default and what servers commonly use). Images are sent as they are.
 * @param {{ headers: import('node:http').IncomingHttpHeaders, body: Buffer }} res
 */
function sizes(res) {
  const encoding = String(res.headers['content-encoding'] ?? 'identity');
  if (encoding === 'gzip') {
    const raw = gunzipSync(res.body);
    return { raw, rawBytes: raw.length, gzipBytes: res.body.length, wireBytes: res.body.length, encoding };
  }
  if (encoding !== 'identity') throw new Error(`unexpected content-encoding ${encoding}`);
  return {
    raw: res.body,
    rawBytes: res.body.length,
    gzipBytes: gzipSync(res.body).length,
    wireBytes: res.body.length,
    encoding,
  };
}

/** @param {string} html @param {RegExp} pattern the URL in group 1 */
function urlsIn(html, pattern) {
  return [...html.matchAll(pattern)].map((m) => m[1].replace(/&amp;/g, '&'));
}
const SCRIPT_SRC = /<script\b[^>]*?\bsrc\s*=\s*["']([^"']+)["'][^>]*>/gi;
const MODULE_PRELOAD =
  /<link\b(?=[^>]*\brel\s*=\s*["']?modulepreload\b)[^>]*?\bhref\s*=\s*["']([^"']+)["'][^>]*>/gi;
const STYLESHEET = /<link\b(?=[^>]*\brel\s*=\s*["']?stylesheet\b)[^>]*?\bhref\s*=\s*["']([^"']+)["'][^>]*>/gi;
const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["'][^>]*>/gi;

/** Fetches each URL once for the whole crawl (the site's script and screenshots are shared by many pages). */
function resourceCache() {
  /** @type {Map<string, Promise<{ gzipBytes: number, wireBytes: number, encoding: string }>>} */
  const cache = new Map();
  /** @param {string} url */
  return (url) => {
    let entry = cache.get(url);
    if (!entry) {
      entry = getRaw(url).then((res) => {
        if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
        const { gzipBytes, wireBytes, encoding } = sizes(res);
        return { gzipBytes, wireBytes, encoding };
      });
      cache.set(url, entry);
    }
    return entry;
  };
}

/** `/about` in a language: English at the bare path, every other language under its code. */
const localized = (path, lang) => (lang === 'en' ? path : `/${lang}${path}`);

/**
 * @param {string} baseUrl
 * @param {readonly string[]} pages
 * @param {string[]} languages
 */
async function crawl(baseUrl, pages, languages) {
  const fetchResource = resourceCache();
  const origin = new URL(baseUrl).origin;
  const results = [];
  for (const lang of languages) {
    for (const path of pages) {
      const url = `${baseUrl}${localized(path, lang)}`;
      /** @type {any} */
      const page = { lang, path: localized(path, lang), url };
      try {
        const res = await getRaw(url);
        page.status = res.status;
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        const html = sizes(res);
        const text = html.raw.toString('utf8');
        page.htmlEncoding = html.encoding;
        page.htmlBytes = html.rawBytes;
        page.htmlGzipBytes = html.gzipBytes;
        const resolve = (src) => new URL(src, url).href;
        const scripts = [
          ...new Set([...urlsIn(text, SCRIPT_SRC), ...urlsIn(text, MODULE_PRELOAD)].map(resolve)),
        ];
        const styles = [...new Set(urlsIn(text, STYLESHEET).map(resolve))];
        const images = [...new Set(urlsIn(text, IMG_SRC).map(resolve))];
        const foreign = [...scripts, ...styles, ...images].filter((u) => new URL(u).origin !== origin);
        if (foreign.length > 0)
          throw new Error(`loads from another origin, not measured: ${foreign.join(', ')}`);
        page.scripts = [];
        for (const src of scripts) page.scripts.push({ url: src, ...(await fetchResource(src)) });
        page.jsGzipBytes = page.scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
        let cssBytes = 0;
        for (const href of styles) cssBytes += (await fetchResource(href)).gzipBytes;
        page.cssGzipBytes = cssBytes;
        let imageBytes = 0;
        for (const src of images) imageBytes += (await fetchResource(src)).wireBytes;
        page.images = images.length;
        page.imageBytes = imageBytes;
      } catch (error) {
        page.error = error instanceof Error ? error.message : String(error);
      }
      results.push(page);
    }
  }
  return results;
}

/**
 * The page's largest contentful paint as Chromium traced it: the element's name, whether text or an image (which
 * one, lazy or not). Read from the trace because Lighthouse's own audit of it can fail on a newer Chromium.
 * @param {any} artifacts
 */
function lcpFromTrace(artifacts) {
  const events = artifacts?.Trace?.traceEvents ?? [];
  const last = events
    .filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.args?.data?.isOutermostMainFrame)
    .at(-1)?.args.data;
  if (!last) return null;
  if (last.type !== 'image') return `${last.nodeName} (text)`;
  const image = events.find(
    (e) => e.name === 'LargestImagePaint::Candidate' && e.args?.data?.DOMNodeId === last.nodeId,
  )?.args.data;
  const where = image?.imageUrl ? new URL(image.imageUrl).pathname : 'image';
  return `${last.nodeName} (${where}${last.loadingAttr ? `, loading=${last.loadingAttr}` : ''})`;
}

/**
 * The metrics and the audits that explain a score, from one Lighthouse result.
 * @param {any} lhr @param {any} artifacts
 */
function summary(lhr, artifacts) {
  const audit = (id) => lhr.audits[id];
  const value = (id) => audit(id)?.numericValue ?? null;
  // Opportunities and diagnostics that did not pass, with what they would save: what to change when a page is slow
  const failing = Object.values(lhr.audits)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 0.9 &&
        (a.scoreDisplayMode === 'metricSavings' ||
          a.scoreDisplayMode === 'numeric' ||
          a.scoreDisplayMode === 'binary'),
    )
    .map((a) => ({ id: a.id, score: a.score, displayValue: a.displayValue ?? '' }));
  // Audits Lighthouse could not compute (e.g. parts of a newer Chromium's trace it does not read): not in the score
  const errors = Object.values(lhr.audits)
    .filter((a) => a.scoreDisplayMode === 'error')
    .map((a) => `${a.id}: ${a.errorMessage ?? 'error'}`);
  return {
    score:
      lhr.categories.performance.score === null ? null : Math.round(lhr.categories.performance.score * 100),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    speedIndexMs: value('speed-index'),
    lcpElement: lcpFromTrace(artifacts),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    warnings: lhr.runWarnings ?? [],
    failing,
    errors,
    longTasks: (audit('long-tasks')?.details?.items ?? []).map((t) => ({
      url: t.url,
      ms: Math.round(t.duration),
    })),
    // the scripts the page requested in this load (bytes as Chromium received them): the `web` section compares
    // them with its own count
    scripts: (audit('network-requests')?.details?.items ?? [])
      .filter((r) => r.resourceType === 'Script')
      .map((r) => ({ url: r.url, transferSize: r.transferSize ?? 0 })),
    mainThread: Object.fromEntries(
      (audit('mainthread-work-breakdown')?.details?.items ?? []).map((i) => [
        i.group,
        Math.round(i.duration),
      ]),
    ),
  };
}

/**
 * Rejects after `ms` (the run is abandoned; its Chromium is killed by the caller).
 * @template T @param {Promise<T>} promise @param {number} ms @param {string} what
 */
function withTimeout(promise, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One Lighthouse run in a fresh Chromium: default (mobile) settings, performance only. Also used by the `web`
 * section (the web app's pages).
 * @param {string} url
 * @param {string} chromePath
 */
export async function lighthouseRun(url, chromePath) {
  // chrome-launcher does not catch a failed spawn (the process would die of it): look first
  await access(chromePath, constants.X_OK).catch(() => {
    throw new Error(`no Chromium at ${chromePath} (set CHROMIUM_PATH)`);
  });
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
  ]);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    logLevel: 'silent',
  });
  const kill = onCleanup(
    `stop Chromium ${chrome.pid}`,
    async () => {
      await chrome.kill();
    },
    () => {
      try {
        process.kill(chrome.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    },
  );
  try {
    const result = await withTimeout(
      lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      }),
      LIGHTHOUSE_RUN_TIMEOUT_MS,
      'Lighthouse',
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error('Lighthouse returned no result');
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const s = summary(lhr, result.artifacts);
    if (s.score === null) throw new Error('no performance score (an audit failed)');
    return s;
  } finally {
    await kill();
  }
}

const ms = (v) => (v === null ? '—' : `${Math.round(v)} ms`);
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/** @param {any[]} list @param {string} key */
function largest(list, key) {
  return list.reduce((best, p) => (best === null || p[key] > best[key] ? p : best), null);
}

/** @type {import('./index.mjs').Section} */
export const site = {
  id: 'site',
  title: 'Public site: JavaScript per page and Lighthouse',

  async run(ctx, servers) {
    const ferry = servers.ferry;
    if (!ferry) return;
    const s = settings();
    const { SITE_PAGES } = await import('@ferry/core');
    let t0 = now();
    const pages = await crawl(ferry.baseUrl, SITE_PAGES, s.languages);
    const ok = pages.filter((p) => !p.error);
    log(
      `site: ${ok.length} of ${pages.length} pages fetched (${SITE_PAGES.length} pages × ${s.languages.join(', ')}) in ` +
        `${((now() - t0) / 1000).toFixed(1)} s`,
    );
    for (const p of pages.filter((p) => p.error)) log(`  ${p.path}: ${p.error}`);
    const js = largest(ok, 'jsGzipBytes');
    const html = largest(ok, 'htmlGzipBytes');
    const heaviest = largest(
      ok
        .filter((p) => p.lang === s.languages[0])
        .map((p) => ({ ...p, weight: p.htmlGzipBytes + p.imageBytes })),
      'weight',
    );
    const same = js !== null && ok.every((p) => p.jsGzipBytes === js.jsGzipBytes);
    if (js) {
      log(
        `  most JavaScript: ${same ? `every page alike (${js.path} first)` : js.path}, ${kb(js.jsGzipBytes)} gzip ` +
          `in ${js.scripts.length} file(s)`,
      );
      for (const script of js.scripts)
        log(
          `    ${new URL(script.url).pathname}: ${kb(script.gzipBytes)} gzip, sent ${
            script.encoding === 'identity'
              ? `uncompressed (${kb(script.wireBytes)})`
              : `as ${script.encoding}`
          }`,
        );
    }
    if (html) log(`  largest HTML: ${html.path}, ${kb(html.htmlGzipBytes)} gzip (${kb(html.htmlBytes)} raw)`);
    if (heaviest)
      log(
        `  heaviest page: ${heaviest.path}, HTML ${kb(heaviest.htmlGzipBytes)} gzip + ${heaviest.images} images ` +
          `${kb(heaviest.imageBytes)}`,
      );

    const out = {
      settings: s,
      pages,
      largestJs: js && { path: js.path, bytes: js.jsGzipBytes, scripts: js.scripts, everyPageAlike: same },
      largestHtml: html && { path: html.path, gzipBytes: html.htmlGzipBytes, bytes: html.htmlBytes },
      heaviest: heaviest && {
        path: heaviest.path,
        htmlGzipBytes: heaviest.htmlGzipBytes,
        imageBytes: heaviest.imageBytes,
      },
      lighthouse: /** @type {any[]} */ ([]),
    };
    ctx.results.site = out;
    if (!s.lighthouse) return;

    const targets = s.lighthousePages.length > 0 ? s.lighthousePages : [heaviest?.path ?? '/', '/support'];
    for (const path of [...new Set(targets)]) {
      const url = `${ferry.baseUrl}${path}`;
      const entry = { path, runs: /** @type {any[]} */ ([]), errors: /** @type {string[]} */ ([]) };
      for (let i = 0; i < s.runs; i++) {
        t0 = now();
        try {
          const r = await lighthouseRun(url, s.chromium);
          entry.runs.push(r);
          log(
            `  Lighthouse ${path} run ${i + 1}: ${r.score}  FCP ${ms(r.fcpMs)}  LCP ${ms(r.lcpMs)}  TBT ${ms(r.tbtMs)}  ` +
              `CLS ${r.cls?.toFixed(3)}  SI ${ms(r.speedIndexMs)}  (${((now() - t0) / 1000).toFixed(0)} s; ` +
              `benchmark index ${r.benchmarkIndex})`,
          );
          for (const w of r.warnings) log(`    warning: ${w}`);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          entry.errors.push(message);
          log(`  Lighthouse ${path} run ${i + 1} failed: ${message}`);
        }
      }
      const scores = entry.runs.map((r) => r.score);
      entry.median = scores.length > 0 ? median(scores) : null;
      entry.benchmarkIndex = median(entry.runs.map((r) => r.benchmarkIndex ?? Number.NaN));
      const last = entry.runs.at(-1);
      if (last) {
        log(`  ${path}: median ${entry.median}; LCP element: ${last.lcpElement ?? '—'}`);
        if (entry.median !== null && entry.median < SITE_SCORE_TARGET) {
          log(`    main-thread work (simulated ms): ${JSON.stringify(last.mainThread)}`);
          log(
            `    long tasks: ${last.longTasks.map((t) => `${t.url.replace(ferry.baseUrl, '')} ${t.ms} ms`).join(', ')}`,
          );
          for (const a of last.failing) log(`    ${a.id}: ${a.displayValue || `score ${a.score}`}`);
        }
      }
      out.lighthouse.push(entry);
    }
    const auditErrors = [...new Set(out.lighthouse.flatMap((e) => e.runs.flatMap((r) => r.errors)))];
    if (auditErrors.length > 0)
      log(
        `  audits Lighthouse could not run here (not part of the score): ${auditErrors.map((e) => e.split(':')[0]).join(', ')}`,
      );
    const slow = out.lighthouse.filter((e) => e.benchmarkIndex < 1000);
    if (slow.length > 0)
      log(
        '  ! a benchmark index under 1000 means the CPU was slow or shared while Lighthouse ran: its simulated ' +
          'timings scale with the host, so scores are lower than on a quiet machine',
      );
  },

  rows(ctx) {
    const d = ctx.results.site;
    if (!d) return [];
    const failed = d.pages.filter((p) => p.error).length;
    /** @type {import('./index.mjs').Row[]} */
    const rows = [
      {
        measure: `site pages fetched (${d.settings.languages.join(', ')})`,
        unit: 'text',
        baseline: null,
        ferry: `${d.pages.length - failed} of ${d.pages.length}`,
        ratio: false,
      },
      {
        measure: 'site: JavaScript of the page that loads most (gzip)',
        unit: 'KB',
        baseline: null,
        ferry: d.largestJs?.bytes ?? null,
        ferryNote: d.largestJs
          ? `(${d.largestJs.everyPageAlike ? 'every page alike' : d.largestJs.path})`
          : '',
        ratio: false,
        target: { atMost: SITE_JS_TARGET_BYTES },
      },
      {
        measure: 'site: largest HTML (gzip)',
        unit: 'KB',
        baseline: null,
        ferry: d.largestHtml?.gzipBytes ?? null,
        ferryNote: d.largestHtml ? `(${d.largestHtml.path})` : '',
        ratio: false,
      },
    ];
    for (const entry of d.lighthouse) {
      const n = entry.runs.length + entry.errors.length;
      rows.push({
        measure: `site: Lighthouse mobile performance, ${entry.path}`,
        unit: 'score',
        baseline: null,
        ferry: entry.median ?? `error: ${(entry.errors[0] ?? 'no run').slice(0, 60)}`,
        ferryNote:
          entry.median === null
            ? ''
            : `(median of ${entry.runs.length}${entry.errors.length > 0 ? `; ${entry.errors.length} of ${n} runs failed` : ''}` +
              `; host index ${Number.isFinite(entry.benchmarkIndex) ? entry.benchmarkIndex.toFixed(0) : '?'})`,
        ratio: false,
        target: { atLeast: SITE_SCORE_TARGET },
      });
    }
    return rows;
  },
};
