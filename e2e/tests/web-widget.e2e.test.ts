import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { signInInPage } from '../support/accounts.js';
import { docScreenshot, failed, SCREENSHOTS_DIR, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { sha256, waitFor } from '../support/files.js';
import { type ForeignSite, startForeignSite } from '../support/foreign-site.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * Upload inboxes and the embeddable widget in Chromium against the built server: the owner creates an inbox and
 * a widget in the dashboard and copies its one-line snippet; a plain page on another origin (a second port, a
 * `node:http` server on `localhost` while Ferry answers on `127.0.0.1`, so another site too) embeds it; a visitor
 * with no cookie fills the fields and a custom question and uploads a file; the owner reads the answers and
 * downloads the file (same SHA-256); switched off, the widget says "closed"; and any other page of Ferry
 * refuses to be framed there.
 */

const OWNER = 'lena.studio@owners.example';
const PASSWORD = 'quiet harbour lights 42';

async function createAccount(server: FerryProcess, email: string): Promise<void> {
  const register = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, firstname: 'Lena' }),
  });
  expect(register.status).toBe(202);
  const token = await verificationTokenFromOutbox(server.dataDir, email);
  const verified = await fetch(`${server.url}/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(verified.status).toBe(200);
}

function foreignPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-family:Georgia,serif;background:#f6f1e7;color:#2b2118">
<header style="padding:24px 32px;background:#2b2118;color:#f6f1e7"><strong>Studio Lumen</strong> · Architecture</header>
<main style="display:grid;grid-template-columns:minmax(0,1fr) minmax(0,420px);gap:32px;padding:32px;max-width:1100px">
${body}</main></body></html>`;
}

/** No sideways scrolling at this width; else which elements stick out. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const measure = () =>
    page.evaluate((limit) => {
      const scroll = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
      const out = Array.from(document.querySelectorAll<HTMLElement>('body *'))
        .filter((e) => e.getBoundingClientRect().right > limit + 0.5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
        .slice(0, 8);
      return { scroll, out };
    }, width);
  const { scroll, out } = await measure();
  expect(scroll, out.join('\n')).toBeLessThanOrEqual(width);
}

describe('upload inboxes and the widget on another site, in Chromium', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let work: string;
  let site: ForeignSite | null = null;
  const pages = new Map<string, string>();

  beforeAll(async () => {
    const port = await freePort();
    server = await FerryProcess.start({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    work = await tempDir('widget');
    site = await startForeignSite(pages);
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await site?.close();
    await server?.stop();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('an owner embeds a widget on another site; a visitor uploads through it; off, it says closed', async () => {
    if (!site) throw new Error('the foreign site did not start');
    await createAccount(server, OWNER);

    // --- The owner: an inbox and a widget, made in the dashboard. ---
    const ownerContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    await ownerContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const owner = await ownerContext.newPage();
    await signInInPage(owner, server.url, OWNER, PASSWORD, '/dashboard/admin/inboxes');
    await owner.getByTestId('page-inboxes').waitFor({ timeout: 20_000 });
    // A free plan: the inboxes are in the main menu (spec §2/§6), and a link now.
    expect(
      await owner.getByTestId('menu-section-main').getByTestId('menu-inboxes').getAttribute('href'),
    ).toBe('/dashboard/admin/inboxes');
    await owner.getByTestId('inboxes-empty').waitFor();
    await owner.getByTestId('inbox-new').click();
    await owner.getByTestId('inbox-title').fill('Studio Lumen project files');
    expect(await owner.getByTestId('inbox-slug').inputValue()).toBe('studio-lumen-project-files');
    await owner.getByTestId('inbox-description').fill('Plans, photos and briefs for your project.');
    await owner.getByTestId('inbox-extensions').fill('pdf, zip, bin');
    await owner.getByTestId('inbox-extensions').press('Enter');
    await owner.getByTestId('inbox-fields-name').selectOption('required');
    await owner.getByTestId('inbox-fields-question-add').click();
    await owner.getByTestId('inbox-fields-question-label').fill('Project code');
    await owner.getByTestId('inbox-fields-question-required').check();
    await owner.getByTestId('inbox-save').click();
    await owner.getByTestId('page-inbox').waitFor({ timeout: 20_000 });
    expect(await owner.getByTestId('inbox-heading').textContent()).toBe('Studio Lumen project files');
    expect(await owner.getByTestId('inbox-address').inputValue()).toBe(
      `${server.url}/i/studio-lumen-project-files`,
    );
    expect(await owner.getByTestId('inbox-default').textContent()).toBe('Default');

    await owner.getByTestId('widget-new').click();
    await owner.getByTestId('page-widget-editor').waitFor();
    await owner.getByTestId('widget-name-input').fill('Portfolio site');
    await owner.getByTestId('widget-colors-backgroundColor').fill('#2b2118');
    await owner.getByTestId('widget-colors-startbtnColor').fill('#c2410c');
    // The widget asks what the inbox asks; it adds one more question of its own.
    expect(await owner.getByTestId('widget-fields-question-label').first().inputValue()).toBe('Project code');
    await owner.getByTestId('widget-fields-question-add').click();
    await owner.getByTestId('widget-fields-question-label').nth(1).fill('Preferred deadline');
    await owner.getByTestId('widget-save').click();
    await owner.getByTestId('widget-code').waitFor({ timeout: 20_000 });
    await owner.getByTestId('widget-snippet-copy').click();
    const snippet = await owner.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toBe(await owner.getByTestId('widget-snippet').inputValue());
    const widgetId = /data-ferry-widget="([A-Za-z0-9]{16})"/.exec(snippet)?.[1];
    expect(snippet).toBe(
      `<script src="${server.url}/widget.js" data-ferry-widget="${widgetId}" async></script>`,
    );

    await owner.getByTestId('widget-back').click();
    await owner.getByTestId('widget-row').waitFor();
    // The save bar sticks to the window's bottom; in a full-page picture it belongs under the form.
    await owner.evaluate(() => {
      document.querySelectorAll<HTMLElement>('.settings-actions').forEach((bar) => {
        bar.style.position = 'static';
      });
    });
    await docScreenshot(owner, 'inbox-page.png');
    await owner.reload();
    await owner.getByTestId('widget-row').waitFor();
    // On a phone, nothing sticks out sideways.
    await owner.setViewportSize({ width: 375, height: 800 });
    await fitsWidth(owner, 375);
    await owner.getByTestId('inbox-heading').scrollIntoViewIfNeeded();
    await owner.screenshot({
      path: path.join(SCREENSHOTS_DIR, 'inbox-page-phone.png'),
      animations: 'disabled',
    });
    await owner.setViewportSize({ width: 1280, height: 900 });

    // --- Another site embeds it with the snippet, pasted as is. ---
    pages.set(
      '/',
      foreignPage(
        'Studio Lumen — send us your files',
        `<section><h1>Send us your project files</h1><p>Use the form: the files go straight to our studio.</p></section>
<aside>${snippet}</aside>`,
      ),
    );
    pages.set(
      '/framed-home',
      foreignPage(
        'Framed',
        `<iframe id="home" title="home" src="${server.url}/" style="width:600px;height:400px"></iframe>`,
      ),
    );

    // Only the widget page may be framed: its headers say so, every other page's refuse.
    const widgetHeaders = (await fetch(`${server.url}/widgets/${widgetId}`)).headers;
    expect(widgetHeaders.get('x-frame-options')).toBeNull();
    expect(widgetHeaders.get('content-security-policy')).toContain('frame-ancestors *');
    const homeHeaders = (await fetch(`${server.url}/`)).headers;
    expect(homeHeaders.get('x-frame-options')).toBe('DENY');
    expect(homeHeaders.get('content-security-policy')).toContain("frame-ancestors 'none'");

    // --- A visitor of that site: a fresh browser, no cookie, no account. ---
    const visitorContext = await scenarios.newContext({
      consent: null,
      viewport: { width: 1100, height: 900 },
    });
    const visitor = await visitorContext.newPage();
    const ferryRequests: string[] = [];
    visitor.on('request', (request) => {
      if (request.url().startsWith(server.url)) ferryRequests.push(new URL(request.url()).pathname);
    });
    await visitor.goto(`${site.url}/`);
    const iframe = visitor.locator(`iframe[src="${server.url}/widgets/${widgetId}"]`);
    await iframe.waitFor({ timeout: 20_000 });
    const widget: FrameLocator = visitor.frameLocator(`iframe[src="${server.url}/widgets/${widgetId}"]`);
    await widget.getByTestId('widget-form').waitFor({ timeout: 20_000 });
    expect(await widget.getByTestId('widget-title').textContent()).toBe('Studio Lumen project files');
    expect(await widget.getByTestId('widget-accepted').textContent()).toContain('.pdf, .zip, .bin');
    // The widget's colours, and no app header, menu or sign-in inside the frame.
    const band = await widget.locator('.widget-head').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(band).toBe('rgb(43, 33, 24)');
    expect(
      await widget
        .locator('.app-header, [data-testid="header-signin"], [data-testid="dashboard-menu"]')
        .count(),
    ).toBe(0);
    // The frame takes the height the widget tells it (ferry:widget-height, heard by /widget.js).
    await waitFor(
      async () => {
        const frameHeight = await iframe.evaluate(
          (el) => (el as HTMLIFrameElement).getBoundingClientRect().height,
        );
        const content = await widget
          .locator('.widget-root')
          .evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
        return Math.abs(frameHeight - content) <= 1 && frameHeight !== 560;
      },
      { what: 'the iframe sized to the widget' },
    );

    // A file of another type is skipped with the spec's notice; the allowed one stays.
    const content = randomBytes(300 * 1024 + 17);
    const file = path.join(work, 'site-survey.bin');
    await fs.writeFile(file, content);
    const other = path.join(work, 'holiday.png');
    await fs.writeFile(other, 'not allowed here');
    await widget.getByTestId('file-input').setInputFiles([file, other]);
    expect(await widget.getByTestId('widget-notices').textContent()).toBe(
      'holiday.png was skipped: only these file types are allowed: .pdf, .zip, .bin.',
    );
    // Required fields are enforced before anything is sent.
    await widget.getByTestId('widget-submit').click();
    expect(await widget.getByTestId('widget-name').getAttribute('aria-invalid')).toBe('true');
    expect(ferryRequests.filter((p) => p === '/api/receive/uploads')).toHaveLength(0);
    await widget.getByTestId('widget-name').fill('Marc Ortega');
    await widget.getByTestId('widget-email').fill('marc@client.example');
    await widget.getByTestId('widget-message').fill('Survey of the north plot.');
    await widget.getByTestId('widget-question-q1').fill('LUM-2031');
    await widget.getByTestId('widget-question-q2').fill('End of March');
    await docScreenshot(visitor, 'widget-foreign-page.png');
    await widget.getByTestId('widget-submit').click();
    await widget.getByTestId('widget-receipt').waitFor({ timeout: 60_000 });
    expect(await widget.getByTestId('widget-receipt-summary').textContent()).toBe(
      '1 file (307 kB) arrived safely.',
    );
    expect(await widget.getByTestId('widget-receipt-file').textContent()).toContain('site-survey.bin');
    // No cookie was needed, and none was made: no session call, no cookie set for Ferry in this browser.
    expect(ferryRequests.some((p) => p.startsWith('/api/auth'))).toBe(false);
    expect((await visitorContext.cookies(server.url)).map((c) => c.name)).toEqual([]);

    // The widget alone in a 320 px wide window, in French: it fits.
    const narrow = await scenarios.newPage({ viewport: { width: 320, height: 700 } });
    await narrow.goto(`${server.url}/widgets/${widgetId}?lang=fr`);
    await narrow.getByTestId('widget-form').waitFor({ timeout: 20_000 });
    expect(await narrow.getByTestId('widget-submit').textContent()).toBe('Envoyer');
    await fitsWidth(narrow, 320);
    await narrow.close();

    // --- The owner: the received transfer with the answers, and the file itself. ---
    const listed = await owner.evaluate(async () =>
      (await fetch('/api/transfer/transfers?direction=received')).json(),
    );
    const received = (listed as { items: Array<{ id: string; type: string }> }).items;
    expect(received).toHaveLength(1);
    expect(received.map((t) => t.type)).toEqual(['S3']);
    await owner.goto(`${server.url}/dashboard/transfers`);
    await owner.getByTestId('direction-received').click();
    await owner.getByTestId('transfer-row').first().waitFor({ timeout: 20_000 });
    expect(await owner.getByTestId('transfer-row').count()).toBe(1);
    // The transfer's page: who sent it, through which widget, and their answers.
    await owner.goto(`${server.url}/dashboard/transfers/${received[0]?.id}`);
    await owner.getByTestId('received-upload').waitFor({ timeout: 20_000 });
    await waitFor(async () => (await owner.getByTestId('received-answer').count()) === 2, {
      what: 'the two answers',
    });
    // The address was typed on the widget, not proven: the owner is told so.
    expect(await owner.getByTestId('received-from').textContent()).toBe(
      'Marc Ortega · marc@client.example (address not verified)',
    );
    expect(await owner.getByTestId('received-via').textContent()).toBe(
      'A widget of the inbox “Studio Lumen project files”',
    );
    expect(await owner.getByTestId('received-message').textContent()).toBe('Survey of the north plot.');
    const answers = await owner.getByTestId('received-answer').allTextContents();
    expect(answers).toEqual(['Project codeLUM-2031', 'Preferred deadlineEnd of March']);
    await owner.getByTestId('received-download').click();
    const row = owner.locator('[data-testid^="download-file-"]').first();
    await row.waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([owner.waitForEvent('download', { timeout: 60_000 }), row.click()]);
    expect(download.suggestedFilename()).toBe('site-survey.bin');
    expect(sha256(await fs.readFile(await download.path()))).toBe(sha256(content));

    // --- Switched off, the widget on the other site says it is closed. ---
    await owner.goto(`${server.url}/dashboard/admin/inboxes`);
    const inboxSwitch = owner.getByTestId('inbox-switch');
    await inboxSwitch.waitFor();
    await inboxSwitch.click();
    await waitFor(async () => !(await inboxSwitch.isChecked()), { what: 'the inbox switched off' });
    expect(await owner.getByTestId('inbox-uploads').textContent()).toBe('1 upload');
    await visitor.reload();
    await widget.getByTestId('widget-closed').waitFor({ timeout: 20_000 });
    expect(await widget.getByTestId('widget-closed').textContent()).toContain(
      'This inbox does not accept files at the moment.',
    );
    expect(await widget.getByTestId('widget-form').count()).toBe(0);

    // --- Any other Ferry page framed by that site does not render. ---
    await checkFramingRefused(visitorContext, `${site.url}/framed-home`, server.url);
  });
});

/** The foreign page's iframe of Ferry's `/` stays empty: Chromium refuses it (frame-ancestors / X-Frame-Options). */
async function checkFramingRefused(context: BrowserContext, pageUrl: string, ferry: string): Promise<void> {
  const page = await context.newPage();
  const answers: Array<{ url: string; frameOptions: string | null }> = [];
  page.on('response', (response) => {
    if (response.url() === `${ferry}/`)
      answers.push({ url: response.url(), frameOptions: response.headers()['x-frame-options'] ?? null });
  });
  await page.goto(pageUrl);
  await page.locator('#home').waitFor();
  await waitFor(() => answers.length > 0, { what: 'the framed page’s answer' });
  expect(answers[0]?.frameOptions).toBe('DENY');
  const frame = await waitFor(() => page.frames().find((f) => f !== page.mainFrame()), {
    what: 'the child frame',
  });
  await page.waitForLoadState('load');
  // Blocked: the frame never becomes Ferry's page (Chromium shows its own error page instead).
  expect(frame.url().startsWith(ferry)).toBe(false);
  const rendered = await frame
    .evaluate(() => document.querySelector('.brand, [data-testid="dropzone"], #root > *') !== null)
    .catch(() => false);
  expect(rendered).toBe(false);
}
