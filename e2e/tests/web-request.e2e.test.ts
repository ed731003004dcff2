import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { registerAndVerify } from '../support/accounts.js';
import { docScreenshot, failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { sha256, waitFor, writeTree } from '../support/files.js';
import { type Mail, type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

const REQUESTER = 'ada.requester@studio.example';
const PASSWORD = 'seven lanterns over the bay';
const ASKED = 'bob.asked@clients.example';
const REQUEST_PASSWORD = 'open sesame 42';

const subjectOf = (m: Mail) => m.parsed.subject ?? '';

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

/** The text of the toasts on screen. */
async function toasts(page: Page): Promise<string[]> {
  return page.locator('.toast-message').allTextContents();
}

describe('request files (S3) in Chromium: the requester and the people who upload', () => {
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
      },
    });
    work = await tempDir('web-request');
    // The requester's account: signed up and confirmed through the link mailed to them.
    await registerAndVerify(server.url, sink, REQUESTER, PASSWORD, 'Ada');
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

  /** The requester, signed in on /signin and brought back to `next`. */
  async function requesterPage(next: string, width = 1280): Promise<Page> {
    const page = await scenarios.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${server.url}/signin?next=${encodeURIComponent(next)}`);
    await page.getByTestId('signin-email').fill(REQUESTER);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((url) => `${url.pathname}${url.hash}` === next.replace(/\?.*$/, ''), {
      timeout: 15_000,
    });
    return page;
  }

  /** The "files arrived" mail to the requester naming `uploader`, and the transfer id of its link. */
  async function uploadNotification(uploader: string): Promise<{ mail: Mail; transferId: string }> {
    const mail = await sink.waitFor(
      `the upload notification naming ${uploader}`,
      (m) => m.to.includes(REQUESTER) && subjectOf(m).includes(uploader),
      60_000,
    );
    const link = new RegExp(`${server.url}/dl/([A-Za-z0-9]{16})`).exec(mail.parsed.text ?? '');
    expect(link, 'a link to the received files').not.toBeNull();
    return { mail, transferId: link![1]! };
  }

  it('asks by e-mail (S1) with a password and PDF only; the asked person uploads; the requester downloads it', async () => {
    const dir = path.join(work, 'asked');
    const contract = Buffer.from('%PDF-1.4 signed contract, all pages\n'.repeat(3000));
    await writeTree(dir, { 'signed-contract.PDF': contract, 'holiday.jpg': 'not a pdf' });

    // A signed-out visitor is told why to sign in, and comes back to the form after.
    const visitor = await scenarios.newPage();
    await visitor.goto(`${server.url}/request-files#S1`);
    await visitor.getByTestId('request-signin').waitFor();
    expect(await visitor.getByTestId('request-signin-link').getAttribute('href')).toBe(
      `/signin?next=${encodeURIComponent('/request-files#S1')}`,
    );

    const requester = await requesterPage('/request-files#S1');
    await requester.getByTestId('recipients-input').waitFor();
    // Receive mode (spec §4): the page behind the dashboard is now the receiver.
    expect(await requester.getByTestId('type-S1').isChecked()).toBe(true);
    // Free plan: open for 7 days by default.
    expect(await requester.getByTestId('request-expiry').inputValue()).toBe('7');
    await requester.getByTestId('recipients-input').fill(ASKED);
    await requester.getByTestId('recipients-input').press('Enter');
    await requester.getByTestId('request-subject').fill('Signed contract');
    await requester
      .getByTestId('request-message')
      .fill('Hello Bob, please send the signed contract as a PDF.');
    await requester.getByTestId('request-password').fill(REQUEST_PASSWORD);
    await requester.getByTestId('request-more').click();
    await requester.getByTestId('request-extensions').fill('pdf');
    expect(await requester.getByTestId('request-preview').textContent()).toBe(
      'What they will see: Transfer files to Ada · Signed contract',
    );
    await docScreenshot(requester, 'request-files.png');
    await requester.getByTestId('request-submit').click();

    const result = requester.getByTestId('request-result');
    await result.waitFor({ timeout: 15_000 });
    expect(await result.textContent()).toBe('Request sent to 1 person');
    await waitFor(
      async () => (await requester.getByTestId('request-recipient').getAttribute('data-delivery')) === 'sent',
      { timeoutMs: 30_000, what: 'the request mail to be reported as sent' },
    );

    // Bob's personal link, in the mail, with the subject and the accepted types.
    const askMail = await sink.waitFor('the request mail to Bob', (m) => m.to.includes(ASKED));
    expect(subjectOf(askMail)).toBe('Ada asks you for files: “Signed contract”');
    expect(askMail.parsed.text).toContain('please send the signed contract as a PDF');
    const personal = new RegExp(`${server.url}/r/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+`).exec(
      askMail.parsed.text ?? '',
    );
    expect(personal, 'a personal upload link').not.toBeNull();

    // Bob, in his own browser: the limited layout, the title area of S3, the password first.
    const bob = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await bob.goto(personal![0]);
    await bob.getByTestId('receive-password-gate').waitFor({ timeout: 15_000 });
    await bob.getByTestId('limited-layout').waitFor();
    expect(await bob.getByTestId('header-signin').count()).toBe(0);
    expect(await bob.getByTestId('receive-title').textContent()).toBe('Transfer files to Ada');
    expect(await bob.getByTestId('receive-subtitle').textContent()).toBe('Signed contract');
    await bob.getByTestId('receive-password').fill('wrong one');
    await bob.getByTestId('receive-password-submit').click();
    await bob.getByTestId('receive-password-error').waitFor();
    expect(await bob.getByTestId('receive-password-error').textContent()).toBe('Wrong password.');
    await bob.getByTestId('receive-password').fill(REQUEST_PASSWORD);
    await bob.getByTestId('receive-password-submit').click();

    // Only PDF: the photo is refused with the spec's notice, the contract (any case) is taken.
    await bob.getByTestId('allowed-extensions').waitFor();
    expect(await bob.getByTestId('allowed-extensions').textContent()).toBe('Accepted file types: .pdf');
    await bob.getByTestId('file-input').setInputFiles(path.join(dir, 'holiday.jpg'));
    await waitFor(async () => (await toasts(bob)).length > 0, { what: 'the refused-file notice' });
    expect(await toasts(bob)).toContain('holiday.jpg was skipped: only these file types are allowed: pdf.');
    expect(await bob.getByTestId('next').isDisabled()).toBe(true);
    await bob.getByTestId('file-input').setInputFiles(path.join(dir, 'signed-contract.PDF'));
    await bob.getByTestId('next').click();
    // His address is known from the link: shown, not asked.
    expect(await bob.getByTestId('uploader-as').textContent()).toBe(`Sending as ${ASKED}`);
    expect(await bob.getByTestId('uploader-email').count()).toBe(0);
    await bob.getByTestId('uploader-name').fill('Bob Client');
    await bob.getByTestId('uploader-message').fill('Signed on every page.');
    await docScreenshot(bob, 'request-upload.png');
    await bob.getByTestId('start-upload').click();

    // The receipt: the file with the SHA-256 the server computed, matching his copy.
    await bob.getByTestId('receipt').waitFor({ timeout: 60_000 });
    expect(await bob.getByTestId('receipt-title').textContent()).toBe('Files sent to Ada');
    expect(await bob.getByTestId('receipt-file').getAttribute('data-name')).toBe('signed-contract.PDF');
    expect(await bob.getByTestId('receipt-sha').textContent()).toBe(sha256(contract));
    await docScreenshot(bob, 'request-receipt.png');
    expect(await bob.evaluate(() => localStorage.getItem('ferry.pendingReceive'))).toBeNull();

    // Ada is told, and the files are hers only: Bob's browser cannot open them.
    const { mail, transferId } = await uploadNotification('Bob Client');
    expect(mail.parsed.text).toContain('Signed on every page.');
    await bob.goto(`${server.url}/dl/${transferId}`);
    await bob.waitForURL(/\/d\/notfound$/, { timeout: 15_000 });

    // In her dashboard: who sent it, through which request, with the message; then the download.
    await requester.goto(`${server.url}/dashboard/transfers/${transferId}`);
    await requester.getByTestId('received-upload').waitFor({ timeout: 15_000 });
    await requester.getByTestId('received-from').filter({ hasText: 'Bob' }).waitFor();
    expect(await requester.getByTestId('received-from').textContent()).toBe(`Bob Client · ${ASKED}`);
    expect(await requester.getByTestId('received-via').textContent()).toBe('The request “Signed contract”');
    expect(await requester.getByTestId('received-message').textContent()).toBe('Signed on every page.');
    expect(await requester.getByTestId('file-sha').textContent()).toBe(sha256(contract));
    await requester.getByTestId('received-download').click();
    await requester.waitForURL(new RegExp(`/dl/${transferId}$`));
    const row = requester.locator('[data-testid^="file-row-"]', { hasText: 'signed-contract.PDF' });
    await row.waitFor({ timeout: 15_000 });
    const fileId = (await row.getAttribute('data-testid'))!.slice('file-row-'.length);
    const [download] = await Promise.all([
      requester.waitForEvent('download', { timeout: 60_000 }),
      requester.getByTestId(`download-file-${fileId}`).click(),
    ]);
    expect(download.suggestedFilename()).toBe('signed-contract.PDF');
    expect(sha256(await fs.readFile((await download.path())!))).toBe(sha256(contract));

    // Leaving to / turns receive mode off: the uploader is back behind the panel.
    await requester.goto(`${server.url}/`);
    await requester.getByTestId('dropzone').waitFor();
    expect(await requester.getByTestId('receiver-page').count()).toBe(0);
  });

  it('shares one link (S2); anyone uploads with it; /push by e-mail reaches the default inbox, at 375 px too', async () => {
    const dir = path.join(work, 'link');
    const photo = Buffer.from('JFIF photo bytes '.repeat(5000));
    const notes = Buffer.from('meeting notes\n'.repeat(200));
    await writeTree(dir, { 'photo.jpg': photo, 'notes.txt': notes });

    const requester = await requesterPage('/request-files#S2');
    await requester.getByTestId('request-subject').fill('Wedding photos');
    await requester.getByTestId('request-submit').click();
    await requester.getByTestId('request-result').waitFor({ timeout: 15_000 });
    expect(await requester.getByTestId('request-result').textContent()).toBe('Your upload link is ready');
    const link = await requester.getByTestId('request-link').inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/r/[A-Za-z0-9]{16}$`));
    await requester.getByTestId('request-qr').waitFor();
    await docScreenshot(requester, 'request-link.png');

    // A guest with the link: no password, any type; their name and address are optional.
    const guest = await scenarios.newPage();
    await guest.goto(link);
    await guest.getByTestId('dropzone').waitFor({ timeout: 15_000 });
    expect(await guest.getByTestId('receive-subtitle').textContent()).toBe('Wedding photos');
    await guest.getByTestId('file-input').setInputFiles(path.join(dir, 'photo.jpg'));
    await guest.getByTestId('next').click();
    await guest.getByTestId('uploader-name').fill('Carol Guest');
    await guest.getByTestId('uploader-email').fill('carol@guests.example');
    await guest.getByTestId('start-upload').click();
    await guest.getByTestId('receipt').waitFor({ timeout: 60_000 });
    expect(await guest.getByTestId('receipt-sha').textContent()).toBe(sha256(photo));
    await uploadNotification('Carol Guest');

    // /push needs an inbox of the account to land in: the requester's first one is their default.
    const created = await requester.evaluate(async () => {
      const res = await fetch('/api/receive/inboxes', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ slug: 'ada-studio', title: 'Ada’s studio' }),
      });
      return { status: res.status, body: await res.json() };
    });
    expect(created.status).toBe(201);
    expect(created.body.isDefault).toBe(true);
    // The inbox panel at step 1 of the uploader shows it.
    await requester.goto(`${server.url}/`);
    await requester.getByTestId('inbox-panel').waitFor({ timeout: 15_000 });
    expect(await requester.getByTestId('inbox-link-ada-studio').inputValue()).toBe(
      `${server.url}/i/ada-studio`,
    );

    // On a phone, signed out: the limited layout, the "to" field, the upload, the receipt.
    const phone = await scenarios.newPage({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await phone.goto(`${server.url}/push`);
    await phone.getByTestId('limited-layout').waitFor();
    await phone.getByTestId('push-to').fill('nobody@nowhere.example');
    await phone.getByTestId('push-to-submit').click();
    await phone.getByTestId('receive-error').waitFor({ timeout: 15_000 });
    expect(await phone.getByTestId('receive-error').textContent()).toContain('Nobody to send to');
    await phone.getByTestId('push-to-change').click();
    await phone.getByTestId('push-to').fill(REQUESTER.toUpperCase());
    await phone.getByTestId('push-to-submit').click();
    await phone.getByTestId('dropzone').waitFor({ timeout: 15_000 });
    // An inbox does not name its owner: its title says who receives.
    expect(await phone.getByTestId('receive-title').textContent()).toBe('Transfer files to Ada’s studio');
    await phone.getByTestId('file-input').setInputFiles(path.join(dir, 'notes.txt'));
    await phone.getByTestId('next').click();
    await phone.getByTestId('uploader-name').fill('Dan Pusher');
    expect(await scrollWidth(phone)).toBeLessThanOrEqual(375);
    await docScreenshot(phone, 'push-phone.png');
    await phone.getByTestId('start-upload').click();
    await phone.getByTestId('receipt').waitFor({ timeout: 60_000 });
    expect(await phone.getByTestId('receipt-sha').textContent()).toBe(sha256(notes));
    expect(await scrollWidth(phone)).toBeLessThanOrEqual(375);

    const pushed = await uploadNotification('Dan Pusher');
    await requester.goto(`${server.url}/dashboard/transfers/${pushed.transferId}`);
    await requester.getByTestId('received-via').filter({ hasText: 'push' }).waitFor({ timeout: 15_000 });
    expect(await requester.getByTestId('received-via').textContent()).toBe('Sent to your account (push)');
  });
});
