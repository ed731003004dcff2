#!/usr/bin/env node
// What a signed-out visitor's browser loads for one page of the built web app: the JavaScript files, their bytes
// raw / gzip / brotli (compressed here at the highest levels, whatever the server sent), the bytes that actually
// crossed the wire, and the first contentful paint on an emulated slow link.
//   npm run build && node bench/tools/web-weight.mjs [path=/] [--slow]
// Starts apps/server/dist/main.js (embedded default, own DATA_DIR) and Debian's chromium via playwright-core.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const webDist = path.join(root, 'apps/web/dist');
const args = process.argv.slice(2);
const slow = args.includes('--slow');
const pagePath = args.find((a) => a.startsWith('/')) ?? '/';

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-weight-'));
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  const context = await browser.newContext();
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
  const scripts = [];
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (url.origin !== base || !url.pathname.endsWith('.js')) return;
    const sizes = await res.request().sizes();
    scripts.push({
      path: url.pathname,
      encoding: (await res.headerValue('content-encoding')) ?? 'identity',
      wire: sizes.responseBodySize,
    });
  });
  await page.goto(`${base}${pagePath}`, { waitUntil: 'networkidle' });
  // A quiet moment of the network can come before the page is drawn: wait for the paint, then for quiet again.
  const fcp = await page
    .waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime, null, {
      timeout: 60_000,
    })
    .then((handle) => handle.jsonValue());
  await page.waitForLoadState('networkidle');
  await browser.close();

  let raw = 0;
  let gz = 0;
  let br = 0;
  let wire = 0;
  for (const s of scripts.sort((a, b) => a.path.localeCompare(b.path))) {
    const body = readFileSync(path.join(webDist, s.path));
    s.raw = body.length;
    s.gzip = zlib.gzipSync(body, { level: 9 }).length;
    s.brotli = zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
    raw += s.raw;
    gz += s.gzip;
    br += s.brotli;
    wire += s.wire;
    console.log(
      `${s.path.padEnd(60)} ${String(s.raw).padStart(8)} ${String(s.gzip).padStart(8)} ${String(s.brotli).padStart(8)}  ${s.encoding} ${s.wire}`,
    );
  }
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  console.log(
    `${pagePath}: ${scripts.length} JS files, raw ${kb(raw)}, gzip ${kb(gz)}, brotli ${kb(br)}, on the wire ${kb(wire)}` +
      `, first contentful paint ${Math.round(fcp)} ms${slow ? ' (Slow 4G)' : ''}`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await fs.rm(dataDir, { recursive: true, force: true });
}
