// What a signed-out visitor's browser loads for one page of the web app, measured in a real browser: every
// JavaScript file the page requests while it loads (the entry, its modulepreloads, the route chunks and anything
// imported lazily before the network goes quiet, workers included), and the bytes of each when sent with gzip.
// Shared by bench/sections/web.mjs and bench/tools/web-weight.mjs.
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { completeTransfer, createTransfer, tusCreate } from './ferry-client.mjs';
import { request } from './http-client.mjs';

/**
 * A finished transfer of one small file, as a sender leaves it: its download page `/dl/{id}` is what a recipient
 * opens (an unknown id would show the not-found page instead).
 * @param {string} baseUrl
 * @returns {Promise<{ transferId: string, path: string }>}
 */
export async function createDownloadPage(baseUrl) {
  const body = Buffer.from('Ferry page-weight bench\n');
  const transfer = await createTransfer(baseUrl, [{ name: 'report.txt', size: body.length }]);
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
  if (patched.status !== 204) throw new Error(`upload: PATCH answered ${patched.status} ${patched.body}`);
  await completeTransfer(baseUrl, transfer, [{ id: fileId }]);
  return { transferId: transfer.transferId, path: `/dl/${transfer.transferId}` };
}

/**
 * GET with `Accept-Encoding: gzip`, the body as it came over the wire.
 * @param {string} url
 * @returns {Promise<{ status: number, encoding: string, body: Buffer }>}
 */
function getGzip(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} in 30 s`)));
    req.on('error', reject);
  });
}

/**
 * A script's bytes as a browser that accepts only gzip receives them: the server's gzip copy when it sends one
 * (the build's precompressed `.gz`, level 9), else the file gzipped here at level 6 (zlib's default). `raw` is the
 * decoded size.
 * @param {string} url
 */
export async function gzipSizeOf(url) {
  const res = await getGzip(url);
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  if (res.encoding === 'gzip')
    return { raw: gunzipSync(res.body).length, gzip: res.body.length, sent: 'gzip' };
  if (res.encoding !== 'identity') throw new Error(`${url}: unexpected content-encoding ${res.encoding}`);
  return { raw: res.body.length, gzip: gzipSync(res.body).length, sent: 'identity' };
}

/**
 * Opens `url` in a fresh browser context (no cookies: a signed-out visitor) and lists every JavaScript file it
 * requests until the page is drawn and the network has been quiet (Playwright's `networkidle`: no request for
 * 500 ms) — the lazy chunks a page imports while it loads are counted, the ones a later click would import are
 * not. A script from another origin is an error (it would not be measured). Chromium's own wire bytes (brotli
 * when the server has it) are kept beside.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{ slow?: boolean }} [options] `slow`: Chrome DevTools' "Slow 4G" (for the first contentful paint)
 */
export async function loadPage(browser, url, { slow = false } = {}) {
  const origin = new URL(url).origin;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (slow) {
      // Chrome DevTools' "Slow 4G" preset: 400 ms latency, 1.6 Mbit/s down, 750 kbit/s up.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 400,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
    }
    /** @type {Promise<{ url: string, wire: number, encoding: string }>[]} */
    const pending = [];
    /** @type {string[]} */
    const foreign = [];
    context.on('response', (res) => {
      const type = res.request().resourceType();
      const path = new URL(res.url()).pathname;
      if (type !== 'script' && !path.endsWith('.js') && !path.endsWith('.mjs')) return;
      if (new URL(res.url()).origin !== origin) {
        foreign.push(res.url());
        return;
      }
      pending.push(
        Promise.all([res.request().sizes(), res.headerValue('content-encoding')]).then(([sizes, enc]) => ({
          url: res.url(),
          wire: sizes.responseBodySize,
          encoding: enc ?? 'identity',
        })),
      );
    });
    const response = await page.goto(url, { waitUntil: 'networkidle' });
    const status = response?.status() ?? 0;
    // A quiet moment of the network can come before the page is drawn: wait for the paint, then for quiet again.
    const fcpMs = await page
      .waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime, null, {
        timeout: 60_000,
      })
      .then((handle) => /** @type {Promise<number>} */ (handle.jsonValue()));
    await page.waitForLoadState('networkidle');
    const title = await page.title();
    const heading = await page
      .locator('h1')
      .first()
      .textContent({ timeout: 5_000 })
      .catch(() => null);
    const loaded = await Promise.all(pending);
    if (foreign.length > 0)
      throw new Error(`scripts from another origin, not measured: ${foreign.join(', ')}`);
    // one entry per URL (a worker's script may be answered twice)
    const byUrl = new Map(loaded.map((s) => [s.url, s]));
    return { status, fcpMs, title, heading: heading?.trim() ?? null, scripts: [...byUrl.values()] };
  } finally {
    await context.close();
  }
}

/**
 * A page's JavaScript: every file `loadPage` saw, with its gzip bytes (`gzipSizeOf`); sorted largest first.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{ slow?: boolean }} [options]
 */
export async function pageJavaScript(browser, url, options) {
  const page = await loadPage(browser, url, options);
  // one file after the other (dozens at once can find a socket the server is closing), each tried twice
  const scripts = [];
  for (const s of page.scripts) {
    const size = await gzipSizeOf(s.url).catch(() => gzipSizeOf(s.url));
    scripts.push({ ...s, path: new URL(s.url).pathname, ...size });
  }
  scripts.sort((a, b) => b.gzip - a.gzip || a.path.localeCompare(b.path));
  const sum = (key) => scripts.reduce((total, s) => total + s[key], 0);
  return {
    ...page,
    scripts,
    rawBytes: sum('raw'),
    gzipBytes: sum('gzip'),
    wireBytes: sum('wire'),
  };
}
