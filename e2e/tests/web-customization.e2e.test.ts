import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { registerAndVerify, signInInPage } from '../support/accounts.js';
import { artifactBase, failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { lines, runFerry } from '../support/cli.js';
import { writeRandomFile } from '../support/files.js';
import { type ForeignSite, startForeignSite } from '../support/foreign-site.js';
import { type Mail, type MailSink, startMailSink } from '../support/mail.js';
import { colorShare, decodePicture, differentShare, type Picture } from '../support/screenshots.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 23 (customization) in Chromium against the built server: an operator gives an account a team plan; its
 * manager uploads a logo and a mail header and picks colours on /dashboard/customization, watching the live
 * preview. Every surface the theme names is pictured with Ferry's own look before the manager saves it, and again
 * after: a member's uploader, the download page of the member's transfer, the manager's file request (/r/{id}) and
 * upload inbox (/i/{slug}), a widget of that inbox embedded with widget.js in another site's page, the e-mail of a
 * transfer sent by e-mail and the received-files mail of an upload into the request (their HTML, rendered in
 * Chromium). The pictures are compared: the themed one shows the theme's colours where the theme puts them, the
 * default one does not, and the two differ. The page fits a phone. Screenshots go to e2e/test-results.
 */
const PASSWORD = 'lighthouse keeps the colours';
const OPERATOR = 'ops@ferry-custom.example';
const MANAGER = 'maria@custom.example';
const MEMBER = 'mats@custom.example';
const ACTION = '#1b5e20';
const BACKGROUND = '#5d4037';
const START = '#ffab00';
/** The colour of the mail header image the manager uploads. */
const MAIL_HEADER = '#00838f';
const VIEWPORT = { width: 1280, height: 900 };
/** Mails are read in a narrower window, as in a mail client's reading pane. */
const MAIL_VIEWPORT = { width: 720, height: 900 };
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

type Look = 'default' | 'themed';

/** A window's picture, and pictures of some elements of the page (scrolled to when below the fold). */
interface Shot {
  picture: Picture;
  parts: Record<string, Picture>;
}

/** What a themed picture must show, compared with the default one: `color` in `part` (or the whole window). */
interface ColorCheck {
  color: string;
  part?: string;
  /** The themed picture has at least this share of pixels near `color`… */
  themedAtLeast: number;
  /** …and the default one at most this. */
  defaultAtMost: number;
}

const backgroundOf = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);

/**
 * Waits for a computed colour to become `expected`: buttons ease from Ferry's colours to the theme's (a CSS
 * transition) once the theme has been read.
 */
async function settled(read: () => Promise<string>, expected: string): Promise<void> {
  await expect.poll(read, { timeout: 10_000 }).toBe(expected);
}

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

/** A PNG of `width × height` in `background` with a centred block of `block` (a logo, a header image). */
async function pictureFile(
  file: string,
  size: { width: number; height: number },
  background: string,
  block: string,
): Promise<void> {
  const inner = { width: Math.round(size.width * 0.6), height: Math.round(size.height * 0.5) };
  await sharp({ create: { ...size, channels: 3, background } })
    .composite([
      {
        input: await sharp({ create: { ...inner, channels: 3, background: block } })
          .png()
          .toBuffer(),
        left: Math.round((size.width - inner.width) / 2),
        top: Math.round((size.height - inner.height) / 2),
      },
    ])
    .png()
    .toFile(file);
}

describe('a team theme, in Chromium', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let server: FerryProcess;
  let site: ForeignSite;
  let work: string;
  const sitePages = new Map<string, string>();

  beforeAll(async () => {
    sink = await startMailSink();
    work = await tempDir('customization');
    site = await startForeignSite(sitePages);
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
    await site?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('a theme on every surface, pictured before and after', async (context) => {
    const base = await artifactBase(context);
    const shot = async (page: Page, name: string) =>
      page.screenshot({ path: `${base}-${name}.png`, fullPage: true, animations: 'disabled' });
    /**
     * The window's picture from the top (the same size for both looks, so they compare), then each of `parts`.
     * The pointer is moved out of the way first: a button under it would show its hover colour.
     */
    const capture = async (page: Page, name: string, parts: Record<string, Locator> = {}): Promise<Shot> => {
      const size = page.viewportSize()!;
      await page.mouse.move(size.width - 4, size.height - 4);
      await page.evaluate(() => window.scrollTo(0, 0));
      const png = await page.screenshot({ path: `${base}-${name}.png`, animations: 'disabled' });
      const pictures: Record<string, Picture> = {};
      for (const [part, locator] of Object.entries(parts))
        pictures[part] = await decodePicture(
          await locator.screenshot({ path: `${base}-${name}-${part}.png`, animations: 'disabled' }),
        );
      return { picture: await decodePicture(png), parts: pictures };
    };
    const shots: Record<string, Partial<Record<Look, Shot>>> = {};
    const keep = (surface: string, look: Look, s: Shot) => {
      shots[surface] = { ...shots[surface], [look]: s };
    };

    await registerAndVerify(server.url, sink, OPERATOR, PASSWORD);
    await registerAndVerify(server.url, sink, MANAGER, PASSWORD);
    const ops = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'ops-state'), FERRY_SERVER: server.url });
    const maria = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'maria-state'), FERRY_SERVER: server.url });
    expect((await ops(['login', '--email', OPERATOR, '--password', PASSWORD])).code).toBe(0);
    const plan = await ops(['operator', 'set-plan', MANAGER, 'TEAM10']);
    expect(plan.code, plan.stderr).toBe(0);
    const login = await maria(['login', '--email', MANAGER, '--password', PASSWORD]);
    expect(login.code, login.stderr).toBe(0);

    // Maria invites Mats, who joins from the mailed link.
    const managerContext = await scenarios.newContext({ viewport: VIEWPORT });
    const manager = await managerContext.newPage();
    await signInInPage(manager, server.url, MANAGER, PASSWORD);
    const api = (method: string, route: string, body?: unknown) =>
      manager.evaluate(
        async (call) => {
          const res = await fetch(call.route, {
            method: call.method,
            headers: call.body === undefined ? {} : { 'Content-Type': 'application/json' },
            body: call.body === undefined ? undefined : JSON.stringify(call.body),
          });
          return { status: res.status, body: await res.json().catch(() => null) };
        },
        { method, route, body },
      );
    const me = await api('GET', '/api/auth/me');
    const invited = await api('POST', `/api/user/teams/${me.body.user.uid}/invitations`, {
      emails: [MEMBER],
    });
    expect(invited.status).toBe(200);
    const invitation = await sink.waitFor('the invitation mail', (m) => m.to.includes(MEMBER));
    const token = /join\?token=([A-Za-z0-9_-]+)/.exec(invitation.parsed.text ?? '')?.[1];
    const accepted = await fetch(`${server.url}/api/user/team-invitations/accept`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, password: PASSWORD, firstname: 'Mats' }),
    });
    expect(accepted.status).toBe(200);

    // Maria's receive points, none with colours of its own: an upload inbox, a widget of it, a file request.
    const slug = `maria-${process.pid}`;
    const inbox = await api('POST', '/api/receive/inboxes', { slug, title: 'Files for Maria' });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
    const widget = await api('POST', `/api/receive/inboxes/${inbox.body.inboxId}/widgets`, {
      name: 'Studio site',
    });
    expect(widget.status, JSON.stringify(widget.body)).toBe(201);
    const request = await api('POST', '/api/receive/requests', { subject: 'Plans for the new office' });
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    const requestLink = request.body.link as string;
    expect(requestLink).toMatch(/\/r\/[A-Za-z0-9]+$/);
    // Another site pastes the widget's line as it is.
    sitePages.set(
      '/',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Maria &amp; Co — send us files</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-family:Georgia,serif;background:#f6f1e7;color:#2b2118">
<header style="padding:24px 32px;background:#e8e0d0"><strong>Maria &amp; Co</strong> · Architects</header>
<main style="display:grid;grid-template-columns:minmax(0,1fr) 420px;gap:32px;padding:32px;max-width:1100px">
<section><h1>Send us your plans</h1><p>The form goes straight to our studio.</p></section>
<aside>${widget.body.snippet}</aside></main></body></html>`,
    );

    const memberContext = await scenarios.newContext({ viewport: VIEWPORT });
    const member = await memberContext.newPage();
    await signInInPage(member, server.url, MEMBER, PASSWORD);
    const visitorContext = await scenarios.newContext({ viewport: VIEWPORT });
    const visitor = await visitorContext.newPage();
    const reader = await (await scenarios.newContext({ viewport: MAIL_VIEWPORT })).newPage();
    const source = path.join(work, 'plans.bin');
    await writeRandomFile(source, 50_000);
    const seen = new Set<Mail>();
    /** The first mail not taken before that `predicate` accepts. */
    const nextMail = async (what: string, predicate: (m: Mail) => boolean) => {
      const mail = await sink.waitFor(what, (m) => !seen.has(m) && predicate(m), 60_000);
      seen.add(mail);
      return mail;
    };
    /** A mail's HTML as a mail client shows it, its images fetched from the server. */
    const readMail = async (mail: Mail, name: string) => {
      expect(mail.parsed.html, `${name}: an HTML part`).toBeTruthy();
      await reader.setContent(String(mail.parsed.html), { waitUntil: 'load' });
      const broken = await reader.evaluate(() =>
        Array.from(document.images)
          .filter((i) => !i.complete || i.naturalWidth === 0)
          .map((i) => i.src),
      );
      expect(broken, `${name}: images that did not load`).toEqual([]);
      return capture(reader, name);
    };
    let transferUrl = '';

    /** Every surface, pictured as it looks now. */
    const pictureSurfaces = async (look: Look) => {
      // Mats's uploader, a file chosen, at the step with the start button (loaded anew: its theme is read once).
      await member.goto('about:blank');
      await member.goto(`${server.url}/#S2`);
      if (look === 'themed') {
        await member.getByTestId('theme-logo').waitFor({ timeout: 15_000 });
        expect(await member.locator('.welcome-title').textContent()).toBe('Send your files to Maria & Co');
      }
      await member.getByTestId('file-input').setInputFiles([source]);
      if (look === 'themed') await settled(() => backgroundOf(member, 'next'), rgb(ACTION));
      await member.getByTestId('next').click();
      await member.getByTestId('start-upload').waitFor();
      if (look === 'themed') await settled(() => backgroundOf(member, 'start-upload'), rgb(START));
      keep(
        'uploader',
        look,
        await capture(member, `uploader-${look}`, {
          start: member.getByTestId('start-upload'),
          header: member.locator('.app-header'),
        }),
      );
      if (look === 'default') {
        await member.getByTestId('start-upload').click();
        const link = member.getByTestId('transfer-link');
        await link.waitFor({ timeout: 120_000 });
        transferUrl = await link.inputValue();
      }

      // The download page of Mats's transfer, opened by anyone.
      await visitor.goto(transferUrl);
      await visitor.getByTestId('download-all').waitFor({ timeout: 30_000 });
      if (look === 'themed') {
        await visitor.getByTestId('theme-logo').waitFor();
        await settled(() => backgroundOf(visitor, 'download-all'), rgb(START));
        expect(
          await visitor.evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim(),
          ),
        ).toBe(BACKGROUND);
      }
      keep(
        'download',
        look,
        await capture(visitor, `download-${look}`, {
          start: visitor.getByTestId('download-all'),
          header: visitor.locator('.app-header'),
        }),
      );

      // Maria's file request, a visitor's file chosen, at the step with the start button; then sent.
      await visitor.goto(requestLink);
      await visitor.getByTestId('limited-layout').waitFor({ timeout: 30_000 });
      await visitor.getByTestId('file-input').setInputFiles([source]);
      await visitor.getByTestId('next').click();
      await visitor.getByTestId('start-upload').waitFor();
      // Its title names Maria by her address, one long word: it wraps rather than run out of its box.
      const title = visitor.getByTestId('receive-title');
      expect(await title.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      keep(
        'request',
        look,
        await capture(visitor, `request-${look}`, {
          start: visitor.getByTestId('start-upload'),
          header: visitor.locator('.app-header'),
        }),
      );
      await visitor.getByTestId('start-upload').click();
      await visitor.getByTestId('receipt').waitFor({ timeout: 120_000 });

      // Maria's upload inbox.
      await visitor.goto(`${server.url}/i/${slug}`);
      const frame = visitor.getByTestId('limited-layout');
      await frame.waitFor({ timeout: 30_000 });
      await visitor.getByTestId('file-input').waitFor({ state: 'attached' });
      if (look === 'themed') {
        await visitor.waitForFunction(
          (expected) =>
            getComputedStyle(document.querySelector('[data-testid="limited-layout"]')!)
              .getPropertyValue('--color-primary')
              .trim()
              .toLowerCase() === expected,
          BACKGROUND,
          { timeout: 15_000 },
        );
        expect(
          await frame.evaluate((el) =>
            getComputedStyle(el).getPropertyValue('--color-start').trim().toLowerCase(),
          ),
        ).toBe(START);
        // The team's logo in place of Ferry's mark.
        await visitor.getByTestId('receive-logo').waitFor();
      } else expect(await visitor.getByTestId('receive-logo').count()).toBe(0);
      keep(
        'inbox',
        look,
        await capture(visitor, `inbox-${look}`, { header: visitor.locator('.app-header') }),
      );

      // The widget, on the other site.
      await visitor.goto(`${site.url}/`);
      const form = visitor.frameLocator('iframe').getByTestId('widget-form');
      await form.waitFor({ timeout: 30_000 });
      const frameHead = visitor.frameLocator('iframe').locator('.widget-head');
      if (look === 'themed') {
        await settled(
          () => frameHead.evaluate((el) => getComputedStyle(el).backgroundColor),
          rgb(BACKGROUND),
        );
        await visitor.frameLocator('iframe').getByTestId('widget-logo').waitFor();
      } else expect(await visitor.frameLocator('iframe').getByTestId('widget-logo').count()).toBe(0);
      keep(
        'widget',
        look,
        await capture(visitor, `widget-${look}`, {
          frame: visitor.locator('iframe'),
          head: frameHead,
          start: visitor.frameLocator('iframe').getByTestId('widget-submit'),
        }),
      );

      // A transfer Maria sends by e-mail, and the mail its recipient gets.
      const recipient = `${look}.reader@clients.example`;
      const sent = await maria(['send', source, '--to', recipient, '-q']);
      expect(sent.code, sent.stderr).toBe(0);
      expect(lines(sent.stdout).at(-1)).toMatch(/\/dl\//);
      keep(
        'transfer mail',
        look,
        await readMail(
          await nextMail(`the transfer mail to ${recipient}`, (m) => m.to.includes(recipient)),
          `transfer-mail-${look}`,
        ),
      );
      // The received-files mail of the upload into the request.
      keep(
        'received-files mail',
        look,
        await readMail(
          await nextMail(
            'the received-files mail',
            (m) => m.to.includes(MANAGER) && (m.parsed.text ?? '').includes('Plans for the new office'),
          ),
          `received-mail-${look}`,
        ),
      );
    };

    // --- Ferry's own look, before the theme. ---
    await pictureSurfaces('default');

    // --- Maria uploads a logo and a mail header and picks three colours; the preview follows as she types. ---
    await manager.goto(`${server.url}/dashboard/customization`);
    await manager.getByTestId('page-dashboard-customization').waitFor();
    const logo = path.join(work, 'logo.png');
    await pictureFile(logo, { width: 400, height: 120 }, '#ffffff', ACTION);
    await manager.getByTestId('upload-logo-input').setInputFiles(logo);
    await manager.getByTestId('asset-logo').waitFor({ timeout: 15_000 });
    expect(await manager.getByTestId('theme-preview-band').locator('img').count()).toBe(1);
    const header = path.join(work, 'mail-header.png');
    await pictureFile(header, { width: 1200, height: 200 }, MAIL_HEADER, '#ffffff');
    await manager.getByTestId('upload-mailHeader-input').setInputFiles(header);
    await manager.getByTestId('asset-mailHeader').waitFor({ timeout: 15_000 });
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
      (expected) =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-action').trim() === expected,
      ACTION,
      { timeout: 15_000 },
    );
    expect(await manager.getByTestId('customization-save').isDisabled()).toBe(true);
    // The page fits a phone.
    await manager.setViewportSize({ width: 375, height: 800 });
    await manager.reload();
    await manager.getByTestId('theme-preview').waitFor();
    expect(await scrollWidth(manager), (await overflowing(manager)).join('\n')).toBeLessThanOrEqual(375);
    await shot(manager, 'customization-phone');

    // --- The same surfaces, themed. ---
    await pictureSurfaces('themed');
    await visitor.goto(transferUrl);
    await visitor.getByTestId('download-all').waitFor({ timeout: 30_000 });
    await visitor.setViewportSize({ width: 375, height: 800 });
    expect(await scrollWidth(visitor), (await overflowing(visitor)).join('\n')).toBeLessThanOrEqual(375);

    // --- The pictures compared. ---
    // Thresholds, from what these pages and mails show with margin: themed, the start button is about 80–93 %
    // its colour and a page's header band 76–91 % (the gradient's lighter part is not near it); Ferry's own look
    // has none of either (0 %). A page changes in 67–83 % of its pixels; the widget in 32 % of its frame (the logo
    // in the band moves the white form under it down); a mail in 12 % (its header image is 4 % of the pane, the band around it 2 %, the
    // button 1 %).
    const report: string[] = [];
    const compare = (
      surface: string,
      checks: ColorCheck[],
      differ: { atLeast: number; part?: string },
    ): (() => void) => {
      const { default: plain, themed } = shots[surface] ?? {};
      if (!plain || !themed) throw new Error(`${surface}: not pictured in both looks`);
      const pictureOf = (s: Shot, part: string | undefined) => {
        const picture = part ? s.parts[part] : s.picture;
        if (!picture) throw new Error(`${surface}: no picture of ${part}`);
        return picture;
      };
      const measured = checks.map((c) => ({
        c,
        themed: colorShare(pictureOf(themed, c.part), c.color),
        plain: colorShare(pictureOf(plain, c.part), c.color),
      }));
      const changed = differentShare(pictureOf(plain, differ.part), pictureOf(themed, differ.part));
      report.push(
        `${surface}: ${changed.toFixed(3)} of ${differ.part ?? 'the window'} changed; ${measured
          .map(
            (m) =>
              `${m.c.color} in ${m.c.part ?? 'the window'} ${m.plain.toFixed(3)} → ${m.themed.toFixed(3)}`,
          )
          .join('; ')}`,
      );
      return () => {
        for (const m of measured) {
          const where = `${surface}: ${m.c.color} in ${m.c.part ?? 'the window'}`;
          expect(m.themed, `${where}, themed`).toBeGreaterThanOrEqual(m.c.themedAtLeast);
          expect(m.plain, `${where}, default`).toBeLessThanOrEqual(m.c.defaultAtMost);
        }
        expect(changed, `${surface}: share of pixels that changed`).toBeGreaterThanOrEqual(differ.atLeast);
      };
    };
    const page = (withStart: boolean): ColorCheck[] => [
      ...(withStart ? [{ color: START, part: 'start', themedAtLeast: 0.5, defaultAtMost: 0.01 }] : []),
      { color: BACKGROUND, part: 'header', themedAtLeast: 0.4, defaultAtMost: 0.01 },
    ];
    const mail: ColorCheck[] = [
      { color: MAIL_HEADER, themedAtLeast: 0.02, defaultAtMost: 0.001 },
      { color: BACKGROUND, themedAtLeast: 0.01, defaultAtMost: 0.001 },
      { color: ACTION, themedAtLeast: 0.004, defaultAtMost: 0.001 },
    ];
    const verdicts = [
      compare('uploader', page(true), { atLeast: 0.4 }),
      compare('download', page(true), { atLeast: 0.4 }),
      compare('request', page(true), { atLeast: 0.4 }),
      compare('inbox', page(false), { atLeast: 0.4 }),
      compare(
        'widget',
        [
          { color: BACKGROUND, part: 'head', themedAtLeast: 0.6, defaultAtMost: 0.01 },
          { color: START, part: 'start', themedAtLeast: 0.6, defaultAtMost: 0.01 },
        ],
        { atLeast: 0.06, part: 'frame' },
      ),
      compare('transfer mail', mail, { atLeast: 0.06 }),
      compare('received-files mail', mail, { atLeast: 0.06 }),
    ];
    console.info(`screenshots compared:\n${report.join('\n')}`);
    for (const verdict of verdicts) verdict();
  });
});
