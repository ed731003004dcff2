import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestFerry, type TestFerry } from '../test/harness.js';

describe('serving the web app', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    const web = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-'));
    await fs.mkdir(path.join(web, 'assets'));
    await fs.writeFile(path.join(web, 'index.html'), '<!doctype html><title>Ferry</title>');
    await fs.writeFile(path.join(web, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
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
    ]) {
      const res = await fetch(`${ferry.baseUrl}${route}`);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<title>Ferry</title>');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const asset = await fetch(`${ferry.baseUrl}/assets/app-1a2b3c.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
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
