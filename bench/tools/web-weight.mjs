#!/usr/bin/env node
// What a signed-out visitor's browser loads for one page of the built web app: every JavaScript file it requests
// while the page loads (lazy chunks included), their bytes raw / gzip (as the server sends them to a browser that
// accepts gzip), the bytes that actually crossed the wire (Chromium takes brotli), and the first contentful paint.
//   npm run build && node bench/tools/web-weight.mjs [path=/] [--download] [--slow]
// --download: creates a finished one-file transfer through the API and measures its download page /dl/{id} (the
// page a recipient opens; an unknown id would show the not-found page). --slow: Chrome DevTools' "Slow 4G".
// Starts apps/server/dist/main.js (embedded default, own DATA_DIR) and Debian's chromium via playwright-core.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { jsonAgent } from '../lib/http-client.mjs';
import { createDownloadPage, pageJavaScript } from '../lib/web-page.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const slow = args.includes('--slow');
const download = args.includes('--download');

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-weight-'));
// the embedded PostgreSQL runs as the postgres system user when we are root: it must reach DATA_DIR
await fs.chmod(dataDir, 0o755);
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
  },
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
  const pagePath = download
    ? (await createDownloadPage(base)).path
    : (args.find((a) => a.startsWith('/')) ?? '/');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  const page = await pageJavaScript(browser, `${base}${pagePath}`, { slow }).finally(() => browser.close());

  console.log(`${'file'.padEnd(60)} ${'raw'.padStart(8)} ${'gzip'.padStart(8)}  wire`);
  for (const s of page.scripts)
    console.log(
      `${s.path.padEnd(60)} ${String(s.raw).padStart(8)} ${String(s.gzip).padStart(8)}  ${s.wire} ${s.encoding}`,
    );
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  console.log(
    `${pagePath} (HTTP ${page.status}, h1 "${page.heading ?? ''}"): ${page.scripts.length} JS files, raw ${kb(page.rawBytes)}, ` +
      `gzip ${kb(page.gzipBytes)}, on the wire ${kb(page.wireBytes)}, first contentful paint ${Math.round(page.fcpMs)} ms` +
      `${slow ? ' (Slow 4G)' : ''}`,
  );
} finally {
  jsonAgent.destroy();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await fs.rm(dataDir, { recursive: true, force: true });
}
