import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestFerry, type TestFerry } from '../test/harness.js';

/** A GET whose body is read as sent (fetch would decode it), with the headers given. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** What the web build writes (apps/web/build/precompress.ts): the file, and its .br and .gz beside it. */
async function writeWithCompressed(file: string, body: string): Promise<void> {
  await fs.writeFile(file, body);
  await fs.writeFile(`${file}.br`, zlib.brotliCompressSync(body));
  await fs.writeFile(`${file}.gz`, zlib.gzipSync(body));
}

const SCRIPT = `export const words = ${JSON.stringify('ferry '.repeat(400))};\n`;

describe('serving the web app', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    const web = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-'));
    await fs.mkdir(path.join(web, 'assets'));
    await writeWithCompressed(
      path.join(web, 'index.html'),
      `<!doctype html><html lang="en"><head><title>Ferry</title></head><body><div id="root"></div><!--${'x'.repeat(300)}--></body></html>`,
    );
    await fs.writeFile(path.join(web, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    await writeWithCompressed(path.join(web, 'assets', 'page-4d5e6f.js'), SCRIPT);
    ferry = await startTestFerry({ env: { WEB_DIST: web } });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  it('answers every route of the app with index.html under a strict CSP, and hashed assets with a long cache', async () => {
    for (const route of [
      '/',
      '/dl/AbCdEfGhIjKlMnOp',
      '/dl/AbCdEfGhIjKlMnOp/FILE01',
      '/d/expired',
      '/d/notfound',
      '/request-files',
      '/r/req-1',
      '/signin',
      '/dashboard/transfers/tr-1',
      '/dashboard/admin/users',
      '/account/security',
    ]) {
      const res = await fetch(`${ferry.baseUrl}${route}`);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toMatch(/<title>[^<]*Ferry<\/title>/);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    // The widget page too (framable, so its CSP differs: receive.int.test.ts).
    expect((await fetch(`${ferry.baseUrl}/widgets/wid-1`)).status).toBe(200);
    // Every page in every other language, under its locale prefix (English is at the bare paths).
    for (const route of [
      '/fr',
      '/fr/',
      '/fr/prices',
      '/jp/dl/AbCdEfGhIjKlMnOp',
      '/ccs/prices?plan=team',
      '/ar/dashboard/admin/users',
      '/KR/signin',
      '/zh/r/req-1',
    ]) {
      const res = await fetch(`${ferry.baseUrl}${route}`);
      expect(res.status, route).toBe(200);
      expect(await res.text()).toMatch(/<title>[^<]*Ferry<\/title>/);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const asset = await fetch(`${ferry.baseUrl}/assets/app-1a2b3c.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('answers a path that is no page of the app with 404, and the app (which shows its not-found page)', async () => {
    for (const route of [
      '/no-such-page',
      '/dl',
      '/dl/AbCdEfGhIjKlMnOp/FILE01/extra',
      '/dashboard/nothing-here',
      '/account/nothing',
      '/assets/missing-000000.js',
      '/en/prices',
      '/en',
      '/fr/no-such-page',
      '/fr/fr/prices',
      '/cs/prices',
      '/jp/dl',
    ]) {
      const res = await fetch(`${ferry.baseUrl}${route}?x=1`);
      expect(res.status, route).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toMatch(/<title>[^<]*Ferry<\/title>/);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const head = await fetch(`${ferry.baseUrl}/no-such-page`, { method: 'HEAD' });
    expect(head.status).toBe(404);
  });

  it('sends the brotli or gzip copy made at build when the client accepts it, else the file itself', async () => {
    const url = `${ferry.baseUrl}/assets/page-4d5e6f.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(br.headers['cache-control']).toContain('immutable');

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(SCRIPT);
    expect(gz.headers['content-type']).toMatch(/^(text|application)\/javascript/);

    const plain = await rawGet(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(plain.headers.vary?.toLowerCase()).toContain('accept-encoding');

    // The page itself, for an app route and for an unknown path alike.
    for (const [route, status] of [
      ['/dl/AbCdEfGhIjKlMnOp', 200],
      ['/no-such-page', 404],
    ] as const) {
      const page = await rawGet(`${ferry.baseUrl}${route}`, { 'accept-encoding': 'br' });
      expect(page.status, route).toBe(status);
      expect(page.headers['content-encoding'], route).toBe('br');
      expect(page.headers['content-type'], route).toContain('text/html');
      expect(page.headers['cache-control'], route).toBe('no-cache');
      expect(zlib.brotliDecompressSync(page.body).toString(), route).toMatch(/<title>[^<]*Ferry<\/title>/);
    }
  });

  it('keeps /api for the API: unknown API paths answer a JSON 404, never the app', async () => {
    const res = await fetch(`${ferry.baseUrl}/api/no-such-thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404, error: 'Not Found', codes: ['NOT_FOUND'] });
  });

  it('serves the OpenAPI document of the routes at /api/docs', async () => {
    const res = await fetch(`${ferry.baseUrl}/api/docs/json`);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/transfer/transfers',
        '/api/transfer/downloads/link',
        '/api/transfer/downloads/check-password',
        '/api/health',
      ]),
    );
  });
});
