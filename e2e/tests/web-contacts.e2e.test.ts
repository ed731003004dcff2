import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { waitFor } from '../support/files.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

const EMAIL = 'lena.brook@contacts.example';
const PASSWORD = 'amber owls read maps';

async function post(origin: string, route: string, body: unknown) {
  const res = await fetch(`${origin}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.status;
}

/** No sideways scrolling at this width; else which elements stick out. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const [scroll, sticking] = await page.evaluate((limit) => {
    const out = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((e) => e.getBoundingClientRect().right > limit + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      .slice(0, 8);
    return [Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), out] as const;
  }, width);
  expect(scroll, sticking.join('\n')).toBeLessThanOrEqual(width);
}

/** With SCREENSHOT_DIR set, a full-page screenshot there (to look at the pages; nothing is compared). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, name), fullPage: true, animations: 'disabled' });
}

describe('address book and contact groups in Chromium, on a phone-sized screen', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let dir: string;

  beforeAll(async () => {
    server = await FerryProcess.start();
    dir = await tempDir('contacts');
    expect(await post(server.url, '/api/auth/register', { email: EMAIL, password: PASSWORD })).toBe(202);
    const token = await verificationTokenFromOutbox(server.dataDir, EMAIL);
    expect(await post(server.url, '/api/auth/verify-email', { token })).toBe(200);
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('imports a CSV, groups contacts, and fills the recipient field from the book and a group', async () => {
    const page = await scenarios.newPage({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(`${server.url}/signin?next=${encodeURIComponent('/dashboard/address-book')}`);
    await page.getByTestId('signin-email').fill(EMAIL);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('page-address-book').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('contacts-auto-save').isChecked()).toBe(true);
    await page.getByTestId('contacts-empty').waitFor();

    // --- Import an awkward CSV: byte-order mark, semicolons, quotes, a bad line.
    const csv = path.join(dir, 'team.csv');
    await fs.writeFile(
      csv,
      '\uFEFFPrénom;Nom;E-mail\r\nAnna;"Lind; Jr.";anna@studio.example\r\nBen;Ortiz;ben@studio.example\r\nCleo;;cleo@other.example\r\nNo;Mail;not-an-address\r\n',
    );
    await page.getByTestId('import-file').setInputFiles(csv);
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('import-counts').textContent()).toBe(
      '3 added · 0 completed · 0 already there · 1 line skipped',
    );
    await page.getByTestId('contact-row').nth(2).waitFor();
    expect(await page.getByTestId('contact-name').allTextContents()).toEqual([
      'Anna Lind; Jr.',
      'Ben Ortiz',
      'Cleo',
    ]);
    await page.locator('details summary').click();
    expect(await page.getByTestId('import-skipped').textContent()).toContain(
      'Line 5: not a valid e-mail address',
    );
    await fitsWidth(page, 375);
    await shot(page, 'address-book-phone.png');

    // --- A group of two, made in the #my-groups tab.
    await page.getByTestId('address-book-tab-groups').click();
    expect(new URL(page.url()).hash).toBe('#my-groups');
    await page.getByTestId('group-create-name').fill('Studio');
    await page.getByTestId('group-create-submit').click();
    await page.getByTestId('group-detail-name').waitFor();
    await page.getByTestId('group-pick-search').fill('studio');
    await waitFor(async () => (await page.getByTestId('group-pick-add').count()) === 2, {
      what: 'the picker',
    });
    await page.getByRole('button', { name: 'Add Anna Lind; Jr. to Studio' }).click();
    await page.getByTestId('group-member').first().waitFor();
    await page.getByRole('button', { name: 'Add Ben Ortiz to Studio' }).click();
    await waitFor(async () => (await page.getByTestId('group-member').count()) === 2, {
      what: 'two members',
    });
    await fitsWidth(page, 375);
    await shot(page, 'contact-groups-phone.png');

    // --- The uploader: a contact by keyboard, then the group (its members, without the one already there).
    await page.goto(`${server.url}/#S1`);
    const note = path.join(dir, 'notes.txt');
    await fs.writeFile(note, 'hello');
    await page.getByTestId('file-input').setInputFiles(note);
    await page.getByTestId('next').click();
    const recipients = page.getByTestId('recipients-input');
    await recipients.click();
    await page.keyboard.type('anna');
    await page.getByTestId('recipient-suggestion').first().waitFor();
    expect(await recipients.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.getByTestId('recipient-chip').count()) === 1, { what: 'a chip' });
    await page.keyboard.type('stud');
    const group = page.getByTestId('recipient-suggestion').filter({ hasText: 'Group: Studio' });
    await group.waitFor();
    await shot(page, 'uploader-suggestions-phone.png');
    await group.click();
    await waitFor(async () => (await page.getByTestId('recipient-chip').count()) === 2, {
      what: 'the group',
    });
    expect(await page.getByTestId('recipient-chip').allTextContents()).toEqual([
      'anna@studio.example',
      'ben@studio.example',
    ]);
    expect(await page.getByTestId('recipients-group').textContent()).toBe('1 recipient added from Studio.');
    await fitsWidth(page, 375);
    await shot(page, 'uploader-recipients-from-contacts-phone.png');
  });
});
