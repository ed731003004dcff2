import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { docScreenshot, failed, SCREENSHOTS_DIR, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { sha256, waitFor, writeTree } from '../support/files.js';
import { type Mail, type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

const SENDER = 'alice@sender.example';
const ANN = 'ann@recipients.example';
const BOB = 'bob@recipients.example';

const subjectOf = (m: Mail) => m.parsed.subject ?? '';
const isCodeMail = (m: Mail) => /^\d{6} /.test(subjectOf(m));

/** The recipient's personal link in a "sent you files" mail (text part). */
function personalLink(m: Mail, origin: string): string {
  const match = new RegExp(`${origin}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+`).exec(
    m.parsed.text ?? '',
  );
  expect(match, `a personal link in the mail to ${m.to.join(', ')}`).not.toBeNull();
  return match![0];
}

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

describe('send by e-mail (S1) in Chromium, against the built server and a real SMTP server', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let server: FerryProcess;
  let work: string;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await FerryProcess.start({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        DOWNLOAD_CONFIRMATION_DELAY_SECONDS: '0',
      },
    });
    work = await tempDir('web-s1');
  });

  afterEach(async (context: TestContext) => {
    if (!failed(context)) return;
    await saveArtifact(context, 'server.log', server.output);
    const mails = sink.messages.map((m) => `${m.to.join(', ')} | ${subjectOf(m)}\n${m.parsed.text ?? ''}`);
    await saveArtifact(context, 'mails.txt', mails.join('\n\n-----\n\n'));
  });

  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('verifies the sender with the mailed code, mails each recipient a personal link, and confirms a download', async () => {
    const dir = path.join(work, 'plans');
    const sources = {
      'floor-plan.pdf': Buffer.from('%PDF-1.4 floor plan of the new office\n'.repeat(2000)),
      'budget.csv': Buffer.from('item,amount\ndesks,4200\nchairs,1800\n'),
    };
    await writeTree(dir, sources);

    const sender = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await sender.goto(`${server.url}/#S1`);
    expect(await sender.getByTestId('type-S1').isChecked()).toBe(true);
    await sender
      .getByTestId('file-input')
      .setInputFiles(Object.keys(sources).map((name) => path.join(dir, name)));
    await sender.getByTestId('next').click();

    // Two recipients typed as a list, then Enter; the sender, a name and a message.
    const recipients = sender.getByTestId('recipients-input');
    await recipients.fill(`${ANN}, ${BOB}`);
    await recipients.press('Enter');
    await waitFor(async () => (await sender.getByTestId('recipient-chip').count()) === 2, {
      what: 'two recipient chips',
    });
    await sender.getByTestId('sender-email').fill(SENDER);
    await sender.getByTestId('sender-name').fill('Alice Martin');
    await sender.getByTestId('transfer-name').fill('Office plans');
    await sender.getByTestId('transfer-message').fill('Here are the plans we talked about. See you Monday!');
    expect(await sender.getByTestId('notify-download-confirmation').isChecked()).toBe(true);
    await docScreenshot(sender, 's1-options.png');
    await sender.getByTestId('start-upload').click();

    // The code goes to the sender; the page waits for it, and says so, while the upload runs or after.
    const codeMail = await sink.waitFor(
      'the verification code mail',
      (m) => m.to.includes(SENDER) && isCodeMail(m),
    );
    const code = /^(\d{6}) /.exec(subjectOf(codeMail))![1]!;
    const status = sender.getByTestId('send-status');
    await waitFor(async () => (await status.getAttribute('data-state')) === 'waiting_code', {
      timeoutMs: 60_000,
      what: 'the page to wait for the code once uploaded',
    });
    expect(await status.textContent()).toBe('Waiting for your code');
    expect(await sender.getByTestId('verification-email').textContent()).toContain(SENDER);
    // Nothing went to the recipients before the sender proved the address.
    expect(sink.to(ANN)).toHaveLength(0);
    expect(sink.to(BOB)).toHaveLength(0);
    await sender.getByTestId('verification-code').focus();
    await docScreenshot(sender, 's1-verify.png');

    await sender.getByTestId('verification-code').fill(code);
    await waitFor(async () => (await status.getAttribute('data-state')) === 'sent', {
      timeoutMs: 30_000,
      what: 'the sent step',
    });
    expect(await status.textContent()).toBe('Sent to 2 recipients');
    const rows = sender.getByTestId('recipient-status');
    await waitFor(
      async () =>
        (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-delivery')))).every(
          (d) => d === 'sent',
        ),
      { timeoutMs: 30_000, what: 'both deliveries to be reported as sent' },
    );
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-email')))).toEqual([ANN, BOB]);
    const ownLink = await sender.getByTestId('transfer-link').inputValue();
    // The sender's own link: an S1 transfer opens only with a secret, here the sender's.
    expect(ownLink).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+$`));
    const transferId = new URL(ownLink).pathname.split('/').at(-1)!;
    await docScreenshot(sender, 's1-sent.png');

    // The proof of the address is kept next to the sender's e-mail for the next transfers.
    const saved = await sender.evaluate(() => JSON.parse(localStorage.getItem('ferry.sender') ?? '{}'));
    expect(saved).toMatchObject({ email: SENDER, name: 'Alice Martin' });
    expect(saved.verifications[0]).toMatchObject({ email: SENDER });
    expect(await sender.evaluate(() => localStorage.getItem('ferry.pendingUpload'))).toBeNull();

    // Each recipient got exactly one mail, with a personal link of their own.
    const annMail = await sink.waitFor('the mail to Ann', (m) => m.to.includes(ANN));
    const bobMail = await sink.waitFor('the mail to Bob', (m) => m.to.includes(BOB));
    expect(sink.to(ANN)).toHaveLength(1);
    expect(sink.to(BOB)).toHaveLength(1);
    for (const mail of [annMail, bobMail]) {
      expect(mail.to).toHaveLength(1);
      expect(subjectOf(mail)).toContain('Alice Martin');
      expect(mail.parsed.text).toContain('Here are the plans we talked about.');
    }
    const annLink = personalLink(annMail, server.url);
    const bobLink = personalLink(bobMail, server.url);
    expect(annLink).toContain(`/dl/${transferId}?userSecret=`);
    expect(annLink).not.toBe(bobLink);

    // The mail as a recipient sees it, rendered at a mail client's usual width.
    const mailView = await scenarios.newPage({ viewport: { width: 600, height: 900 } });
    await mailView.setContent(String(annMail.parsed.html), { waitUntil: 'load' });
    await mailView.screenshot({
      path: path.join(SCREENSHOTS_DIR, 'mail-transfer-received.png'),
      fullPage: true,
    });

    // Ann opens her link: greeted by name, she downloads one file.
    const ann = await scenarios.newPage();
    await ann.goto(annLink);
    await ann.getByTestId('recipient-greeting').waitFor({ timeout: 30_000 });
    expect(await ann.getByTestId('recipient-greeting').textContent()).toBe(`Sent to you, ${ANN}`);
    const fileRow = ann.locator('[data-testid^="file-row-"]', { hasText: 'budget.csv' });
    const fileId = (await fileRow.getAttribute('data-testid'))!.slice('file-row-'.length);
    const [download] = await Promise.all([
      ann.waitForEvent('download', { timeout: 60_000 }),
      ann.getByTestId(`download-file-${fileId}`).click(),
    ]);
    expect(download.suggestedFilename()).toBe('budget.csv');
    expect(sha256(await fs.readFile((await download.path())!))).toBe(sha256(sources['budget.csv']));

    // The sender is told, naming Ann; the mail's "turn off" link leads to the web page.
    const confirmation = await sink.waitFor(
      'the download confirmation naming Ann',
      (m) => m.to.includes(SENDER) && subjectOf(m).includes(ANN),
      60_000,
    );
    expect(confirmation.parsed.text).toContain('budget.csv');
    expect(confirmation.parsed.text).not.toContain(BOB);
    const unsubscribeLink = new RegExp(`${server.url}/unsubscribe\\?token=[^\\s"<>)]+`).exec(
      confirmation.parsed.text ?? '',
    );
    expect(unsubscribeLink, 'a "turn off these e-mails" link to the web page').not.toBeNull();

    // Opening that page (as a mail scanner would) turns nothing off; the button does.
    const unsubscribe = await scenarios.newPage();
    const posts: string[] = [];
    unsubscribe.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await unsubscribe.goto(unsubscribeLink![0]);
    await unsubscribe.getByTestId('unsubscribe-confirm').waitFor();
    expect(posts).toEqual([]);
    await unsubscribe.getByTestId('unsubscribe-confirm').click();
    await unsubscribe.getByTestId('unsubscribe-result').waitFor({ timeout: 15_000 });
    expect(await unsubscribe.getByTestId('unsubscribe-result').textContent()).toBe(
      'You will no longer be told when “Office plans” is downloaded.',
    );
    expect(posts).toEqual(['/api/transfer/notifications/unsubscribe']);

    // A second transfer from the same browser and address needs no code: the kept proof is sent along.
    const codesBefore = sink.to(SENDER).filter(isCodeMail).length;
    await sender.getByTestId('send-another').click();
    await sender.getByTestId('file-input').setInputFiles(path.join(dir, 'budget.csv'));
    await sender.getByTestId('next').click();
    expect(await sender.getByTestId('sender-email').inputValue()).toBe(SENDER);
    // Reset (spec §4) emptied the recipients.
    expect(await sender.getByTestId('recipient-chip').count()).toBe(0);
    await sender.getByTestId('recipients-input').fill(BOB);
    await sender.getByTestId('start-upload').click();
    await waitFor(async () => (await status.getAttribute('data-state')) === 'sent', {
      timeoutMs: 60_000,
      what: 'the second transfer to be sent without a code',
    });
    await sink.waitFor('the second mail to Bob', () => sink.to(BOB).length === 2);
    expect(sink.to(SENDER).filter(isCodeMail)).toHaveLength(codesBefore);
  });

  it('fits a phone screen (375 px): recipients, code entry and delivery status', async () => {
    const width = 375;
    const dir = path.join(work, 'phone');
    await writeTree(dir, { 'a-rather-long-file-name-for-a-small-screen.txt': 'phone\n' });
    const page = await scenarios.newPage({
      viewport: { width, height: 812 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await page.goto(`${server.url}/#S1`);
    await page
      .getByTestId('file-input')
      .setInputFiles(path.join(dir, 'a-rather-long-file-name-for-a-small-screen.txt'));
    await page.getByTestId('next').click();
    const recipients = page.getByTestId('recipients-input');
    await recipients.fill('someone.with.a.very.long.address@recipients-with-a-long-domain.example,');
    await recipients.fill('not-an-address');
    await recipients.press('Enter');
    expect(await page.getByTestId('recipients-error').textContent()).toContain('not a valid e-mail address');
    await recipients.fill('');
    await page.getByTestId('sender-email').fill('phone.sender@sender.example');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    await docScreenshot(page, 's1-options-phone.png');

    await page.getByTestId('start-upload').click();
    await page.getByTestId('verification-code').waitFor({ timeout: 30_000 });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    const box = await page.getByTestId('verification-submit').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    // A wrong code is said to be wrong, in the page, and the transfer still waits.
    const codeMail = await sink.waitFor(
      'the phone sender code',
      (m) => m.to.includes('phone.sender@sender.example') && isCodeMail(m),
    );
    const code = /^(\d{6}) /.exec(subjectOf(codeMail))![1]!;
    await page.getByTestId('verification-code').fill(code === '000000' ? '000001' : '000000');
    await page.getByTestId('verification-error').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('verification-error').textContent()).toContain('This code is not right');
    await docScreenshot(page, 's1-verify-phone.png');

    // A reload keeps the transfer: the code can still be entered.
    await waitFor(
      async () => (await page.getByTestId('send-status').getAttribute('data-state')) === 'waiting_code',
      {
        timeoutMs: 60_000,
        what: 'the upload to finish',
      },
    );
    await page.reload();
    // Right after the reload the resume banner (with a code field of its own) shows until the server's
    // upload-state answers; then the page goes straight to the code step. Enter the code there: a code typed
    // into the banner in that instant is dropped with it.
    await waitFor(
      async () => (await page.getByTestId('send-status').getAttribute('data-state')) === 'waiting_code',
      { timeoutMs: 30_000, what: 'the code step after a reload' },
    );
    await page.getByTestId('verification-code').waitFor({ timeout: 30_000 });
    await page.getByTestId('verification-code').fill(code);
    await waitFor(async () => (await page.getByTestId('send-status').getAttribute('data-state')) === 'sent', {
      timeoutMs: 30_000,
      what: 'the sent step after a reload',
    });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
  });

  it('a link (S2) that asks downloaders for their e-mail: nothing downloads before one is given', async () => {
    const dir = path.join(work, 'gate');
    const content = Buffer.from('minutes of the meeting\n');
    await writeTree(dir, { 'minutes.txt': content });
    const sender = await scenarios.newPage();
    await sender.goto(`${server.url}/#S2`);
    await sender.getByTestId('file-input').setInputFiles(path.join(dir, 'minutes.txt'));
    await sender.getByTestId('next').click();
    expect(await sender.getByTestId('recipients-input').count()).toBe(0);
    await sender.getByTestId('force-downloader-email').check();
    await sender.getByTestId('start-upload').click();
    const link = await sender.getByTestId('transfer-link');
    await link.waitFor({ timeout: 60_000 });

    const visitor = await scenarios.newPage();
    const linkCalls: URL[] = [];
    visitor.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/transfer/downloads/link') linkCalls.push(url);
    });
    await visitor.goto(await link.inputValue());
    await visitor.getByTestId('downloader-email-form').waitFor({ timeout: 30_000 });
    expect(await visitor.getByTestId('download-all').isDisabled()).toBe(true);
    await visitor.getByTestId('downloader-email').fill('visitor@example.org');
    await visitor.getByTestId('downloader-email-submit').click();
    const row = visitor.locator('[data-testid^="file-row-"]');
    const fileId = (await row.getAttribute('data-testid'))!.slice('file-row-'.length);
    const [download] = await Promise.all([
      visitor.waitForEvent('download', { timeout: 60_000 }),
      visitor.getByTestId(`download-file-${fileId}`).click(),
    ]);
    expect(await fs.readFile((await download.path())!)).toEqual(content);
    expect(linkCalls.map((u) => u.searchParams.get('downloaderEmail'))).toEqual(['visitor@example.org']);
  });
});
