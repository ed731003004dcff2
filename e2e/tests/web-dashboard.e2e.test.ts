import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { registerAndVerify } from '../support/accounts.js';
import { docScreenshot, failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { sha256, waitFor } from '../support/files.js';
import { type Mail, type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 5, the dashboard, as a signed-in sender uses it: contacts and a contact group in the address book, a
 * transfer sent to the group from the uploader, a recipient's download in the transfer's timeline, a new expiry
 * date, the transfer disabled (its links stop working), and a clone sent as a link.
 */

const SENDER = 'maya.lund@dashboard.example';
const PASSWORD = 'seven quiet harbours glow';
const ANN = 'ann.berg@studio.example';
const BOB = 'bob.ortiz@studio.example';
const GROUP = 'Studio';
const TRANSFER_NAME = 'Studio floor plans';
const CLONE_NAME = 'Plans for the builders';
const FILE_NAME = 'floor-plan.pdf';
const FILE = Buffer.from('%PDF-1.4 the studio, ground floor and mezzanine\n'.repeat(800));
const DAY_MS = 86_400_000;
const PHONE = 375;

const subjectOf = (m: Mail) => m.parsed.subject ?? '';

/** The recipient's personal link in a "sent you files" mail (text part). */
function personalLink(m: Mail, origin: string): string {
  const match = new RegExp(`${origin}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+`).exec(
    m.parsed.text ?? '',
  );
  expect(match, `a personal link in the mail to ${m.to.join(', ')}`).not.toBeNull();
  return match![0];
}

/** No sideways scrolling at this width; else which elements stick out. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const [scroll, sticking] = await page.evaluate((limit) => {
    const out = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((e) => e.getBoundingClientRect().right > limit + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
      .slice(0, 8);
    return [Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), out] as const;
  }, width);
  expect(scroll, sticking.join('\n')).toBeLessThanOrEqual(width);
}

async function withinWidth(locator: Locator, width: number): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5);
}

/** The history of the transfer detail page, newest first, as its labels. */
function history(page: Page): Promise<string[]> {
  return page.getByTestId('transfer-event').locator('strong').allTextContents();
}

/** One recipient's entry (address and timeline) on the transfer detail page. */
function recipientEntry(page: Page, email: string): Locator {
  return page
    .getByTestId('transfer-recipient')
    .filter({ has: page.getByTestId('recipient-email').getByText(email, { exact: true }) });
}

/** Clicks a file's download button on a download page; the bytes, and the signed URL the page was given. */
async function downloadFile(page: Page, name: string): Promise<{ bytes: Buffer; url: string }> {
  const row = page.locator('[data-testid^="file-row-"]', { hasText: name });
  await row.waitFor({ timeout: 30_000 });
  const fileId = (await row.getAttribute('data-testid'))!.slice('file-row-'.length);
  const [download, linkResponse] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/transfer/downloads/link'),
    page.getByTestId(`download-file-${fileId}`).click(),
  ]);
  expect(linkResponse.status()).toBe(200);
  expect(await download.failure()).toBeNull();
  expect(download.suggestedFilename()).toBe(name);
  const { url } = (await linkResponse.json()) as { url: string };
  return { bytes: await fs.readFile((await download.path())!), url };
}

describe('the dashboard in Chromium: contact groups, a transfer’s timeline, expiry, disable and clone', () => {
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
    work = await tempDir('web-dashboard');
    // The account is setup, not the point: registered by the API, confirmed by the mailed link's token.
    await registerAndVerify(server.url, sink, SENDER, PASSWORD);
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

  it('sends to a contact group, follows a download, changes the expiry, disables the transfer and clones it', async () => {
    const origin = server.url;
    const sender = await scenarios.newPage({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      timezoneId: 'UTC',
    });

    // --- Sign in, landing in the address book.
    await sender.goto(`${origin}/signin?next=${encodeURIComponent('/dashboard/address-book')}`);
    await sender.getByTestId('signin-email').fill(SENDER);
    await sender.getByTestId('signin-password').fill(PASSWORD);
    await sender.getByTestId('signin-submit').click();
    await sender.getByTestId('page-address-book').waitFor({ timeout: 15_000 });

    // --- 1. Two contacts: Ann typed in the form, Bob imported from a small CSV file.
    await sender.getByRole('button', { name: 'Add a contact' }).click();
    const form = sender.getByTestId('contact-add');
    await form.getByLabel('E-mail address').fill(ANN);
    await form.getByLabel('Name').fill('Ann Berg');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await sender.getByTestId('contact-name').getByText('Ann Berg', { exact: true }).waitFor();

    const csv = path.join(work, 'builders.csv');
    await fs.writeFile(csv, `Name,E-mail\r\nBob Ortiz,${BOB}\r\n`);
    await sender.getByLabel('File', { exact: true }).setInputFiles(csv);
    await sender.getByRole('button', { name: 'Import', exact: true }).click();
    await sender.getByTestId('import-result').waitFor();
    expect(await sender.getByTestId('import-counts').textContent()).toBe(
      '1 added · 0 completed · 0 already there · 0 lines skipped',
    );
    await waitFor(async () => (await sender.getByTestId('contact-row').count()) === 2, {
      what: 'both contacts listed',
    });
    expect((await sender.getByTestId('contact-name').allTextContents()).sort()).toEqual([
      'Ann Berg',
      'Bob Ortiz',
    ]);

    // --- A group with both, made in the "My groups" tab (#my-groups).
    await sender.getByRole('tab', { name: 'My groups' }).click();
    await sender.waitForURL((url) => url.hash === '#my-groups');
    const groups = sender.locator('#my-groups');
    await groups.getByLabel('New group').fill(GROUP);
    await groups.getByRole('button', { name: 'Create', exact: true }).click();
    await groups.getByTestId('group-detail-name').getByText(GROUP, { exact: true }).waitFor();
    for (const name of ['Ann Berg', 'Bob Ortiz']) {
      const add = groups.getByRole('button', { name: `Add ${name} to ${GROUP}` });
      await add.click();
      await add.waitFor({ state: 'detached' });
    }
    const members = groups.getByRole('list', { name: `Members of ${GROUP}` }).getByRole('listitem');
    await waitFor(async () => (await members.count()) === 2, { what: 'two members in the group' });
    expect((await members.allTextContents()).join('\n')).toContain(ANN);
    expect((await members.allTextContents()).join('\n')).toContain(BOB);
    const groupItem = groups.getByRole('list', { name: 'Your groups' }).getByRole('button', { name: GROUP });
    await waitFor(async () => (await groupItem.textContent())?.includes('2 members'), {
      what: 'the group listed with 2 members',
    });

    // The contacts now carry the group; the picture of the address book is taken there.
    await sender.getByRole('tab', { name: 'Contacts' }).click();
    const inGroup = sender
      .getByRole('list', { name: 'Groups', exact: true })
      .getByText(GROUP, { exact: true });
    await waitFor(async () => (await inGroup.count()) === 2, {
      what: 'both contacts shown in the group',
    });
    await docScreenshot(sender, 'dashboard-address-book.png');

    // The same group on /dashboard/contact-groups.
    await sender.goto(`${origin}/dashboard/contact-groups`);
    await sender.getByTestId('page-contact-groups').waitFor();
    await sender
      .getByRole('list', { name: 'Your groups' })
      .getByRole('button', { name: GROUP })
      .filter({ hasText: '2 members' })
      .waitFor();

    // --- 2. The uploader: the group's name in the recipient field, chosen, brings both addresses.
    await sender.goto(`${origin}/#S1`);
    await sender.getByTestId('file-input').setInputFiles({
      name: FILE_NAME,
      mimeType: 'application/pdf',
      buffer: FILE,
    });
    await sender.getByTestId('next').click();
    const recipients = sender.getByRole('combobox', { name: 'Send to' });
    await recipients.click();
    await sender.keyboard.type('Stud');
    const option = sender.getByRole('option', { name: `Group: ${GROUP}` });
    await option.waitFor();
    expect(await option.textContent()).toContain('2 members');
    await option.click();
    await waitFor(async () => (await sender.getByTestId('recipient-chip').count()) === 2, {
      what: 'the group’s two members as recipients',
    });
    expect((await sender.getByTestId('recipient-chip').allTextContents()).sort()).toEqual([ANN, BOB]);
    expect(await sender.getByTestId('recipients-group').textContent()).toBe(
      `2 recipients added from ${GROUP}.`,
    );
    // Signed in, the sender is the account: no code to ask for.
    expect(await sender.getByTestId('sender-email').inputValue()).toBe(SENDER);
    await sender.getByTestId('transfer-name').fill(TRANSFER_NAME);
    await sender.getByTestId('start-upload').click();
    const status = sender.getByTestId('send-status');
    await waitFor(async () => (await status.getAttribute('data-state')) === 'sent', {
      timeoutMs: 60_000,
      what: 'the transfer to be sent',
    });
    expect(sink.to(SENDER).filter((m) => /^\d{6} /.test(subjectOf(m)))).toHaveLength(0);
    const annMail = await sink.waitFor('the mail to Ann', (m) => m.to.includes(ANN));
    const bobMail = await sink.waitFor('the mail to Bob', (m) => m.to.includes(BOB));
    const annLink = personalLink(annMail, origin);
    expect(annLink).not.toBe(personalLink(bobMail, origin));
    const transferId = new URL(annLink).pathname.split('/').at(-1)!;

    // --- 3. Ann, in her own browser, not signed in, downloads the file from her mail's link.
    const ann = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await ann.goto(annLink);
    await ann.getByTestId('recipient-greeting').waitFor({ timeout: 30_000 });
    const first = await downloadFile(ann, FILE_NAME);
    expect(sha256(first.bytes)).toBe(sha256(FILE));

    // --- 4. The sender finds the transfer in the list and opens it: Ann downloaded, Bob did not.
    await sender.goto(`${origin}/dashboard/transfers`);
    await sender.getByRole('link', { name: TRANSFER_NAME }).click();
    await sender.waitForURL(`${origin}/dashboard/transfers/${transferId}`);
    await sender.getByTestId('transfer-title').getByText(TRANSFER_NAME).waitFor();
    const annTimeline = recipientEntry(sender, ANN).getByTestId('recipient-timeline');
    await waitFor(
      async () => {
        if ((await annTimeline.locator('li[data-kind="downloaded"]').count()) > 0) return true;
        await sender.reload();
        await sender.getByTestId('transfer-title').waitFor();
        return false;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'Ann’s download in her timeline' },
    );
    expect(await annTimeline.locator('li[data-kind="downloaded"]').first().textContent()).toMatch(
      /^Downloaded 1 file \(/,
    );
    const bobTimeline = recipientEntry(sender, BOB).getByTestId('recipient-timeline');
    expect(await bobTimeline.locator('li').count()).toBeGreaterThan(0);
    expect(await bobTimeline.locator('li[data-kind="downloaded"]').count()).toBe(0);
    expect(await bobTimeline.textContent()).not.toContain('Downloaded');
    const summary = sender.getByTestId('transfer-summary');
    expect(await summary.textContent()).toContain('1 download');

    // --- 5. A new expiry date, three days from today (within the free plan's 7 days from creation).
    const newDay = new Date(Date.now() + 3 * DAY_MS).toISOString().slice(0, 10);
    const shown = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${newDay}T12:00:00Z`),
    );
    expect(await summary.textContent()).not.toContain(`until ${shown}`);
    const expiry = sender.getByTestId('expiry-form');
    await expiry.getByLabel('Available until').fill(newDay);
    await expiry.getByRole('button', { name: 'Save' }).click();
    await sender.getByTestId('toast').getByText('Expiry date changed.').waitFor();
    await waitFor(async () => (await summary.textContent())?.includes(`until ${shown}`), {
      what: `the new expiry date (${shown}) in the summary`,
    });
    expect((await history(sender))[0]).toBe('Expiry date changed');

    // --- 6. Disabled: Ann's link leads nowhere any more, nor does the signed URL she was given.
    await sender.getByRole('button', { name: 'Disable', exact: true }).click();
    await sender.getByTestId('toast').getByText('Transfer disabled.').waitFor();
    await sender.getByRole('button', { name: 'Enable', exact: true }).waitFor();
    expect(await summary.textContent()).toContain(' · disabled · ');
    expect((await history(sender))[0]).toBe('Disabled');

    await ann.reload();
    await ann.getByTestId('page-transfer-not-found').waitFor({ timeout: 30_000 });
    expect(new URL(ann.url()).pathname).toBe('/d/notfound');
    expect(await ann.getByTestId('page-transfer-not-found').textContent()).toContain('disabled');
    const blob = await ann.context().request.get(first.url, { failOnStatusCode: false });
    expect(blob.status()).toBeGreaterThanOrEqual(400);
    expect(blob.status()).toBeLessThan(500);
    expect((await blob.body()).includes(FILE.subarray(0, 64))).toBe(false);

    // --- 7. Cloned as a link (S2): the clone opens, copying at first, then available with the same bytes.
    await sender.getByRole('button', { name: 'Clone', exact: true }).click();
    const dialog = sender.getByRole('dialog', { name: 'Clone this transfer' });
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill(CLONE_NAME);
    await dialog.getByRole('radio', { name: 'By link' }).check();
    expect(await dialog.getByLabel('Recipients (e-mail addresses)').count()).toBe(0);
    // The clone is CLONING when created: the page must say so at least once, however quick the copy is.
    await sender.evaluate(() => {
      const seen = { cloning: false };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="transfer-cloning"]')) seen.cloning = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    const [cloneResponse] = await Promise.all([
      sender.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith(`/transfers/${transferId}/clone`),
      ),
      dialog.getByRole('button', { name: 'Clone', exact: true }).click(),
    ]);
    expect(cloneResponse.status()).toBe(201);
    const clone = (await cloneResponse.json()) as { transferId: string; status: string; type: string };
    expect(clone).toMatchObject({ status: 'CLONING', type: 'S2' });
    await sender.waitForURL(`${origin}/dashboard/transfers/${clone.transferId}`);
    await sender.getByTestId('transfer-title').getByText(CLONE_NAME).waitFor();
    await waitFor(async () => (await summary.textContent())?.includes(' · enabled · '), {
      what: 'the clone to be available',
    });
    expect(await sender.getByTestId('transfer-cloning').count()).toBe(0);
    expect(
      await sender.evaluate(() => (window as unknown as { __seen: { cloning: boolean } }).__seen),
    ).toEqual({ cloning: true });
    expect(await summary.textContent()).toMatch(/^By link · enabled · /);
    const cloneLink = await sender.getByRole('textbox', { name: 'Download link' }).inputValue();
    expect(cloneLink).toBe(`${origin}/dl/${clone.transferId}`);

    // Ann is sent the new link (by other means): it works in her browser.
    await ann.goto(cloneLink);
    const again = await downloadFile(ann, FILE_NAME);
    expect(sha256(again.bytes)).toBe(sha256(FILE));

    // The source says it was cloned; it stays disabled.
    await sender.getByRole('link', { name: 'Cloned from another transfer' }).click();
    await sender.waitForURL(`${origin}/dashboard/transfers/${transferId}`);
    await sender.getByTestId('transfer-title').getByText(TRANSFER_NAME).waitFor();
    await waitFor(async () => (await history(sender))[0] === 'Cloned', { what: 'CLONED in the history' });
    expect(await history(sender)).toEqual(
      expect.arrayContaining(['Cloned', 'Disabled', 'Expiry date changed', 'Created']),
    );
    expect(await summary.textContent()).toContain(' · disabled · ');
    await docScreenshot(sender, 'dashboard-transfer-detail.png');

    // --- 8. The detail page on a phone: no sideways scrolling, its actions within reach.
    await sender.setViewportSize({ width: PHONE, height: 812 });
    await sender.getByTestId('transfer-title').waitFor();
    await fitsWidth(sender, PHONE);
    await withinWidth(sender.getByRole('button', { name: 'Enable', exact: true }), PHONE);
    await withinWidth(sender.getByTestId('expiry-form').getByRole('button', { name: 'Save' }), PHONE);
    await withinWidth(recipientEntry(sender, ANN), PHONE);
    await withinWidth(sender.getByRole('button', { name: 'Clone', exact: true }), PHONE);
  });
});
