import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SITE_PAGES, withLocalePrefix } from '@ferry/core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { axeInEveryPage, axeViolations, tabWalk } from '../support/a11y.js';
import { registerAndVerify } from '../support/accounts.js';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, REPO_ROOT } from '../support/server.js';

/**
 * The public site (apps/server/src/site, docs/site.md) in Chromium against the built server: every page passes
 * axe-core's WCAG 2.1 A/AA rules in three languages at two widths with the consent widget showing, as on a first
 * visit; key pages work by keyboard alone; Arabic and Persian pages are laid out right to left (checked in the
 * DOM); the consent widget really keeps the audience script away until "Accept all", on site and app pages; the
 * contact forms send, and their mail arrives; the "made in" banner greets signed-out visitors only.
 */

const LOCALES = ['en', 'ar', 'jp'] as const;
const WIDTHS = [1280, 375] as const;
const PASSWORD = 'gulls over the breakwater';
const MEMBER = 'noor.member@site.example';
const SALES = 'sales@ferry.example';
const SUPPORT = 'help@ferry.example';
/** Pixels two edges may differ by and still count as lined up (subpixel layout). */
const TOLERANCE = 2;

/** One word of a language's site frame (apps/server/src/site/content/<code>/chrome.json). */
function chromeText(locale: string, key: string): string {
  const file = path.join(REPO_ROOT, 'apps/server/src/site/content', locale, 'chrome.json');
  const text = (JSON.parse(readFileSync(file, 'utf8')) as { ui: Record<string, string> }).ui[key];
  if (!text) throw new Error(`no "${key}" in ${file}`);
  return text;
}

/** A stand-in for an audience-measurement service: one script that marks the page, each request counted. */
async function startAnalytics() {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const pathname = (request.url ?? '/').split('?')[0];
    if (pathname !== '/measure.js') {
      response.writeHead(404).end();
      return;
    }
    requests.push(String(request.headers.referer ?? ''));
    // no-store: each page that loads the script asks for it again, so the count is the number of loads.
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end('window.__ferryAnalytics = true;\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/measure.js`,
    get count() {
      return requests.length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The viewport box of the first element matching each selector. */
function boxes(page: Page, selectors: string[]): Promise<Box[]> {
  return page.evaluate(
    (list) =>
      list.map((selector) => {
        const element = document.querySelector(selector);
        if (!element) throw new Error(`nothing matches ${selector}`);
        const { left, right, top, bottom } = element.getBoundingClientRect();
        return { left, right, top, bottom };
      }),
    selectors,
  );
}

/** The first step of a guide: its number (the ::before circle, placed by CSS) and its heading. */
function firstStep(page: Page): Promise<{ number: Box; title: Box }> {
  return page.evaluate(() => {
    const li = document.querySelector('.steps > li');
    const title = li?.querySelector('h3');
    if (!li || !title) throw new Error('no step');
    const item = li.getBoundingClientRect();
    const before = getComputedStyle(li, '::before');
    // An absolutely placed pseudo-element: its used left and right offsets within the item.
    const left = item.left + Number.parseFloat(before.left);
    const right = item.right - Number.parseFloat(before.right);
    const heading = title.getBoundingClientRect();
    const height = Number.parseFloat(before.height);
    return {
      number: { left, right, top: item.top, bottom: item.top + height },
      title: { left: heading.left, right: heading.right, top: heading.top, bottom: heading.bottom },
    };
  });
}

/** Whether the consent widget shows (site.js unhides it when no choice is kept). */
const consentShown = (page: Page) => page.locator('#ferry-consent').isVisible();

async function consentCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === 'ferry_consent')?.value;
}

describe('the public site in Chromium: accessibility, right to left, consent, forms, banner', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let analytics: Awaited<ReturnType<typeof startAnalytics>>;
  let server: FerryProcess;

  beforeAll(async () => {
    sink = await startMailSink();
    analytics = await startAnalytics();
    server = await FerryProcess.start({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        SALES_EMAIL: SALES,
        SUPPORT_EMAIL: SUPPORT,
        ANALYTICS_SCRIPT_URL: analytics.url,
      },
    });
    // An account for the signed-in visits, confirmed through the link mailed to it.
    await registerAndVerify(server.url, sink, MEMBER, PASSWORD, 'Noor');
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    await analytics?.close();
    await sink?.close();
  });

  it('every site page, in en, ar and jp, at 1280 and 375 px, with the consent widget showing, has no WCAG 2.1 A/AA violation', async () => {
    const started = Date.now();
    const found: string[] = [];
    let visited = 0;
    // The two widths side by side, one page each, reused for every visit (no choice is ever made on it).
    const checkWidth = async (width: number) => {
      const context = await scenarios.newContext({ consent: null, viewport: { width, height: 900 } });
      await axeInEveryPage(context);
      const page = await context.newPage();
      for (const locale of LOCALES) {
        for (const sitePath of SITE_PAGES) {
          const url = withLocalePrefix(sitePath, locale);
          const label = `${url} @${width}px`;
          const response = await page.goto(`${server.url}${url}`, { waitUntil: 'load' });
          expect(response?.status(), label).toBe(200);
          expect(await consentShown(page), `${label}: the consent widget`).toBe(true);
          found.push(...(await axeViolations(page, label)));
          visited++;
        }
      }
    };
    await Promise.all(WIDTHS.map(checkWidth));
    console.info(`site a11y: ${visited} pages checked in ${Math.round((Date.now() - started) / 1000)} s`);
    expect(visited).toBe(WIDTHS.length * LOCALES.length * SITE_PAGES.length);
    // Nothing was chosen: the audience script was never asked for.
    expect(analytics.count).toBe(0);
    expect(found, `axe-core violations:\n${found.join('\n')}`).toEqual([]);
  }, 900_000);

  it('by keyboard alone: every control reached by Tab with a visible focus, the language menu and the consent buttons included', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const page = await scenarios.newPage({ consent: null, viewport: { width, height: 900 } });
      for (const url of ['/support', '/contact/sales', '/fr/how-to/send-large-files-by-email']) {
        const label = `${url} @${width}px`;
        await page.goto(`${server.url}${url}`, { waitUntil: 'load' });
        expect(await consentShown(page), label).toBe(true);
        problems.push(...(await tabWalk(page, label)));
        // The walk counted these among the stops it had to reach: the switcher and both consent buttons.
        const walked = await page.evaluate(() =>
          ['.lang > summary', '[data-consent="necessary"]', '[data-consent="all"]', 'form.site-form button']
            .map((s) => document.querySelector<HTMLElement>(s))
            .map((e) => (e ? (e.dataset.a11yKey ?? 'missed') : 'absent')),
        );
        const expected = url === '/contact/sales' ? 4 : 3;
        expect(
          walked.filter((k) => k.startsWith('k')),
          `${label}: ${walked.join(' ')}`,
        ).toHaveLength(expected);

        // The language switcher opens with Enter; Tab then goes into its list of languages.
        await page.locator('.lang > summary').focus();
        await page.keyboard.press('Enter');
        expect(await page.locator('.lang').evaluate((d) => (d as HTMLDetailsElement).open), label).toBe(true);
        await page.keyboard.press('Tab');
        const inside = await page.evaluate(() => {
          const e = document.activeElement;
          return {
            inList: Boolean(e?.closest('.lang ul')),
            tag: e?.tagName.toLowerCase(),
            ring: Boolean(e?.matches(':focus-visible')) && getComputedStyle(e!).outlineStyle !== 'none',
          };
        });
        expect(inside, `${label}: Tab after opening the language menu`).toEqual({
          inList: true,
          tag: 'a',
          ring: true,
        });
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('right to left in Arabic and Persian, left to right in English: header, steps and consent mirrored', async () => {
    const expectations = [
      { url: '/ar/support', lang: 'ar', dir: 'rtl' },
      { url: '/fa/features', lang: 'fa', dir: 'rtl' },
      { url: '/ar/how-to/send-large-files-by-email', lang: 'ar', dir: 'rtl', steps: true },
      { url: '/support', lang: 'en', dir: 'ltr' },
      { url: '/how-to/send-large-files-by-email', lang: 'en', dir: 'ltr', steps: true },
    ] as const;
    for (const width of WIDTHS) {
      const page = await scenarios.newPage({ consent: null, viewport: { width, height: 900 } });
      for (const expected of expectations) {
        const label = `${expected.url} @${width}px`;
        await page.goto(`${server.url}${expected.url}`, { waitUntil: 'load' });
        const rtl = expected.dir === 'rtl';
        expect(
          await page.evaluate(() => ({
            lang: document.documentElement.lang,
            dir: document.documentElement.dir,
            direction: getComputedStyle(document.body).direction,
          })),
          label,
        ).toEqual({ lang: expected.lang, dir: expected.dir, direction: expected.dir });

        // The header: the brand first, on the right in rtl; beside the menu when wide, above it when narrow.
        const [brand, nav, firstLink, lastLink] = await boxes(page, [
          '.site-header .brand',
          '.site-nav',
          '.site-nav li:first-child a',
          '.site-nav li:last-child a',
        ]);
        const vw = await page.evaluate(() => document.documentElement.clientWidth);
        if (width > 768) {
          if (rtl) expect(brand!.left, `${label}: brand right of the menu`).toBeGreaterThan(nav!.right);
          else expect(brand!.right, `${label}: brand left of the menu`).toBeLessThan(nav!.left);
          // The menu runs from the start side too: its first link is the rightmost in rtl.
          if (rtl) expect(firstLink!.left, label).toBeGreaterThan(lastLink!.right);
          else expect(firstLink!.right, label).toBeLessThan(lastLink!.left);
        } else {
          expect(brand!.bottom, `${label}: brand above the menu`).toBeLessThanOrEqual(nav!.top + TOLERANCE);
          if (rtl) {
            expect(brand!.left, `${label}: brand on the right half`).toBeGreaterThan(vw / 2);
            expect(
              Math.abs(brand!.right - nav!.right),
              `${label}: brand and menu start together`,
            ).toBeLessThanOrEqual(TOLERANCE);
            expect(firstLink!.right, label).toBeGreaterThanOrEqual(lastLink!.right - TOLERANCE);
          } else {
            expect(brand!.right, `${label}: brand on the left half`).toBeLessThan(vw / 2);
            expect(
              Math.abs(brand!.left - nav!.left),
              `${label}: brand and menu start together`,
            ).toBeLessThanOrEqual(TOLERANCE);
            expect(firstLink!.left, label).toBeLessThanOrEqual(lastLink!.left + TOLERANCE);
          }
        }

        // The consent widget's actions: "Only necessary", "Accept all", then the link, from the start side.
        expect(await consentShown(page), label).toBe(true);
        const [necessary, all, more] = await boxes(page, [
          '[data-consent="necessary"]',
          '[data-consent="all"]',
          '.consent-actions a',
        ]);
        if (rtl) {
          expect(necessary!.left, `${label}: necessary right of all`).toBeGreaterThanOrEqual(all!.right);
          expect(necessary!.right, `${label}: the actions start at the right`).toBeGreaterThan(more!.right);
        } else {
          expect(necessary!.right, `${label}: necessary left of all`).toBeLessThanOrEqual(all!.left);
          expect(necessary!.left, `${label}: the actions start at the left`).toBeLessThan(more!.left);
        }
        if (more!.top < all!.bottom) {
          // On the same line: the link after "Accept all".
          if (rtl) expect(all!.left, `${label}: the link left of all`).toBeGreaterThan(more!.right);
          else expect(all!.right, `${label}: the link right of all`).toBeLessThan(more!.left);
        }

        if ('steps' in expected) {
          const { number, title } = await firstStep(page);
          if (rtl)
            expect(number.left, `${label}: the step's number right of its title`).toBeGreaterThanOrEqual(
              title.right,
            );
          else
            expect(number.right, `${label}: the step's number left of its title`).toBeLessThanOrEqual(
              title.left,
            );
        }
      }
    }
  });

  it('consent gates the audience script: none before a choice or with "Only necessary", loaded after "Accept all"', async () => {
    const statusAll = chromeText('en', 'consent.statusAll');
    const statusNecessary = chromeText('en', 'consent.statusNecessary');
    const statusNone = chromeText('en', 'consent.statusNone');
    const context = await scenarios.newContext({ consent: null, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const flag = () =>
      page.evaluate(() => (window as { __ferryAnalytics?: boolean }).__ferryAnalytics === true);
    const status = page.locator('[data-consent-status]');
    const before = analytics.count;

    await page.goto(`${server.url}/cookies`, { waitUntil: 'load' });
    expect(await consentShown(page)).toBe(true);
    expect(await status.textContent()).toBe(statusNone);
    expect(analytics.count).toBe(before);

    // Only necessary: the widget goes, the choice is kept, nothing is loaded, even after a reload.
    await page.locator('#ferry-consent [data-consent="necessary"]').click();
    expect(await consentShown(page)).toBe(false);
    expect(await consentCookie(context)).toBe('necessary');
    expect(await status.textContent()).toBe(statusNecessary);
    await page.reload({ waitUntil: 'load' });
    expect(await consentShown(page)).toBe(false);
    expect(await status.textContent()).toBe(statusNecessary);
    expect(await flag()).toBe(false);
    expect(analytics.count).toBe(before);

    // Reopened from the footer: the focus goes to the widget; Accept all loads the script there and then.
    await page.locator('.site-footer [data-consent-open]').click();
    expect(await consentShown(page)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('#ferry-consent') !== null)).toBe(true);
    await page.locator('#ferry-consent [data-consent="all"]').click();
    await page.waitForFunction(() => (window as { __ferryAnalytics?: boolean }).__ferryAnalytics === true);
    expect(analytics.count).toBe(before + 1);
    expect(await consentShown(page)).toBe(false);
    expect(await consentCookie(context)).toBe('all');
    expect(await status.textContent()).toBe(statusAll);

    // Kept: after a reload the script loads again and the widget stays away.
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => (window as { __ferryAnalytics?: boolean }).__ferryAnalytics === true);
    expect(analytics.count).toBe(before + 2);
    expect(await consentShown(page)).toBe(false);
    expect(await status.textContent()).toBe(statusAll);

    // Changed back to necessary: the running script cannot be unloaded, so the page starts again without it.
    await page.locator('.consent-status [data-consent-open]').click();
    await Promise.all([
      page.waitForEvent('load'),
      page.locator('#ferry-consent [data-consent="necessary"]').click(),
    ]);
    expect(await flag()).toBe(false);
    expect(await status.textContent()).toBe(statusNecessary);
    expect(analytics.count).toBe(before + 2);
  });

  it('consent on an app page: the same widget, the script only after "Accept all"', async () => {
    const before = analytics.count;
    const flag = (page: Page) =>
      page.evaluate(() => (window as { __ferryAnalytics?: boolean }).__ferryAnalytics === true);

    // A first visit: the widget over the uploader; "Only necessary" keeps the script away, after a reload too.
    const first = await scenarios.newContext({ consent: null, viewport: { width: 1280, height: 900 } });
    const page = await first.newPage();
    await page.goto(`${server.url}/`);
    await page.getByTestId('file-input').waitFor({ state: 'attached', timeout: 15_000 });
    expect(await consentShown(page)).toBe(true);
    expect(analytics.count).toBe(before);
    await page.locator('#ferry-consent [data-consent="necessary"]').click();
    expect(await consentShown(page)).toBe(false);
    expect(await consentCookie(first)).toBe('necessary');
    await page.reload();
    await page.getByTestId('file-input').waitFor({ state: 'attached', timeout: 15_000 });
    expect(await consentShown(page)).toBe(false);
    expect(await flag(page)).toBe(false);
    expect(analytics.count).toBe(before);

    // Another visitor accepts all: the script loads on the app page, and again on the next visit.
    const second = await scenarios.newContext({ consent: null, viewport: { width: 375, height: 800 } });
    const other = await second.newPage();
    await other.goto(`${server.url}/`);
    await other.getByTestId('file-input').waitFor({ state: 'attached', timeout: 15_000 });
    expect(await consentShown(other)).toBe(true);
    expect(analytics.count).toBe(before);
    await other.locator('#ferry-consent [data-consent="all"]').click();
    await other.waitForFunction(() => (window as { __ferryAnalytics?: boolean }).__ferryAnalytics === true);
    expect(analytics.count).toBe(before + 1);
    expect(await consentShown(other)).toBe(false);
    await other.reload();
    await other.waitForFunction(() => (window as { __ferryAnalytics?: boolean }).__ferryAnalytics === true);
    expect(await consentShown(other)).toBe(false);
    expect(analytics.count).toBe(before + 2);
  });

  it('the sales form (/contact/sales) and the contact form (/fr/contact) send, and their mail arrives', async () => {
    const page = await scenarios.newPage({ consent: null, viewport: { width: 1280, height: 900 } });

    await page.goto(`${server.url}/contact/sales`, { waitUntil: 'load' });
    const sales = page.locator('form[data-site-form="sales"]');
    await sales.getByLabel(chromeText('en', 'form.name')).fill('Marta Quay');
    await sales.getByLabel(chromeText('en', 'form.email')).fill('marta@harbourworks.example');
    await sales.getByLabel(chromeText('en', 'form.company')).fill('Harbour Works Ltd');
    await sales.getByLabel(chromeText('en', 'form.phone')).fill('+33 1 23 45 67 89');
    await sales.getByLabel(chromeText('en', 'form.teamSize')).fill('40');
    await sales.getByLabel(chromeText('en', 'form.message')).fill('We move survey footage of 80 GB a week.');
    await sales.locator('button[type="submit"]').click();
    await expect
      .poll(() => sales.locator('.form-status').textContent(), { timeout: 15_000 })
      .toBe(chromeText('en', 'form.sent'));
    expect(await sales.locator('.form-status').getAttribute('data-state')).toBe('sent');
    const toSales = await sink.waitFor('the enterprise request to sales', (m) => m.to.includes(SALES));
    expect(toSales.parsed.subject).toContain('Harbour Works Ltd');
    expect(toSales.parsed.text).toContain('We move survey footage of 80 GB a week.');
    expect(toSales.parsed.text).toContain('Marta Quay');
    expect(toSales.parsed.replyTo?.text).toContain('marta@harbourworks.example');
    await sink.waitFor('the acknowledgement to Marta', (m) => m.to.includes('marta@harbourworks.example'));

    await page.goto(`${server.url}/fr/contact`, { waitUntil: 'load' });
    const contact = page.locator('form[data-site-form="contact"]');
    await contact.getByLabel(chromeText('fr', 'form.name')).fill('Léa Martin');
    await contact.getByLabel(chromeText('fr', 'form.email')).fill('lea@atelier.example');
    await contact.getByLabel(chromeText('fr', 'form.subject')).fill('Lien expiré');
    await contact
      .getByLabel(chromeText('fr', 'form.message'))
      .fill('Mon destinataire n’a pas pu télécharger avant la date d’expiration.');
    await contact.locator('button[type="submit"]').click();
    await expect
      .poll(() => contact.locator('.form-status').textContent(), { timeout: 15_000 })
      .toBe(chromeText('fr', 'form.sent'));
    const toSupport = await sink.waitFor('the contact message to support', (m) => m.to.includes(SUPPORT));
    expect(toSupport.parsed.subject).toContain('Lien expiré');
    expect(toSupport.parsed.text).toContain('Mon destinataire n’a pas pu télécharger');
    expect(toSupport.parsed.replyTo?.text).toContain('lea@atelier.example');
    await sink.waitFor('the acknowledgement to Léa', (m) => m.to.includes('lea@atelier.example'));
    // Nothing of the contact form went to sales, nor of the sales form to support.
    expect(sink.to(SALES)).toHaveLength(1);
    expect(sink.to(SUPPORT)).toHaveLength(1);
  });

  it('the "made in" banner: on /about and / for a signed-out visitor, on neither once signed in', async () => {
    const banner = (page: Page) => page.getByTestId('made-in-banner');
    const country = new Intl.DisplayNames(['en'], { type: 'region' }).of('FR')!;

    const guest = await scenarios.newPage({ consent: null, viewport: { width: 1280, height: 900 } });
    await guest.goto(`${server.url}/about`, { waitUntil: 'load' });
    expect(await banner(guest).textContent()).toContain(country);
    await guest.goto(`${server.url}/`);
    await banner(guest).waitFor({ timeout: 15_000 });
    expect(await banner(guest).textContent()).toContain(country);
    expect(await guest.getByTestId('header-signin').count()).toBe(1);

    // Signed in through the API: the context then carries the session cookie, as after the sign-in page.
    const context = await scenarios.newContext({ consent: null, viewport: { width: 1280, height: 900 } });
    const signin = await context.request.post(`${server.url}/api/auth/signin`, {
      data: { email: MEMBER, password: PASSWORD },
    });
    expect(signin.status(), await signin.text()).toBe(200);
    const { idToken } = (await signin.json()) as { idToken: string };
    const session = await context.request.get(`${server.url}/api/auth/auth/session-cookie`, {
      headers: { 'id-token': idToken },
    });
    expect(session.status(), await session.text()).toBe(200);
    const member = await context.newPage();
    await member.goto(`${server.url}/about`, { waitUntil: 'load' });
    expect(await member.locator('.site-header').count()).toBe(1);
    expect(await banner(member).count()).toBe(0);
    await member.goto(`${server.url}/`);
    // Once the app knows who is there, the banner is not drawn.
    await member.getByTestId('user-menu-button').waitFor({ timeout: 15_000 });
    expect(await banner(member).count()).toBe(0);
  });
});
