import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sendTransfer, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * Link previews of download pages (spec §3 open-graph customization) against a real Ferry over real HTTP: what a
 * crawler reads in the head of /dl/{id} without running any script, and the owner's choice from the dashboard.
 */
const ORIGIN = 'https://ferry.example';
const CRAWLER = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';
const HOSTILE = `"><script>alert(1)</script> 'quoted' & مرحبا بالعالم 🎉`;
const INDEX =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Ferry</title></head>' +
  '<body><div id="root"></div></body></html>';

let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let premium: Account;
let free: Account;
let other: Account;
let n = 0;

const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@og.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
const as = (who: Account | null, p: string, init: Parameters<typeof api>[2] = {}) =>
  api(ferry.baseUrl, p, { ...init, headers: { ...(who?.bearer ?? {}), ...(init.headers ?? {}) } });

/** The page as a crawler gets it: no script run, no cookie. */
async function crawl(pathname: string, language = 'en') {
  const res = await fetch(`${ferry.baseUrl}${pathname}`, {
    headers: { 'user-agent': CRAWLER, 'accept-language': language, host: 'evil.example' },
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The content of each <meta property|name=…> of the page, decoded as a crawler decodes it. */
function metaOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    out[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return out;
}

const small = (name: string) => ({ name, data: Buffer.from(`contents of ${name}`) });

beforeAll(async () => {
  sink = await startSmtpSink();
  const web = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-'));
  await fs.writeFile(path.join(web, 'index.html'), INDEX);
  ferry = await startTestFerry({ env: { WEB_DIST: web, SMTP_URL: sink.url, PUBLIC_URL: ORIGIN } });
  [premium, free, other] = [await account('pam'), await account('ann'), await account('eve')];
  await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
    premium.uid,
  ]);
});

afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('the head of a download page', () => {
  let reportId: string;
  beforeAll(async () => {
    // 3 files, 12.4 MB in all.
    const sizes = [4_000_000, 4_000_000, 4_400_000];
    const sent = await sendTransfer(
      ferry.baseUrl,
      sizes.map((size, i) => ({ name: `secret-budget-${i}.xlsx`, data: Buffer.alloc(size, i) })),
      { name: 'Quarterly report', message: 'Private note for the board' },
    );
    reportId = sent.transferId;
  });

  it('carries the defaults (name, file count, size, product) readable without scripts, kept out of search engines', async () => {
    const before = await query<{ n: string }>(ferry, 'SELECT count(*) AS n FROM downloads');
    const events = await query<{ n: string }>(ferry, 'SELECT count(*) AS n FROM transfer_events');
    const page = await crawl(`/dl/${reportId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.html).toContain('<meta name="robots" content="noindex">');
    const meta = metaOf(page.html);
    expect(meta['og:title']).toBe('Quarterly report');
    expect(meta['og:description']).toBe('3 files · 12.4 MB, shared with Ferry');
    expect(meta['og:type']).toBe('website');
    expect(meta['og:site_name']).toBe('Ferry');
    // Absolute, from PUBLIC_URL (the request's Host said evil.example), without the file or any query.
    expect(meta['og:url']).toBe(`${ORIGIN}/dl/${reportId}`);
    expect(meta['og:image']).toMatch(new RegExp(`^${ORIGIN}/site/og-image\\.[0-9a-f]{12}\\.png$`));
    expect([meta['og:image:width'], meta['og:image:height']]).toEqual(['1200', '630']);
    expect(meta['og:image:alt']).toBe('Ferry logo');
    expect(meta['twitter:card']).toBe('summary_large_image');
    expect(meta['twitter:title']).toBe('Quarterly report');
    expect(meta['twitter:description']).toBe(meta['og:description']);
    expect(meta['twitter:image']).toBe(meta['og:image']);
    expect(page.html).not.toContain('evil.example');
    // Not a file of the transfer, nor its message.
    expect(page.html).not.toContain('secret-budget');
    expect(page.html).not.toContain('Private note');
    // A crawler's fetch is not a download, nor a preview, nor an event.
    expect(await query(ferry, 'SELECT count(*) AS n FROM downloads')).toEqual(before);
    expect(await query(ferry, 'SELECT count(*) AS n FROM transfer_events')).toEqual(events);
    const [row] = await query<{ download_count: number; preview_count: number }>(
      ferry,
      'SELECT download_count, preview_count FROM transfers WHERE id = $1',
      [reportId],
    );
    expect(row).toEqual({ download_count: 0, preview_count: 0 });
  });

  it("speaks the visitor's language (Accept-Language, or the path's prefix, which og:url keeps)", async () => {
    const de = metaOf((await crawl(`/dl/${reportId}`, 'de-DE,de;q=0.9,en;q=0.5')).html);
    expect(de['og:description']).toBe('3 Dateien · 12,4 MB, geteilt mit Ferry');
    expect(de['og:locale']).toBe('de');
    const fr = metaOf((await crawl(`/fr/dl/${reportId}`, 'en')).html);
    expect(fr['og:description']).toMatch(/^3 fichiers · 12,4\s?Mo, partagés avec Ferry$/);
    expect(fr['og:url']).toBe(`${ORIGIN}/fr/dl/${reportId}`);
    // A file's page previews its transfer.
    const file = metaOf((await crawl(`/dl/${reportId}/AbC123`, 'ru')).html);
    expect(file['og:description']).toMatch(/^3 файла · 12,4\sМБ, отправлено через Ferry$/);
    expect(file['og:url']).toBe(`${ORIGIN}/dl/${reportId}`);
  });

  it('names an unnamed transfer by its file count', async () => {
    const sent = await sendTransfer(ferry.baseUrl, [small('a.txt'), small('b.txt')]);
    expect(metaOf((await crawl(`/dl/${sent.transferId}`)).html)['og:title']).toBe('2 files');
    expect(metaOf((await crawl(`/dl/${sent.transferId}`, 'pl')).html)['og:title']).toBe('2 pliki');
  });

  it('escapes hostile names: quotes, markup, right-to-left text and emoji come back as they were', async () => {
    const sent = await sendTransfer(ferry.baseUrl, [small('x.txt')], { name: HOSTILE });
    const page = await crawl(`/dl/${sent.transferId}`);
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).not.toContain(`"><script>`);
    expect(page.html).toContain(
      '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &#39;quoted&#39; &amp; مرحبا',
    );
    expect(metaOf(page.html)['og:title']).toBe(HOSTILE);
  });

  it("shows the transfer's own choice of title and description", async () => {
    const created = await as(premium, '/api/transfer/transfers', {
      method: 'POST',
      json: {
        name: 'raw-name',
        files: [{ name: 'p.txt', size: 3 }],
        openGraph: { title: HOSTILE, description: 'Photos of the "summer" shoot <b>final</b>' },
      },
    });
    expect(created.status).toBe(201);
    const sent = await completeOne(created.body);
    const meta = metaOf((await crawl(`/dl/${sent}`, 'de')).html);
    expect(meta['og:title']).toBe(HOSTILE);
    expect(meta['og:description']).toBe('Photos of the "summer" shoot <b>final</b>');
    expect(meta['twitter:title']).toBe(HOSTILE);
  });

  it("shows the sender's logo when their theme has one", async () => {
    const logo = await as(premium, `/api/user/users/${premium.uid}/customization/assets?kind=logo`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: await sharp({ create: { width: 80, height: 80, channels: 3, background: '#225588' } })
        .png()
        .toBuffer(),
    });
    expect(logo.status, JSON.stringify(logo.body)).toBe(201);
    const saved = await as(premium, `/api/user/users/${premium.uid}/customization`, {
      method: 'PUT',
      json: { logoURL: logo.body.url },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const created = await as(premium, '/api/transfer/transfers', {
      method: 'POST',
      json: { name: 'Branded', files: [{ name: 'p.txt', size: 3 }] },
    });
    const sent = await completeOne(created.body);
    const meta = metaOf((await crawl(`/dl/${sent}`)).html);
    expect(meta['og:image']).toBe(`${ORIGIN}${logo.body.url}`);
    expect(meta['twitter:image']).toBe(`${ORIGIN}${logo.body.url}`);
    // Another sender's page keeps the default picture.
    const plain = metaOf(
      (await crawl(`/dl/${(await sendTransfer(ferry.baseUrl, [small('x.txt')])).transferId}`)).html,
    );
    expect(plain['og:image']).toMatch(/\/site\/og-image\.[0-9a-f]{12}\.png$/);
    await as(premium, `/api/user/users/${premium.uid}/customization`, {
      method: 'PUT',
      json: { logoURL: null },
    });
  });

  describe('says nothing of a transfer it may not show', () => {
    const generic = (html: string, secrets: string[]) => {
      const meta = metaOf(html);
      expect(meta['og:title']).toBe('Files shared with Ferry');
      expect(meta['og:description']).toBe('Open the link to see the files and download them.');
      expect(meta['og:image']).toMatch(/\/site\/og-image\.[0-9a-f]{12}\.png$/);
      for (const secret of secrets) expect(html).not.toContain(secret);
      expect(html).not.toMatch(/\d+ files/);
      expect(html).not.toContain('MB');
    };
    const secrets = ['Hidden name', 'hidden-file.txt', 'Hidden message', 'Hidden Sender', 'Custom hidden'];
    const hidden = (extra: Record<string, unknown> = {}) =>
      sendTransfer(ferry.baseUrl, [small('hidden-file.txt')], {
        name: 'Hidden name',
        message: 'Hidden message',
        senderName: 'Hidden Sender',
        ...extra,
      });

    it("password-protected (its owner's custom title too), in the visitor's language", async () => {
      const sent = await hidden({ password: 'open sesame' });
      generic((await crawl(`/dl/${sent.transferId}`)).html, secrets);
      const created = await as(premium, '/api/transfer/transfers', {
        method: 'POST',
        json: {
          name: 'Hidden name',
          password: 'open sesame',
          files: [{ name: 'hidden-file.txt', size: 3 }],
          openGraph: { title: 'Custom hidden title', description: 'Custom hidden text' },
        },
      });
      const id = await completeOne(created.body);
      generic((await crawl(`/dl/${id}`)).html, secrets);
      const de = metaOf((await crawl(`/dl/${id}`, 'de')).html);
      expect(de['og:title']).toBe('Mit Ferry geteilte Dateien');
    });

    it('sent by e-mail (S1), with or without a personal link', async () => {
      const sent = await hidden({
        type: 'S1',
        senderEmail: 'hidden-sender@og.example',
        recipients: ['someone@og.example'],
      });
      generic((await crawl(`/dl/${sent.transferId}`)).html, secrets);
      const page = await crawl(`/dl/${sent.transferId}?userSecret=whatever`);
      generic(page.html, [...secrets, 'whatever', 'hidden-sender']);
    });

    it('expired, deleted, disabled, under review or retained', async () => {
      const sent = await hidden();
      const id = sent.transferId;
      const set = (sql: string) => query(ferry, `UPDATE transfers SET ${sql} WHERE id = $1`, [id]);
      await set(`expires_at = now() - interval '1 minute'`);
      generic((await crawl(`/dl/${id}`)).html, secrets);
      await set(`expires_at = now() + interval '1 day'`);
      expect(metaOf((await crawl(`/dl/${id}`)).html)['og:title']).toBe('Hidden name');
      for (const status of ['DELETED', 'DISABLED', 'MODERATING', 'RETAINED']) {
        await set(`status = '${status}'`);
        generic((await crawl(`/dl/${id}`)).html, secrets);
      }
    });

    it('unknown', async () => {
      const page = await crawl('/dl/ZZZZZZZZZZZZZZZZ');
      expect(page.status).toBe(200);
      generic(page.html, []);
    });
  });

  it('serves the default image as a 1200 × 630 PNG, cached for a year', async () => {
    const image = metaOf((await crawl(`/dl/${reportId}`)).html)['og:image']!;
    const res = await fetch(`${ferry.baseUrl}${new URL(image).pathname}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const info = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([info.format, info.width, info.height]).toEqual(['png', 1200, 630]);
    // Also under the plain name the site's pages name.
    const plain = await fetch(`${ferry.baseUrl}/site/og-image.png`);
    expect([plain.status, plain.headers.get('content-type')]).toEqual([200, 'image/png']);
  });
});

/** Uploads the one file of a transfer created through the API and completes it; its id. */
async function completeOne(created: { transferId: string; uploadToken: string; files: { id: string }[] }) {
  const { TusTestClient } = await import('../test/tus-client.js');
  const { sha256 } = await import('../test/flows.js');
  const data = Buffer.from('abc');
  await new TusTestClient(ferry.baseUrl, created.uploadToken).upload(
    created.transferId,
    created.files[0]!.id,
    data,
  );
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: [{ id: created.files[0]!.id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  return created.transferId;
}

describe('choosing the link preview', () => {
  const openGraph = (id: string) => `/api/transfer/transfers/${id}/open-graph`;

  it('is for paid plans: a free account or an anonymous sender is told so (403)', async () => {
    const files = [{ name: 'a.txt', size: 1 }];
    for (const who of [free, null]) {
      const res = await as(who, '/api/transfer/transfers', {
        method: 'POST',
        json: { files, openGraph: { title: 'Mine' } },
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/paid plan/);
    }
    // An empty choice is no choice.
    const empty = await as(free, '/api/transfer/transfers', {
      method: 'POST',
      json: { files, openGraph: { title: '  ' } },
    });
    expect(empty.status).toBe(201);
    const tooLong = await as(premium, '/api/transfer/transfers', {
      method: 'POST',
      json: { files, openGraph: { title: 'x'.repeat(121) } },
    });
    expect(tooLong.status).toBe(400);
  });

  it('is read and changed from the dashboard by the owner; the page follows; empty goes back to the default', async () => {
    const sent = await sendTransferAs(premium, 'Board pack');
    const read = await as(premium, openGraph(sent));
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('no-store');
    expect(read.body).toEqual({
      transferId: sent,
      title: null,
      description: null,
      allowed: true,
      editable: true,
    });
    const put = await as(premium, openGraph(sent), {
      method: 'PUT',
      json: { title: 'Board pack — final', description: 'Everything for Monday.' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Board pack — final', description: 'Everything for Monday.' });
    let meta = metaOf((await crawl(`/dl/${sent}`)).html);
    expect([meta['og:title'], meta['og:description']]).toEqual([
      'Board pack — final',
      'Everything for Monday.',
    ]);
    expect((await as(premium, openGraph(sent))).body.title).toBe('Board pack — final');
    await as(premium, openGraph(sent), { method: 'PUT', json: { title: '', description: '' } });
    meta = metaOf((await crawl(`/dl/${sent}`)).html);
    expect([meta['og:title'], meta['og:description']]).toEqual([
      'Board pack',
      '1 file · 3 B, shared with Ferry',
    ]);
  });

  it('refuses a free owner (403), someone else (404, nothing learnt) and no one signed in (401)', async () => {
    const own = await sendTransferAs(free, 'Free one');
    expect((await as(free, openGraph(own))).body).toMatchObject({ allowed: false, editable: true });
    const refused = await as(free, openGraph(own), { method: 'PUT', json: { title: 'Mine' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/paid plan/);
    const theirs = await sendTransferAs(premium, 'Not yours');
    for (const method of ['GET', 'PUT'])
      expect(
        (await as(other, openGraph(theirs), { method, json: method === 'PUT' ? { title: 'x' } : undefined }))
          .status,
      ).toBe(404);
    expect((await as(null, openGraph(theirs))).status).toBe(401);
    expect(metaOf((await crawl(`/dl/${theirs}`)).html)['og:title']).toBe('Not yours');
  });
});

async function sendTransferAs(who: Account, name: string): Promise<string> {
  const created = await as(who, '/api/transfer/transfers', {
    method: 'POST',
    json: { name, files: [{ name: 'f.txt', size: 3 }] },
  });
  expect(created.status).toBe(201);
  return completeOne(created.body);
}
