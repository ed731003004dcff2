import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { LOCALES, PUBLIC_APP_PAGES, SITE_PAGES } from '@ferry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestFerry, type TestFerry } from '../test/harness.js';

/** A GET with the headers given (Host included, which fetch cannot set); the body decoded. */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const text = (
            encoding === 'br'
              ? zlib.brotliDecompressSync(body)
              : encoding === 'gzip'
                ? zlib.gunzipSync(body)
                : body
          ).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const INDEX =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="description" content="x" />' +
  '<title>Ferry</title></head><body><div id="root"></div></body></html>';

async function webDist(): Promise<string> {
  const web = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-'));
  await fs.writeFile(path.join(web, 'index.html'), INDEX);
  return web;
}

const ldOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );

describe('the public site on the embedded default', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry({ env: { WEB_DIST: await webDist() } });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  it('serves each site page as complete HTML: head lines, content, frame, compressed, under a CSP that allows only its own styles', async () => {
    const res = await get(`${ferry.baseUrl}/support`, { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.text;
    expect(html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
    expect(html).toMatch(/<title>[^<]+ · Ferry<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}">/);
    expect(html).toContain(`<link rel="canonical" href="${ferry.publicOrigin}/support">`);
    const alternates = [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)];
    expect(alternates.map((m) => m[1])).toContain('x-default');
    expect(alternates.find((m) => m[1] === 'ja')?.[2]).toBe(`${ferry.publicOrigin}/jp/support`);
    expect(alternates.find((m) => m[1] === 'x-default')?.[2]).toBe(`${ferry.publicOrigin}/support`);
    expect(html).toContain('<meta property="og:title"');
    // FAQPage structured data: one Question per question shown.
    const [faq] = ldOf(html);
    expect(faq['@type']).toBe('FAQPage');
    expect(faq.mainEntity.length).toBe([...html.matchAll(/<details><summary>/g)].length);
    expect(faq.mainEntity[0].acceptedAnswer.text.length).toBeGreaterThan(10);
    // The frame: skip link, menu, language switcher with every language, footer, the consent widget (hidden
    // until the script finds no choice).
    expect(html).toContain('<a class="skip-link" href="#main">');
    expect([...html.matchAll(/<li><a href="[^"]*" hreflang=/g)].length).toBeGreaterThanOrEqual(1);
    expect(html).toContain('id="ferry-consent"');
    // The inline styles are allowed by their hash only; scripts come from 'self'.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const script = /<script src="(\/site\/site\.[0-9a-f]{12}\.js)" defer>/.exec(html)![1]!;
    const js = await get(`${ferry.baseUrl}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.text).toContain('ferry_consent');
  });

  it('serves every site page at its bare path and under each language prefix; English never has one', async () => {
    for (const page of SITE_PAGES) {
      const res = await get(`${ferry.baseUrl}${page}`);
      expect(res.status, page).toBe(200);
      expect(res.text, page).toContain('<main id="main"');
    }
    expect((await get(`${ferry.baseUrl}/fr/about`)).status).toBe(200);
    expect((await get(`${ferry.baseUrl}/About/`)).status).toBe(200);
    for (const missing of ['/en/about', '/fr/fr/about', '/about/more', '/how-to/nothing', '/xx/about']) {
      expect((await get(`${ferry.baseUrl}${missing}`)).status, missing).toBe(404);
    }
  });

  it('gives the public app pages their title, description, canonical, alternates and words in the HTML; the home page its Organization', async () => {
    const home = (await get(`${ferry.baseUrl}/`)).text;
    expect(home).toMatch(/<title>[^<]+ · Ferry<\/title>/);
    expect(home).not.toContain('<title>Ferry</title>');
    expect(home).toContain(`<link rel="canonical" href="${ferry.publicOrigin}/">`);
    expect(home).toMatch(/<div id="root"><main class="prerendered"><h1>[^<]+<\/h1>/);
    const [org] = ldOf(home);
    expect(org).toMatchObject({ '@type': 'Organization', name: 'Ferry', url: `${ferry.publicOrigin}/` });
    const prices = (await get(`${ferry.baseUrl}/jp/prices`)).text;
    expect(prices).toContain(`<link rel="canonical" href="${ferry.publicOrigin}/jp/prices">`);
    // Every app page carries the consent widget, the site script and the app's settings; private ones stay
    // out of search engines.
    const dashboard = (await get(`${ferry.baseUrl}/dashboard/transfers`)).text;
    expect(dashboard).toContain('<meta name="robots" content="noindex">');
    // The upload widget is framed by other sites: none of ours inside it.
    const widget = (await get(`${ferry.baseUrl}/widgets/wid-1`)).text;
    expect(widget).not.toContain('ferry-consent');
    expect(widget).not.toContain('ferry-site-config');
    expect(dashboard).toContain('id="ferry-consent"');
    expect(dashboard).toMatch(/<script src="\/site\/site\.[0-9a-f]{12}\.js" defer>/);
    const config = JSON.parse(
      /<script id="ferry-site-config" type="application\/json">(.*?)<\/script>/.exec(dashboard)![1]!,
    );
    expect(config).toEqual({ madeInCountry: 'FR', mainDomain: true, ownHost: false, sessionCookie: false });
    // The consent widget speaks the visitor's language on a bare path, the URL's under a prefix.
    const german = (await get(`${ferry.baseUrl}/dashboard`, { 'accept-language': 'de-CH,de;q=0.9,en;q=0.5' }))
      .text;
    const english = (await get(`${ferry.baseUrl}/dashboard`)).text;
    const consentOf = (html: string) => /<section class="consent"[\s\S]*?<\/section>/.exec(html)![0];
    if (LOCALES.includes('de')) expect(consentOf(german)).not.toBe(consentOf(english));
    expect(dashboard).toMatch(/<html lang="en" dir="ltr">/);
    expect((await get(`${ferry.baseUrl}/ar/dashboard`)).text).toMatch(/<html lang="ar" dir="rtl">/);
  });

  it('lists every public page in every language in sitemap.xml, and points robots.txt at it', async () => {
    const sitemap = await get(`${ferry.baseUrl}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers['content-type']).toContain('application/xml');
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${ferry.publicOrigin}/about`);
    expect(locs).toContain(`${ferry.publicOrigin}/`);
    expect(new Set(locs).size).toBe(locs.length);
    const languages = new Set(
      [...sitemap.text.matchAll(/hreflang="([^"]+)"/g)].map((m) => m[1]).filter((l) => l !== 'x-default'),
    );
    expect(locs.length).toBe((SITE_PAGES.length + PUBLIC_APP_PAGES.length) * languages.size);
    const robots = await get(`${ferry.baseUrl}/robots.txt`);
    expect(robots.text).toContain(`Sitemap: ${ferry.publicOrigin}/sitemap.xml`);
    expect(robots.text).toContain('Disallow: /dashboard');
    expect(robots.text).toContain('Disallow: /api/');
    // X's card crawler obeys robots.txt: it may read download pages' link previews, and nothing else private.
    const twitter = robots.text.split('User-agent: Twitterbot')[1]!.split('Sitemap:')[0]!;
    expect(twitter).toContain('Allow: /dl/');
    expect(twitter).toContain('Allow: /de/dl/');
    expect(twitter).toContain('Disallow: /dashboard');
    expect(robots.text.split('User-agent: Twitterbot')[0]).toContain('Disallow: /dl/');
  });

  it('shows the "made in" banner to anonymous visitors, not to a signed-in session', async () => {
    const anonymous = (await get(`${ferry.baseUrl}/about`)).text;
    expect(anonymous).toContain('data-testid="made-in-banner"');
    expect(anonymous).toMatch(/<div class="made-in"[^>]*>[^<]*France<\/div>/);
    const signedIn = (await get(`${ferry.baseUrl}/about`, { cookie: 'ferry_session=abc' })).text;
    expect(signedIn).not.toContain('made-in-banner');
  });

  it('says on /legal that the operator has not filled in its identity', async () => {
    const legal = (await get(`${ferry.baseUrl}/legal`)).text;
    expect(legal).not.toContain('<dl class="operator">');
    expect(legal).toMatch(/<p class="note">[^<]+<\/p>/);
  });
});

describe('the public site of an operator who filled in its settings', () => {
  let ferry: TestFerry;
  const HOST = 'transfer.example.test';
  beforeAll(async () => {
    ferry = await startTestFerry({
      env: {
        WEB_DIST: await webDist(),
        PUBLIC_URL: `https://${HOST}`,
        MADE_IN_COUNTRY: 'de',
        ANALYTICS_SCRIPT_URL: 'https://stats.example.test/script.js',
        LEGAL_NAME: 'Example Transfer GmbH',
        LEGAL_ADDRESS: 'Hauptstraße 1\\n10115 Berlin',
        LEGAL_CONTACT: 'legal@example.test',
      },
    });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  it('uses PUBLIC_URL for every absolute link, whatever Host the request names', async () => {
    const html = (await get(`${ferry.baseUrl}/fr/features`, { host: 'evil.example' })).text;
    expect(html).toContain(`<link rel="canonical" href="https://${HOST}/fr/features">`);
    expect(html).not.toContain('evil.example');
    const sitemap = (await get(`${ferry.baseUrl}/sitemap.xml`, { host: 'evil.example' })).text;
    expect(sitemap).toContain(`<loc>https://${HOST}/about</loc>`);
    expect(sitemap).not.toContain('evil.example');
  });

  it('shows the banner with the configured country on the main domain only', async () => {
    const main = (await get(`${ferry.baseUrl}/about`, { host: HOST })).text;
    expect(main).toMatch(/<div class="made-in"[^>]*>[^<]*(Germany|Deutschland)<\/div>/);
    const other = (await get(`${ferry.baseUrl}/about`, { host: `team.${HOST}` })).text;
    expect(other).not.toContain('made-in-banner');
    const app = (await get(`${ferry.baseUrl}/`, { host: `team.${HOST}` })).text;
    expect(app).toContain('"mainDomain":false');
  });

  it('names the operator on /legal and in the Organization data', async () => {
    const legal = (await get(`${ferry.baseUrl}/legal`, { host: HOST })).text;
    expect(legal).toContain('<dd>Example Transfer GmbH</dd>');
    expect(legal).toContain('<dd>Hauptstraße 1\n10115 Berlin</dd>');
    const [org] = ldOf((await get(`${ferry.baseUrl}/`, { host: HOST })).text);
    expect(org).toMatchObject({ name: 'Example Transfer GmbH', email: 'legal@example.test' });
  });

  it('lets the audience script load only through the consent widget, and allows its origin in the CSP', async () => {
    const res = await get(`${ferry.baseUrl}/cookies`, { host: HOST });
    expect(res.text).toContain('data-analytics="https://stats.example.test/script.js"');
    expect(res.text).not.toContain('<script src="https://stats.example.test');
    expect(String(res.headers['content-security-policy'])).toMatch(
      /script-src [^;]*https:\/\/stats\.example\.test/,
    );
    expect(res.text).toContain('data-consent-status');
  });
});
