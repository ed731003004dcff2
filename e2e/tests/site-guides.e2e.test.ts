import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SCREENSHOT_SMALL_WIDTH, smallScreenshotName } from '@ferry/core';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { StripeStandin, TEST_CARDS } from '../../apps/server/src/test/stripe-standin.js';
import { registerAndVerify, signInInPage } from '../support/accounts.js';
import {
  failed,
  SITE_SCREENSHOTS_DIR,
  SITE_VIEWPORT,
  saveArtifact,
  siteScreenshot,
} from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { runFerry } from '../support/cli.js';
import { sha256, waitFor, writeRandomFile, writeTree } from '../support/files.js';
import { startForeignSite } from '../support/foreign-site.js';
import { type Mail, type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, REPO_ROOT, tempDir } from '../support/server.js';

/**
 * The public site's how-to guides (apps/server/src/site/content/en/guides.json) walk through the real app: this file
 * takes each step's picture (apps/server/src/site/screenshots/*.jpg, 1280×800) while doing the step in Chromium
 * against the built server on its embedded default, and checks what each picture shows. Sending by e-mail and by
 * link, a large upload that survives a reload, asking for files, an upload inbox with its widget on another site,
 * files pushed to an account, and files sold with `ferry send --price` and bought on the download page.
 */

const PASSWORD = 'harbour lights at dusk 7';
const ADA = 'ada@studio.example';
const SENDER = 'alice@sender.example';
const ANN = 'ann@clients.example';
const BOB = 'bob@clients.example';
const SELLER = 'sam@presets.example';
const OPERATOR = 'ops@ferry-guides.example';
const GUIDES_JSON = path.join(REPO_ROOT, 'apps/server/src/site/content/en/guides.json');

const subjectOf = (m: Mail) => m.parsed.subject ?? '';

/** Every `image` of the guides' steps. */
function guideImages(): Set<string> {
  const pages = JSON.parse(readFileSync(GUIDES_JSON, 'utf8')) as Record<
    string,
    { blocks: Array<{ type: string; items?: Array<{ image?: string }> }> }
  >;
  const images = new Set<string>();
  for (const page of Object.values(pages))
    for (const block of page.blocks)
      if (block.type === 'steps')
        for (const step of block.items ?? []) if (step.image) images.add(step.image);
  return images;
}

/** Brings `locator` near the top of whatever scrolls it (the window or the sliding panel), `margin` px below it. */
async function scrollToTop(locator: Locator, margin = 24): Promise<void> {
  await locator.evaluate((el, px) => {
    (el as HTMLElement).style.scrollMarginTop = `${px}px`;
    el.scrollIntoView({ block: 'start' });
  }, margin);
}

/** No field keeps the focus ring in a picture. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** The file names a file list shows. */
function listedNames(list: Locator): Promise<string[]> {
  return list.locator('.file-row-name').evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''));
}

describe('the how-to guides, step by step in Chromium, with their pictures', () => {
  const scenarios = useBrowser();
  const taken = new Set<string>();
  let sink: MailSink;
  let standin: StripeStandin;
  let server: FerryProcess;
  let work: string;

  async function picture(page: Page, name: string): Promise<void> {
    await siteScreenshot(page, name);
    taken.add(name);
  }

  async function signedInPage(email: string, next: string): Promise<Page> {
    const page = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await signInInPage(page, server.url, email, PASSWORD, next);
    return page;
  }

  beforeAll(async () => {
    sink = await startMailSink();
    standin = await StripeStandin.start();
    work = await tempDir('site-guides');
    server = await FerryProcess.start({
      env: {
        ...standin.env(),
        PAYMENT_PROVIDERS: 'MANUAL,STRIPE',
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        OPERATOR_EMAILS: OPERATOR,
      },
    });
    standin.webhookUrl = `${server.url}/api/pay/webhooks/stripe`;
  });

  afterEach(async (context: TestContext) => {
    if (!failed(context)) return;
    await saveArtifact(context, 'server.log', server.output);
    const mails = sink.messages.map((m) => `${m.to.join(', ')} | ${subjectOf(m)}\n${m.parsed.text ?? ''}`);
    await saveArtifact(context, 'mails.txt', mails.join('\n\n-----\n\n'));
  });

  afterAll(async () => {
    await server?.stop();
    await standin?.close();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('sends photos, a video and a PDF by e-mail, then a PDF by link with a password', async () => {
    const dir = path.join(work, 'send');
    await writeTree(dir, {
      'site-visit/entrance.jpg': randomBytes(1_400_000),
      'site-visit/hall.jpg': randomBytes(900_000),
      'site-visit/roof-terrace.jpg': randomBytes(1_600_000),
      'floor-plans.pdf': randomBytes(700_000),
      'price-list-2027.pdf': randomBytes(480_000),
    });
    await writeRandomFile(path.join(dir, 'walkthrough.mp4'), 4_800_000);

    // Step 1: files and a folder, chosen with the buttons.
    const sender = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await sender.goto(`${server.url}/`);
    expect(await sender.getByTestId('type-S1').isChecked()).toBe(true);
    await sender
      .getByTestId('file-input')
      .setInputFiles([path.join(dir, 'floor-plans.pdf'), path.join(dir, 'walkthrough.mp4')]);
    await sender.getByTestId('folder-input').setInputFiles(path.join(dir, 'site-visit'));
    const list = sender.getByTestId('file-list');
    await waitFor(async () => (await listedNames(list)).length === 5, { what: 'five chosen files' });
    expect((await listedNames(list)).sort()).toEqual([
      'floor-plans.pdf',
      'site-visit/entrance.jpg',
      'site-visit/hall.jpg',
      'site-visit/roof-terrace.jpg',
      'walkthrough.mp4',
    ]);
    expect(await sender.getByTestId('file-total').textContent()).toBe('5 files · 9.40 MB');
    await picture(sender, 'choose-files.jpg');

    // Step 2: recipients, the sender, a message.
    await sender.getByTestId('next').click();
    const recipients = sender.getByTestId('recipients-input');
    await recipients.fill(`${ANN}, ${BOB}`);
    await recipients.press('Enter');
    await waitFor(async () => (await sender.getByTestId('recipient-chip').count()) === 2, {
      what: 'two recipient chips',
    });
    expect(await sender.getByTestId('recipients-count').textContent()).toBe('2 / 10');
    await sender.getByTestId('sender-email').fill(SENDER);
    await sender.getByTestId('sender-name').fill('Alice Martin');
    await sender.getByTestId('transfer-name').fill('Site visit');
    await sender
      .getByTestId('transfer-message')
      .fill('Photos, plans and the walkthrough of Tuesday’s visit.');
    await blur(sender);
    await scrollToTop(sender.getByTestId('type-S1'));
    await picture(sender, 'email-options.jpg');

    // Steps 3–4: the code mailed to the sender, typed; both recipients mailed.
    await sender.getByTestId('start-upload').click();
    const codeMail = await sink.waitFor(
      'the verification code',
      (m) => m.to.includes(SENDER) && /^\d{6} /.test(subjectOf(m)),
    );
    await sender.getByTestId('verification-code').fill(/^(\d{6}) /.exec(subjectOf(codeMail))![1]!);
    const status = sender.getByTestId('send-status');
    await waitFor(async () => (await status.getAttribute('data-state')) === 'sent', {
      timeoutMs: 60_000,
      what: 'the sent step',
    });
    const rows = sender.getByTestId('recipient-status');
    await waitFor(
      async () =>
        (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-delivery')))).every(
          (d) => d === 'sent',
        ),
      { timeoutMs: 30_000, what: 'both deliveries reported as sent' },
    );
    expect(await status.textContent()).toBe('Sent to 2 recipients');
    await scrollToTop(status);
    await picture(sender, 'email-sent.jpg');

    // What Ann receives: the mail, then the page of her personal link.
    const annMail = await sink.waitFor('the mail to Ann', (m) => m.to.includes(ANN));
    expect(subjectOf(annMail)).toContain('Alice Martin');
    const mailView = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await mailView.setContent(String(annMail.parsed.html), { waitUntil: 'load' });
    expect(await mailView.locator('body').textContent()).toContain('Tuesday’s visit');
    await picture(mailView, 'email-received.jpg');
    const personal = new RegExp(`${server.url}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+`).exec(
      annMail.parsed.text ?? '',
    )?.[0];
    expect(personal, 'a personal link in the mail').toBeTruthy();
    const ann = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await ann.goto(personal!);
    await ann.getByTestId('recipient-greeting').waitFor({ timeout: 30_000 });
    expect(await ann.getByTestId('recipient-greeting').textContent()).toBe(`Sent to you, ${ANN}`);
    expect(await ann.locator('[data-testid^="file-row-"]').count()).toBe(5);
    expect(await ann.getByTestId('download-all').isEnabled()).toBe(true);
    await picture(ann, 'download-page.jpg');

    // By link: one PDF, a password, a download limit.
    const linker = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await linker.goto(`${server.url}/#S2`);
    await linker.getByTestId('file-input').setInputFiles(path.join(dir, 'price-list-2027.pdf'));
    await linker.getByTestId('next').click();
    expect(await linker.getByTestId('type-S2').isChecked()).toBe(true);
    await linker.getByTestId('transfer-name').fill('Price list 2027');
    await linker.getByTestId('transfer-password').fill('north-pier-2027');
    await linker.getByTestId('transfer-max-downloads').fill('20');
    await blur(linker);
    await scrollToTop(linker.getByTestId('type-S2'));
    await picture(linker, 'link-options.jpg');
    await linker.getByTestId('start-upload').click();
    const link = linker.getByTestId('transfer-link');
    await link.waitFor({ timeout: 60_000 });
    expect(await link.inputValue()).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}$`));
    await picture(linker, 'link-ready.jpg');

    // Whoever gets the link needs the password before any file is listed.
    const reader = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await reader.goto(await link.inputValue());
    await reader.getByTestId('password-input').waitFor({ timeout: 15_000 });
    expect(await reader.locator('[data-testid^="file-row-"]').count()).toBe(0);
    await reader.getByTestId('password-input').fill('north-pier-2027');
    await reader.getByTestId('password-submit').click();
    await reader.locator('[data-testid^="file-row-"]').first().waitFor({ timeout: 15_000 });
    expect(await reader.locator('.file-row-name').first().getAttribute('title')).toBe('price-list-2027.pdf');
  });

  it('a large upload shows its progress, survives a reload and resumes where it stopped', async () => {
    const file = path.join(work, 'large', 'product-launch-4k.mp4');
    await writeRandomFile(file, 24 * 1024 * 1024);

    const context = await scenarios.newContext({ viewport: SITE_VIEWPORT });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const throttle = (uploadThroughput: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput,
      });
    await throttle(2 * 1024 * 1024);

    await page.goto(`${server.url}/#S2`);
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByTestId('next').click();
    await page.getByTestId('start-upload').click();
    const progress = page.getByTestId('progress-total');
    await waitFor(async () => Number(await progress.getAttribute('value')) >= 12, {
      timeoutMs: 60_000,
      what: 'the upload to pass 12 %',
    });
    expect(Number(await progress.getAttribute('value'))).toBeLessThan(100);
    expect(await page.getByTestId('pause').isVisible()).toBe(true);
    expect(await page.getByTestId('progress-detail').textContent()).toMatch(/\/s/);
    await picture(page, 'upload-progress.jpg');

    // The page is reloaded mid-upload (a crash, a closed laptop): it offers to pick the same file again.
    const pending = await page.evaluate(() => localStorage.getItem('ferry.pendingUpload'));
    expect(pending).toBeTruthy();
    const { transferId } = JSON.parse(pending!) as { transferId: string };
    await page.reload();
    const banner = page.getByTestId('resume-banner');
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.textContent()).toContain('product-launch-4k.mp4');
    await picture(page, 'upload-resume.jpg');

    await throttle(-1);
    await page.getByTestId('file-input').setInputFiles(file);
    const link = page.getByTestId('transfer-link');
    await link.waitFor({ timeout: 120_000 });
    // The same transfer, finished: not a new one.
    expect(await link.inputValue()).toBe(`${server.url}/dl/${transferId}`);
  });

  it('asks for files, makes an upload inbox with a widget on another site, and receives files in the account', async () => {
    await registerAndVerify(server.url, sink, ADA, PASSWORD, 'Ada');
    const dir = path.join(work, 'receive');
    const contract = Buffer.from('%PDF-1.4 signed contract\n'.repeat(4000));
    await writeTree(dir, {
      'signed-contract.pdf': contract,
      'moodboard.pdf': Buffer.from('%PDF-1.4 moodboard\n'.repeat(9000)),
    });

    // A request by link: the form, then the link and its QR code.
    const ada = await signedInPage(ADA, '/request-files#S2');
    await ada.getByTestId('request-subject').waitFor();
    expect(await ada.getByTestId('type-S2').isChecked()).toBe(true);
    expect(await ada.getByTestId('request-expiry').inputValue()).toBe('7');
    await ada.getByTestId('request-subject').fill('Signed contract');
    await ada.getByTestId('request-message').fill('Hello! Please send the signed contract as a PDF.');
    await ada.getByTestId('request-more').click();
    await ada.getByTestId('request-extensions').fill('pdf');
    expect(await ada.getByTestId('request-preview').textContent()).toBe(
      'What they will see: Transfer files to Ada · Signed contract',
    );
    await blur(ada);
    await ada.evaluate(() => window.scrollTo(0, 0));
    await picture(ada, 'request-form.jpg');
    await ada.getByTestId('request-submit').click();
    await ada.getByTestId('request-result').waitFor({ timeout: 15_000 });
    expect(await ada.getByTestId('request-result').textContent()).toBe('Your upload link is ready');
    await ada.getByTestId('request-qr').waitFor();
    const requestLink = await ada.getByTestId('request-link').inputValue();
    expect(requestLink).toMatch(new RegExp(`^${server.url}/r/[A-Za-z0-9]{16}$`));
    await picture(ada, 'request-link.jpg');

    // Someone with the link uploads, no account needed.
    const client = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await client.goto(requestLink);
    await client.getByTestId('dropzone').waitFor({ timeout: 15_000 });
    expect(await client.getByTestId('receive-title').textContent()).toBe('Transfer files to Ada');
    expect(await client.getByTestId('allowed-extensions').textContent()).toBe('Accepted file types: .pdf');
    await client.getByTestId('file-input').setInputFiles(path.join(dir, 'signed-contract.pdf'));
    await client.getByTestId('next').click();
    await client.getByTestId('uploader-name').fill('Bob Client');
    await client.getByTestId('uploader-email').fill(BOB);
    await client.getByTestId('uploader-message').fill('Signed on every page.');
    await blur(client);
    await picture(client, 'request-upload.jpg');
    await client.getByTestId('start-upload').click();
    await client.getByTestId('receipt').waitFor({ timeout: 60_000 });
    expect(await client.getByTestId('receipt-sha').textContent()).toBe(sha256(contract));

    // An upload inbox, made in the dashboard.
    await ada.goto(`${server.url}/dashboard/admin/inboxes`);
    await ada.getByTestId('inbox-new').click();
    await ada.getByTestId('inbox-title').fill('Studio Ada client files');
    expect(await ada.getByTestId('inbox-slug').inputValue()).toBe('studio-ada-client-files');
    await ada.getByTestId('inbox-description').fill('Briefs, plans and photos for your project.');
    await ada.getByTestId('inbox-extensions').fill('pdf, jpg, zip');
    await ada.getByTestId('inbox-extensions').press('Enter');
    await ada.getByTestId('inbox-save').click();
    await ada.getByTestId('page-inbox').waitFor({ timeout: 20_000 });
    expect(await ada.getByTestId('inbox-address').inputValue()).toBe(
      `${server.url}/i/studio-ada-client-files`,
    );
    expect(await ada.getByTestId('inbox-default').textContent()).toBe('Default');
    await picture(ada, 'inbox-page.jpg');

    // What a sender sees at the inbox's address.
    const sender = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await sender.goto(`${server.url}/i/studio-ada-client-files`);
    await sender.getByTestId('dropzone').waitFor({ timeout: 15_000 });
    expect(await sender.getByTestId('receive-title').textContent()).toBe(
      'Transfer files to Studio Ada client files',
    );
    expect(await sender.getByTestId('receive-message').textContent()).toContain('Briefs, plans and photos');
    expect(await sender.getByTestId('allowed-extensions').textContent()).toBe(
      'Accepted file types: .pdf, .jpg, .zip',
    );
    await picture(sender, 'inbox-upload.jpg');

    // Its widget, and the line to paste into a website.
    await ada.getByTestId('widget-new').click();
    await ada.getByTestId('page-widget-editor').waitFor();
    await ada.getByTestId('widget-name-input').fill('Studio website');
    await ada.getByTestId('widget-colors-backgroundColor').fill('#1f3a5f');
    await ada.getByTestId('widget-save').click();
    await ada.getByTestId('widget-code').waitFor({ timeout: 20_000 });
    const snippet = await ada.getByTestId('widget-snippet').inputValue();
    const widgetId = /data-ferry-widget="([A-Za-z0-9]{16})"/.exec(snippet)?.[1];
    expect(snippet).toBe(
      `<script src="${server.url}/widget.js" data-ferry-widget="${widgetId}" async></script>`,
    );
    await scrollToTop(ada.getByTestId('widget-code'));
    await picture(ada, 'widget-code.jpg');

    // Another site with that line pasted as is: a visitor sees the upload form in the page.
    const site = await startForeignSite(
      new Map([
        [
          '/',
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Studio Ada — send us your files</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-family:Georgia,serif;background:#f4f1ea;color:#1f2a36">
<header style="padding:22px 40px;background:#1f3a5f;color:#f4f1ea;font-size:20px"><strong>Studio Ada</strong> · Interior design</header>
<main style="display:grid;grid-template-columns:minmax(0,1fr) 420px;gap:48px;padding:40px;max-width:1180px">
<section><h1 style="font-size:40px;margin-top:8px">Send us your project files</h1>
<p style="font-size:19px;line-height:1.6">Plans, photos and briefs go straight to our studio with the form on the right.
No account, no e-mail attachments.</p></section>
<aside>${snippet}</aside></main></body></html>`,
        ],
      ]),
    );
    try {
      const visitor = await scenarios.newPage({ viewport: SITE_VIEWPORT });
      await visitor.goto(site.url);
      const widget = visitor.frameLocator(`iframe[src="${server.url}/widgets/${widgetId}"]`);
      await widget.getByTestId('widget-form').waitFor({ timeout: 20_000 });
      expect(await widget.getByTestId('widget-title').textContent()).toBe('Studio Ada client files');
      expect(await widget.getByTestId('widget-accepted').textContent()).toContain('.pdf, .jpg, .zip');
      await waitFor(
        async () =>
          ((await visitor.locator('iframe').boundingBox())?.height ?? 0) > 300 &&
          (await visitor.locator('iframe').boundingBox())!.height < 1000,
        { what: 'the iframe to take the height the widget reports' },
      );
      await picture(visitor, 'widget-on-site.jpg');
    } finally {
      await site.close();
    }

    // Files pushed to Ada's account by e-mail address: they land in her default inbox.
    const pusher = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await pusher.goto(`${server.url}/push`);
    await pusher.getByTestId('push-to').fill(ADA);
    await pusher.getByTestId('push-to-submit').click();
    await pusher.getByTestId('dropzone').waitFor({ timeout: 15_000 });
    expect(await pusher.getByTestId('receive-title').textContent()).toBe(
      'Transfer files to Studio Ada client files',
    );
    await pusher.getByTestId('file-input').setInputFiles(path.join(dir, 'moodboard.pdf'));
    await waitFor(async () => (await listedNames(pusher.getByTestId('file-list'))).length === 1, {
      what: 'the chosen file',
    });
    await picture(pusher, 'push-files.jpg');
    await pusher.getByTestId('next').click();
    await pusher.getByTestId('uploader-name').fill('Dan Supplier');
    await pusher.getByTestId('uploader-email').fill('dan@suppliers.example');
    await pusher.getByTestId('start-upload').click();
    await pusher.getByTestId('receipt').waitFor({ timeout: 60_000 });

    // Both arrivals, in Ada's received transfers.
    await ada.goto(`${server.url}/dashboard/transfers`);
    await ada.getByTestId('direction-received').click();
    const received = ada.getByTestId('transfer-row');
    await waitFor(async () => (await received.count()) === 2, {
      timeoutMs: 15_000,
      what: 'two received transfers',
    });
    const text = (await received.allTextContents()).join('\n');
    expect(text).toContain(`From ${BOB}`);
    expect(text).toContain('From dan@suppliers.example');
    await blur(ada);
    await picture(ada, 'received-files.jpg');
  });

  it('sells files: a paid plan, ferry send --price, a buyer pays on the download page, the seller sees the sale', async () => {
    // Sam's account gets PREMIUM from an operator; he sells a file from the command line.
    await registerAndVerify(server.url, sink, OPERATOR, PASSWORD, 'Olga');
    await registerAndVerify(server.url, sink, SELLER, PASSWORD, 'Sam');
    const ops = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'ops-state'), FERRY_SERVER: server.url });
    expect((await ops(['login', '--email', OPERATOR, '--password', PASSWORD])).code).toBe(0);
    const plan = await ops(['operator', 'set-plan', SELLER, 'PREMIUM']);
    expect(plan.code, plan.stderr).toBe(0);
    const sam = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'sam-state'), FERRY_SERVER: server.url });
    expect((await sam(['login', '--email', SELLER, '--password', PASSWORD])).code).toBe(0);
    const presets = path.join(work, 'sell', 'film-presets.zip');
    await writeRandomFile(presets, 600_000);
    const sent = await sam([
      'send',
      presets,
      '--price',
      '9.90',
      '--currency',
      'EUR',
      '--name',
      'Film presets',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const link = sent.stdout.trim().split('\n').at(-1)!;
    const transferId = /\/dl\/([A-Za-z0-9]{16})$/.exec(link)?.[1];
    expect(transferId, link).toBeTruthy();

    // A buyer: the files are listed, the downloads wait for the payment.
    const buyer = await scenarios.newPage({ viewport: SITE_VIEWPORT });
    await buyer.goto(link);
    await buyer.getByTestId('purchase').waitFor({ timeout: 20_000 });
    expect(await buyer.getByTestId('download-all').isDisabled()).toBe(true);
    expect(await buyer.getByTestId('purchase-price').textContent()).toContain('9.90');
    await buyer.getByTestId('purchase-email').fill('paula@buyers.example');
    await buyer.getByTestId('purchase-country').selectOption('FR');
    await buyer.getByLabel('Card number').fill(TEST_CARDS.succeeds);
    await buyer
      .getByLabel('Expiration date (MM / YY)')
      .fill(`12 / ${(new Date().getUTCFullYear() + 3) % 100}`);
    await buyer.getByLabel('Security code (CVC)').fill('123');
    await blur(buyer);
    // French VAT (20 %) on top of the price.
    expect((await buyer.getByTestId('purchase-total').textContent())?.replace(/\s/g, ' ')).toContain('11.88');
    await scrollToTop(buyer.getByTestId('purchase'), 150);
    await picture(buyer, 'sell-buy.jpg');
    await buyer.getByTestId('purchase-pay').click();
    await buyer.waitForFunction(
      () =>
        (document.querySelector('[data-testid="download-all"]') as HTMLButtonElement | null)?.disabled ===
        false,
      null,
      { timeout: 20_000 },
    );

    // Sam's dashboard: the sale, with the buyer and the VAT.
    const seller = await signedInPage(SELLER, `/dashboard/transfers/${transferId}`);
    const sales = seller.getByTestId('transfer-sales');
    await sales.waitFor({ timeout: 15_000 });
    await seller.getByTestId('transfer-sale').first().waitFor({ timeout: 15_000 });
    expect(await seller.getByTestId('transfer-sale').count()).toBe(1);
    expect(await seller.getByTestId('transfer-sale').textContent()).toContain('paula@buyers.example');
    await scrollToTop(sales);
    await picture(seller, 'sell-sales.jpg');
  });

  it('took every picture the guides show, each a 1280×800 JPEG with a 640 px copy for phones', async () => {
    const images = guideImages();
    expect(images.size).toBeGreaterThanOrEqual(12);
    for (const image of images) {
      expect(taken, `${image} is shown by a guide but no step of this file takes it`).toContain(image);
      const stat = await fs.stat(path.join(SITE_SCREENSHOTS_DIR, image));
      expect(stat.size).toBeGreaterThan(10_000);
      // Its phone-sized copy, 640 px wide and smaller.
      const small = sharp(path.join(SITE_SCREENSHOTS_DIR, smallScreenshotName(image)));
      expect((await small.metadata()).width).toBe(SCREENSHOT_SMALL_WIDTH);
      expect((await fs.stat(path.join(SITE_SCREENSHOTS_DIR, smallScreenshotName(image)))).size).toBeLessThan(
        stat.size,
      );
    }
    // And no picture is taken that no guide shows.
    for (const name of taken) expect(images, `${name} is taken but no guide shows it`).toContain(name);
  });
});
