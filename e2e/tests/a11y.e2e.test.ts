import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEB_ROUTES } from '@ferry/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { axeViolations, tabWalk } from '../support/a11y.js';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { lines, runFerry } from '../support/cli.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 21, accessibility: every page of WEB_ROUTES, with real data behind it (a transfer, a request, an inbox
 * and its widget, a team for the admin pages, the operator console), at 1280 and 375 px, passes axe-core's
 * WCAG 2.1 A/AA rules with no violation; key pages work by keyboard alone with a visible focus and no trap; and
 * with reduced motion asked for, nothing animates.
 */

/**
 * The languages checked: English at the bare paths, every other one under its prefix (/ar/…, /jp/…) as soon as
 * the web app has its translation file.
 */
const LOCALES = ['en', 'ar', 'jp'] as const;
const LOCALE_DIR = fileURLToPath(new URL('../../apps/web/src/i18n/locales/', import.meta.url));
const CHECKED_LOCALES = LOCALES.filter(
  (locale) => locale === 'en' || existsSync(path.join(LOCALE_DIR, `${locale}.json`)),
);
const WIDTHS = [1280, 375] as const;
/**
 * Which languages each width walks: every route in every language, English at both widths, Arabic (right to left,
 * where phone layouts break first) at 375 px and Japanese (other glyphs, longer words) at 1280 px. axe-core's rules
 * read the page's structure, names and colours, which a language changes only through its text and direction; the
 * 4 walks take two thirds of the time of the full cross of 6.
 */
const LOCALES_AT: Record<(typeof WIDTHS)[number], readonly string[]> = {
  1280: ['en', 'jp'],
  375: ['en', 'ar'],
};
const localesAt = (width: (typeof WIDTHS)[number]) =>
  CHECKED_LOCALES.filter((locale) => LOCALES_AT[width].includes(locale));

const PASSWORD = 'lanterns along the quay';
const OPERATOR = 'ops@a11y.example';
const MANAGER = 'ines.manager@a11y.example';

type Role = 'guest' | 'manager' | 'operator';

/** Who opens each page: signed out for the public pages, the operator for the console, else the team manager. */
const GUEST_ROUTES = new Set<string>([
  '/r/:requestId',
  '/i/:slug',
  '/widgets/:widgetId',
  '/dl/:transferId',
  '/dl/:transferId/:fileId',
  '/d/expired',
  '/d/notfound',
  '/unsubscribe',
  '/signin',
  '/register',
  '/register/enterprise',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/join',
]);

function roleOf(route: string): Role {
  if (route === '/operator') return 'operator';
  return GUEST_ROUTES.has(route) ? 'guest' : 'manager';
}

interface Data {
  transferId: string;
  fileId: string;
  requestId: string;
  slug: string;
  inboxId: string;
  widgetId: string;
  /** A link transfer of a picture and a text, whose previews the viewer shows. */
  previewTransferId: string;
}

/** A route pattern with its parameters filled from the data made for the test. */
function fill(route: string, data: Data): string {
  const values: Record<string, string> = {
    requestId: data.requestId,
    slug: data.slug,
    widgetId: data.widgetId,
    transferId: data.transferId,
    fileId: data.fileId,
    id: data.transferId,
    inboxId: data.inboxId,
  };
  return route.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no value for :${name} in ${route}`);
    return value;
  });
}

function localized(locale: string, pathname: string): string {
  if (locale === 'en') return pathname;
  return pathname === '/' ? `/${locale}` : `/${locale}${pathname}`;
}

const inFlight = new WeakMap<Page, { count: number; changed: number }>();

/** Counts the page's requests in flight (a quicker "network idle" than Playwright's fixed 500 ms). */
function trackRequests(page: Page): void {
  const state = { count: 0, changed: Date.now() };
  inFlight.set(page, state);
  const done = () => {
    state.count = Math.max(0, state.count - 1);
    state.changed = Date.now();
  };
  page.on('request', () => {
    state.count++;
    state.changed = Date.now();
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Waits until the app has drawn the page: no request in flight for 200 ms, the root filled, no loading
 * placeholder left.
 */
async function settle(page: Page): Promise<void> {
  const state = inFlight.get(page);
  if (!state) throw new Error('trackRequests(page) first');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && (state.count > 0 || Date.now() - state.changed < 200)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.waitForFunction(
    () =>
      (document.getElementById('root')?.childElementCount ?? 0) > 0 &&
      !document.querySelector('[aria-busy="true"]'),
    undefined,
    { timeout: 15_000 },
  );
}

async function createAccount(server: FerryProcess, email: string): Promise<void> {
  const register = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, firstname: 'Ines' }),
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

/** A browser context signed in as `email` (through the API, so the cookie is the context's own). */
async function signedInState(browser: Browser, origin: string, email: string) {
  const context = await browser.newContext();
  try {
    const res = await context.request.post(`${origin}/api/auth/signin`, {
      data: { email, password: PASSWORD },
    });
    expect(res.status(), await res.text()).toBe(200);
    const { idToken } = (await res.json()) as { idToken: string };
    const session = await context.request.get(`${origin}/api/auth/auth/session-cookie`, {
      headers: { 'id-token': idToken },
    });
    expect(session.status(), await session.text()).toBe(200);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

describe('accessibility in Chromium: axe-core on every page, keyboard, reduced motion', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let work: string;
  let data: Data;
  const states: Partial<Record<Role, Awaited<ReturnType<typeof signedInState>>>> = {};

  beforeAll(async () => {
    work = await tempDir('a11y');
    server = await FerryProcess.start({ env: { OPERATOR_EMAILS: OPERATOR } });
    await createAccount(server, OPERATOR);
    await createAccount(server, MANAGER);

    const as = (state: string, args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, state), FERRY_SERVER: server.url });
    const ok = (result: Awaited<ReturnType<typeof runFerry>>) => {
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      return lines(result.stdout).at(-1) ?? '';
    };
    ok(await as('ops', ['login', '--email', OPERATOR, '--password', PASSWORD]));
    ok(await as('ops', ['operator', 'set-plan', MANAGER, 'TEAM10']));
    ok(await as('manager', ['login', '--email', MANAGER, '--password', PASSWORD]));

    // A link transfer of the manager's, with a message and two files.
    await fs.writeFile(path.join(work, 'harbour-notes.txt'), 'Tide tables and berth numbers\n');
    await fs.writeFile(path.join(work, 'site-plan.pdf'), Buffer.alloc(30_000, 3));
    const link = ok(
      await as('manager', [
        'send',
        path.join(work, 'harbour-notes.txt'),
        path.join(work, 'site-plan.pdf'),
        '--message',
        'The plans for the quay',
      ]),
    );
    const transferId = /\/dl\/([A-Za-z0-9]{16})$/.exec(link)?.[1];
    expect(transferId, link).toBeTruthy();
    const info = await fetch(`${server.url}/api/transfer/downloads/info?transferId=${transferId}`);
    const fileId = ((await info.json()) as { files: Array<{ id: string }> }).files[0]?.id;
    expect(fileId).toBeTruthy();

    // A picture and a text, for the preview gallery and its viewer.
    await fs.writeFile(
      path.join(work, 'quay-photo.png'),
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#3a7d5c' } })
        .png()
        .toBuffer(),
    );
    const previewLink = ok(
      await as('manager', ['send', path.join(work, 'quay-photo.png'), path.join(work, 'harbour-notes.txt')]),
    );
    const previewTransferId = /\/dl\/([A-Za-z0-9]{16})$/.exec(previewLink)?.[1];
    expect(previewTransferId, previewLink).toBeTruthy();

    // A file request and an inbox.
    const requestLink = ok(
      await as('manager', [
        'request',
        '--subject',
        'Signed contracts',
        '--message',
        'Please send them here.',
      ]),
    );
    const requestId = /\/r\/([^/?#]+)$/.exec(requestLink)?.[1];
    expect(requestId, requestLink).toBeTruthy();
    ok(await as('manager', ['inbox', 'create', 'quay-plans', '--title', 'Quay plans']));

    // A widget on the inbox, through the API with the manager's session.
    states.manager = await signedInState(scenarios.browser, server.url, MANAGER);
    states.operator = await signedInState(scenarios.browser, server.url, OPERATOR);
    const api = await scenarios.browser.newContext({ storageState: states.manager });
    try {
      const inboxes = await api.request.get(`${server.url}/api/receive/inboxes`);
      expect(inboxes.status(), await inboxes.text()).toBe(200);
      const inbox = (
        (await inboxes.json()) as { items: Array<{ inboxId: string; slug: string }> }
      ).items.find((i) => i.slug === 'quay-plans');
      expect(inbox).toBeTruthy();
      const widget = await api.request.post(`${server.url}/api/receive/inboxes/${inbox!.inboxId}/widgets`, {
        data: { name: 'Harbour site' },
      });
      expect(widget.status(), await widget.text()).toBe(201);
      data = {
        transferId: transferId!,
        fileId: fileId!,
        requestId: requestId!,
        slug: inbox!.slug,
        inboxId: inbox!.inboxId,
        widgetId: ((await widget.json()) as { widgetId: string }).widgetId,
        previewTransferId: previewTransferId!,
      };
    } finally {
      await api.close();
    }
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('every route, at 1280 and 375 px, in every language the app has (LOCALES_AT), has no WCAG 2.1 A/AA violation', async () => {
    const started = Date.now();
    const found: string[] = [];
    let visited = 0;
    // The two widths side by side, one browser context set each: both cores work, the run takes about half as long.
    const checkWidth = async (width: (typeof WIDTHS)[number]) => {
      const contexts = new Map<Role, BrowserContext>();
      const pages = new Map<Role, Page>();
      for (const role of ['guest', 'manager', 'operator'] as const) {
        const context = await scenarios.newContext({
          viewport: { width, height: 900 },
          storageState: states[role as 'manager' | 'operator'],
        });
        contexts.set(role, context);
        const page = await context.newPage();
        trackRequests(page);
        pages.set(role, page);
      }
      for (const locale of localesAt(width)) {
        for (const route of WEB_ROUTES) {
          const page = pages.get(roleOf(route))!;
          const url = localized(locale, fill(route, data));
          const label = `${url} @${width}px [${locale}]`;
          const response = await page.goto(`${server.url}${url}`);
          expect(response?.status(), label).toBeLessThan(500);
          await settle(page);
          found.push(...(await axeViolations(page, label)));
          visited++;
        }
      }
      for (const context of contexts.values()) await context.close();
    };
    await Promise.all(WIDTHS.map(checkWidth));
    console.info(`a11y: ${visited} pages checked in ${Math.round((Date.now() - started) / 1000)} s`);
    expect(visited).toBe(WIDTHS.reduce((n, width) => n + localesAt(width).length, 0) * WEB_ROUTES.length);
    expect(new Set(WIDTHS.flatMap(localesAt))).toEqual(new Set(CHECKED_LOCALES));
    expect(found, `axe-core violations:\n${found.join('\n')}`).toEqual([]);
  }, 900_000);

  it('key pages work by keyboard alone: every control reached by Tab, the focus always visible, no trap', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const guest = await (await scenarios.newContext({ viewport: { width, height: 900 } })).newPage();
      const manager = await (
        await scenarios.newContext({ viewport: { width, height: 900 }, storageState: states.manager })
      ).newPage();
      trackRequests(guest);
      trackRequests(manager);
      for (const [page, route] of [
        [guest, '/'],
        [guest, '/signin'],
        [guest, `/dl/${data.transferId}`],
        [manager, '/dashboard/transfers'],
      ] as const) {
        await page.goto(`${server.url}${route}`);
        await settle(page);
        problems.push(...(await tabWalk(page, `${route} @${width}px`)));
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the review queue and the report dialog, at 1280 and 375 px, in every language the app has, have no violation', async () => {
    const found: string[] = [];
    for (const width of WIDTHS) {
      const operator = await (
        await scenarios.newContext({ viewport: { width, height: 900 }, storageState: states.operator })
      ).newPage();
      const guest = await (await scenarios.newContext({ viewport: { width, height: 900 } })).newPage();
      trackRequests(operator);
      trackRequests(guest);
      for (const locale of localesAt(width)) {
        const queue = localized(locale, '/operator?tab=moderation');
        await operator.goto(`${server.url}${queue}`);
        await settle(operator);
        await operator.getByTestId('operator-moderation').waitFor({ state: 'visible' });
        found.push(...(await axeViolations(operator, `${queue} @${width}px`)));

        const page = localized(locale, `/dl/${data.transferId}`);
        await guest.goto(`${server.url}${page}`);
        await settle(guest);
        await guest.getByTestId('report-abuse').click();
        await guest.getByTestId('report-dialog').waitFor({ state: 'visible' });
        found.push(...(await axeViolations(guest, `${page} (report dialog) @${width}px`)));
      }
    }
    expect(found, `axe-core violations:\n${found.join('\n')}`).toEqual([]);
  });

  it('the preview gallery and its viewer (a picture, then a text), at 1280 and 375 px, in every language the app has, have no violation', async () => {
    const found: string[] = [];
    for (const width of WIDTHS) {
      const guest = await (await scenarios.newContext({ viewport: { width, height: 900 } })).newPage();
      trackRequests(guest);
      for (const locale of localesAt(width)) {
        const page = localized(locale, `/dl/${data.previewTransferId}`);
        await guest.goto(`${server.url}${page}`);
        await settle(guest);
        // The thumbnails are made by a background job: the gallery asks again until they are ready.
        const open = guest.locator('[data-testid^="preview-open-"]');
        await open.first().waitFor({ state: 'visible', timeout: 60_000 });
        await guest.locator('[data-testid="preview-gallery"] img').first().waitFor({ state: 'visible' });
        found.push(...(await axeViolations(guest, `${page} (gallery) @${width}px`)));
        await open.first().click();
        await guest.getByTestId('preview-viewer').waitFor({ state: 'visible' });
        await guest.locator('[data-testid="preview-viewer"] img').waitFor({ state: 'visible' });
        found.push(...(await axeViolations(guest, `${page} (viewer, picture) @${width}px`)));
        await guest.getByTestId('preview-next').click();
        await guest.getByTestId('preview-text').waitFor({ state: 'visible' });
        found.push(...(await axeViolations(guest, `${page} (viewer, text) @${width}px`)));
        await guest.keyboard.press('Escape');
        await guest.getByTestId('preview-viewer').waitFor({ state: 'hidden' });
      }
    }
    expect(found, `axe-core violations:\n${found.join('\n')}`).toEqual([]);
  });

  it('with reduced motion asked for, nothing is animated or transitioned', async () => {
    const motion = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await scenarios.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion });
      trackRequests(page);
      await page.goto(`${server.url}/`);
      await settle(page);
      return page.evaluate(() => {
        const seconds = (list: string) => Math.max(...list.split(',').map((d) => Number.parseFloat(d) || 0));
        const moving: string[] = [];
        for (const e of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
          const s = getComputedStyle(e);
          const animated = s.animationName !== 'none' && seconds(s.animationDuration) > 0.01;
          const transitioned = s.transitionProperty !== 'none' && seconds(s.transitionDuration) > 0.01;
          if (animated || transitioned) moving.push(`${e.tagName.toLowerCase()}.${e.className}`);
        }
        return moving;
      });
    };
    // The check can fail: without the preference, the page's buttons do move.
    expect((await motion('no-preference')).length).toBeGreaterThan(0);
    const moving = await motion('reduce');
    expect(moving, moving.join('\n')).toEqual([]);
  });
});
