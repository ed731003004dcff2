import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { artifactBase, failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { runFerry } from '../support/cli.js';
import { writeRandomFile } from '../support/files.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 23 (customization) in Chromium against the built server: an operator gives an account a team plan; its
 * manager uploads a logo and picks colours on /dashboard/customization, watching the live preview; a member's
 * uploader and the download page of the member's transfer (opened by anyone) then wear those colours. The page
 * fits a phone. Screenshots go to e2e/test-results.
 */
const PASSWORD = 'lighthouse keeps the colours';
const OPERATOR = 'ops@ferry-custom.example';
const MANAGER = 'maria@custom.example';
const MEMBER = 'mats@custom.example';
const ACTION = '#1b5e20';
const BACKGROUND = '#263238';
const START = '#ffab00';
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

async function registerAndVerify(origin: string, sink: MailSink, email: string): Promise<void> {
  const registered = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(registered.status).toBe(202);
  const mail = await sink.waitFor(`the verification mail of ${email}`, (m) => m.to.includes(email));
  const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1];
  const verified = await fetch(`${origin}/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(verified.status).toBe(200);
}

async function signInInPage(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/signin`);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(PASSWORD);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 15_000 });
}

const backgroundOf = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

/** The elements that reach past the window's right edge (said when a page scrolls sideways). */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 8)
      .map(
        (el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`,
      ),
  );

describe('a team theme, in Chromium', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let server: FerryProcess;
  let work: string;

  beforeAll(async () => {
    sink = await startMailSink();
    work = await tempDir('customization');
    server = await FerryProcess.start({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        OPERATOR_EMAILS: OPERATOR,
      },
    });
  });

  afterEach(async (context: TestContext) => {
    if (!failed(context)) return;
    await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it("a manager's logo and colours reach the member's uploader and the download page of the member's transfer", async (context) => {
    const shot = async (page: Page, name: string) =>
      page.screenshot({
        path: `${await artifactBase(context)}-${name}.png`,
        fullPage: true,
        animations: 'disabled',
      });
    await registerAndVerify(server.url, sink, OPERATOR);
    await registerAndVerify(server.url, sink, MANAGER);
    const ops = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'ops-state'), FERRY_SERVER: server.url });
    expect((await ops(['login', '--email', OPERATOR, '--password', PASSWORD])).code).toBe(0);
    const plan = await ops(['operator', 'set-plan', MANAGER, 'TEAM10']);
    expect(plan.code, plan.stderr).toBe(0);

    // Maria invites Mats, who joins from the mailed link.
    const managerContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const manager = await managerContext.newPage();
    await signInInPage(manager, server.url, MANAGER);
    const invited = await manager.evaluate(async (email) => {
      const me = await (await fetch('/api/auth/me')).json();
      const res = await fetch(`/api/user/teams/${me.user.uid}/invitations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ emails: [email] }),
      });
      return res.status;
    }, MEMBER);
    expect(invited).toBe(200);
    const invitation = await sink.waitFor('the invitation mail', (m) => m.to.includes(MEMBER));
    const token = /join\?token=([A-Za-z0-9_-]+)/.exec(invitation.parsed.text ?? '')?.[1];
    const accepted = await fetch(`${server.url}/api/user/team-invitations/accept`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, password: PASSWORD, firstname: 'Mats' }),
    });
    expect(accepted.status).toBe(200);

    // Maria uploads a logo and picks three colours; the preview follows as she types.
    await manager.goto(`${server.url}/dashboard/customization`);
    await manager.getByTestId('page-dashboard-customization').waitFor();
    const logo = path.join(work, 'logo.png');
    await sharp({ create: { width: 400, height: 120, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: await sharp({ create: { width: 300, height: 80, channels: 3, background: ACTION } })
            .png()
            .toBuffer(),
          left: 50,
          top: 20,
        },
      ])
      .png()
      .toFile(logo);
    await manager.getByTestId('upload-logo-input').setInputFiles(logo);
    await manager.getByTestId('asset-logo').waitFor({ timeout: 15_000 });
    expect(await manager.getByTestId('theme-preview-band').locator('img').count()).toBe(1);
    // An action colour white text cannot be read on is refused, on the page as on the server.
    await manager.getByTestId('color-actionColor-input').fill('#ffeb3b');
    await manager.locator('[data-testid="color-actionColor"] .field-error').waitFor();
    expect(await manager.getByTestId('customization-save').isDisabled()).toBe(true);
    await manager.getByTestId('color-actionColor-input').fill(ACTION);
    await manager.getByTestId('color-backgroundColor-input').fill(BACKGROUND);
    await manager.getByTestId('color-startbtnColor-input').fill(START);
    expect(await backgroundOf(manager, 'theme-preview-action')).toBe(rgb(ACTION));
    expect(await backgroundOf(manager, 'theme-preview-band')).toBe(rgb(BACKGROUND));
    expect(await backgroundOf(manager, 'theme-preview-start')).toBe(rgb(START));
    await manager.getByTestId('field-subject').fill('Send your files to Maria & Co');
    await shot(manager, 'customization-page');
    await manager.getByTestId('customization-save').click();
    await manager.waitForFunction(
      () =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-action').trim() === '#1b5e20',
      null,
      { timeout: 15_000 },
    );
    expect(await manager.getByTestId('customization-save').isDisabled()).toBe(true);
    // The page fits a phone.
    await manager.setViewportSize({ width: 375, height: 800 });
    await manager.reload();
    await manager.getByTestId('theme-preview').waitFor();
    expect(await scrollWidth(manager), (await overflowing(manager)).join('\n')).toBeLessThanOrEqual(375);
    await shot(manager, 'customization-phone');

    // Mats's uploader wears the team's logo, title and colours.
    const memberContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const member = await memberContext.newPage();
    await signInInPage(member, server.url, MEMBER);
    await member.goto(`${server.url}/#S2`);
    await member.getByTestId('theme-logo').waitFor({ timeout: 15_000 });
    expect(await member.locator('.welcome-title').textContent()).toBe('Send your files to Maria & Co');
    const source = path.join(work, 'plans.bin');
    await writeRandomFile(source, 50_000);
    await member.getByTestId('file-input').setInputFiles([source]);
    expect(await backgroundOf(member, 'next')).toBe(rgb(ACTION));
    await member.getByTestId('next').click();
    expect(await backgroundOf(member, 'start-upload')).toBe(rgb(START));
    await shot(member, 'uploader');
    await member.getByTestId('start-upload').click();
    const link = member.getByTestId('transfer-link');
    await link.waitFor({ timeout: 120_000 });
    const url = await link.inputValue();

    // Anyone opening the transfer sees the sender's team branding.
    const visitorContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const visitor = await visitorContext.newPage();
    await visitor.goto(url);
    await visitor.getByTestId('download-all').waitFor({ timeout: 30_000 });
    await visitor.getByTestId('theme-logo').waitFor();
    expect(await backgroundOf(visitor, 'download-all')).toBe(rgb(START));
    expect(
      await visitor.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim(),
      ),
    ).toBe(BACKGROUND);
    await shot(visitor, 'download-page');
    await visitor.setViewportSize({ width: 375, height: 800 });
    expect(await scrollWidth(visitor), (await overflowing(visitor)).join('\n')).toBeLessThanOrEqual(375);

    // Maria's upload inbox, which sets no colours of its own, wears the team's.
    const slug = `maria-${process.pid}`;
    const created = await manager.evaluate(
      async (body) =>
        (
          await fetch('/api/receive/inboxes', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).status,
      { slug, title: 'Files for Maria' },
    );
    expect(created).toBe(201);
    await visitor.setViewportSize({ width: 1280, height: 900 });
    await visitor.goto(`${server.url}/i/${slug}`);
    const frame = visitor.getByTestId('limited-layout');
    await frame.waitFor({ timeout: 30_000 });
    await visitor.waitForFunction(
      (expected) =>
        getComputedStyle(document.querySelector('[data-testid="limited-layout"]')!)
          .getPropertyValue('--color-primary')
          .trim()
          .toLowerCase() === expected,
      BACKGROUND.toLowerCase(),
      { timeout: 15_000 },
    );
    expect(
      await frame.evaluate((el) =>
        getComputedStyle(el).getPropertyValue('--color-start').trim().toLowerCase(),
      ),
    ).toBe(START.toLowerCase());
    await shot(visitor, 'inbox-page');
  });
});
