import fs from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { lines, runFerry } from '../support/cli.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 21, right-to-left layout: the same pages opened left to right and right to left (`<html dir="rtl">`, as
 * Arabic and Persian set it), compared in the DOM, not by pixels. In rtl each chosen element sits where the
 * mirror of its ltr place is, text starts at the right, rows run from the right, the slide panel comes in from
 * the left, addresses stay left to right, and nothing scrolls sideways at 375 and 1280 px.
 */

const SENDER = 'rana.haddad@rtl.example';
const PASSWORD = 'seven quiet harbours glow';
const WIDTHS = [375, 1280] as const;
/** Pixels a mirrored box may be off by (subpixel layout, rounding of text widths). */
const TOLERANCE = 2;

type Dir = 'ltr' | 'rtl';

interface Box {
  left: number;
  right: number;
  width: number;
}

/**
 * Keeps `dir` on <html> as asked: the app sets it from its language once loaded, so it is set again whenever
 * it changes (before the next frame is drawn).
 */
async function forceDir(context: BrowserContext, dir: Dir): Promise<void> {
  await context.addInitScript((wanted: string) => {
    const keep = () => {
      const html = document.documentElement;
      if (html && html.dir !== wanted) html.dir = wanted;
    };
    keep();
    new MutationObserver(keep).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['dir'],
    });
  }, dir);
}

/** The horizontal boxes of the first element matching each selector, in the page's own width (no scrollbar). */
async function boxes(page: Page, selectors: string[]): Promise<{ width: number; boxes: Box[] }> {
  return page.evaluate((list) => {
    const html = document.documentElement.getBoundingClientRect();
    return {
      width: html.width,
      boxes: list.map((selector) => {
        const element = document.querySelector(selector);
        if (!element) throw new Error(`nothing matches ${selector}`);
        const r = element.getBoundingClientRect();
        return { left: r.left - html.left, right: r.right - html.left, width: r.width };
      }),
    };
  }, selectors);
}

/** No sideways scrolling at this width; else which elements stick out, on either side. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const [scroll, sticking] = await page.evaluate((limit) => {
    const out = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > limit + 0.5 || r.left < -0.5);
      })
      .map((e) => {
        const r = e.getBoundingClientRect();
        return `${e.tagName.toLowerCase()}.${e.className} ${Math.round(r.left)}…${Math.round(r.right)}`;
      })
      .slice(0, 8);
    return [Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), out] as const;
  }, width);
  expect(scroll, sticking.join('\n')).toBeLessThanOrEqual(width);
  // In rtl the page can overflow to the left without widening scrollWidth: none of the checked boxes may.
  expect(sticking, 'elements outside the page').toEqual([]);
}

/** Where the first line of text of `selector` starts and ends, against its own box. */
async function textSides(page: Page, selector: string): Promise<{ gapStart: number; gapEnd: number }> {
  return page.evaluate((s) => {
    const element = document.querySelector(s);
    if (!element) throw new Error(`nothing matches ${s}`);
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const range = document.createRange();
    range.selectNodeContents(element);
    // A line of mixed directions is several rects: the line is all of them at the first line's height.
    const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
    const top = Math.min(...rects.map((r) => r.top));
    const line = rects.filter((r) => r.top < top + r.height / 2);
    const textLeft = Math.min(...line.map((r) => r.left));
    const textRight = Math.max(...line.map((r) => r.right));
    const innerLeft =
      box.left + Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.borderLeftWidth);
    const innerRight =
      box.right - Number.parseFloat(style.paddingRight) - Number.parseFloat(style.borderRightWidth);
    // gapStart: room between the box's start (left in ltr, right in rtl) and the text.
    return style.direction === 'rtl'
      ? { gapStart: innerRight - textRight, gapEnd: textLeft - innerLeft }
      : { gapStart: textLeft - innerLeft, gapEnd: innerRight - textRight };
  }, selector);
}

describe('right-to-left layout in Chromium: mirrored pages, checked in the DOM', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let work: string;
  let downloadPath: string;

  beforeAll(async () => {
    server = await FerryProcess.start();
    work = await tempDir('web-rtl');
    // A link transfer with a message and two files, sent by the CLI through the API.
    await fs.writeFile(path.join(work, 'minutes.txt'), 'Minutes of the Tuesday meeting\n');
    await fs.writeFile(path.join(work, 'floor-plan.pdf'), Buffer.alloc(40_000, 7));
    const sent = await runFerry(
      [
        'send',
        path.join(work, 'minutes.txt'),
        path.join(work, 'floor-plan.pdf'),
        '--server',
        server.url,
        '--message',
        'The plans for Tuesday',
      ],
      { FERRY_STATE_DIR: path.join(work, 'state') },
    );
    expect(sent.code, `${sent.stdout}\n${sent.stderr}`).toBe(0);
    const link = lines(sent.stdout).at(-1)!;
    expect(link).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}$`));
    downloadPath = new URL(link).pathname;

    // An account for the dashboard, registered and confirmed by the API (the mail lands in the outbox).
    const register = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: SENDER, password: PASSWORD }),
    });
    expect(register.status).toBe(202);
    const token = await verificationTokenFromOutbox(server.dataDir, SENDER);
    const verified = await fetch(`${server.url}/api/auth/verify-email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(verified.status).toBe(200);
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  /** `route` opened left to right and right to left, side by side, at `width`, signed in or not. */
  async function openBoth(
    route: string,
    width: number,
    ready: string,
    signedIn = false,
  ): Promise<Record<Dir, Page>> {
    const open = async (dir: Dir) => {
      const context = await scenarios.newContext({
        viewport: { width, height: 900 },
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      await forceDir(context, dir);
      const page = await context.newPage();
      if (signedIn) {
        await page.goto(`${server.url}/signin?next=${encodeURIComponent(route)}`);
        await page.getByTestId('signin-email').fill(SENDER);
        await page.getByTestId('signin-password').fill(PASSWORD);
        await page.getByTestId('signin-submit').click();
        await page.waitForURL((url) => url.pathname === route);
      } else {
        await page.goto(`${server.url}${route}`);
      }
      await page.locator(ready).first().waitFor({ timeout: 15_000 });
      // Past the panel's slide-in, so that boxes are where they stay.
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
            .map((a) => a.finished),
        ),
      );
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(dir);
      expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe(dir);
      return page;
    };
    return { ltr: await open('ltr'), rtl: await open('rtl') };
  }

  /** Each selector's rtl box is its ltr box mirrored in the page: same width, the same room on the other side. */
  async function expectMirrored(pages: Record<Dir, Page>, selectors: string[]): Promise<void> {
    const ltr = await boxes(pages.ltr, selectors);
    const rtl = await boxes(pages.rtl, selectors);
    expect(rtl.width).toBeCloseTo(ltr.width, 0);
    selectors.forEach((selector, i) => {
      const a = ltr.boxes[i]!;
      const b = rtl.boxes[i]!;
      const what = `${selector}: ltr ${a.left.toFixed(1)}…${a.right.toFixed(1)}, rtl ${b.left.toFixed(1)}…${b.right.toFixed(1)} in ${ltr.width}`;
      expect(Math.abs(b.width - a.width), what).toBeLessThanOrEqual(TOLERANCE);
      expect(Math.abs(b.left - (rtl.width - a.right)), what).toBeLessThanOrEqual(TOLERANCE);
    });
  }

  it('the uploader: brand, panel and steps mirrored, the title at the right', async () => {
    for (const width of WIDTHS) {
      const pages = await openBoth('/', width, '.upload-panel');
      await expectMirrored(pages, [
        '.brand',
        '.upload-panel',
        '.steps > li:first-child',
        '.steps > li:last-child',
        '.panel-actions .button-primary',
      ]);
      const [brand, first, last] = (
        await boxes(pages.rtl, ['.brand', '.steps > li:first-child', '.steps > li:last-child'])
      ).boxes;
      expect(brand!.right, 'the brand at the right').toBeGreaterThan(width / 2);
      expect(first!.left, 'step 1 right of step 4').toBeGreaterThan(last!.right);
      const title = await textSides(pages.rtl, '.welcome-title');
      expect(title.gapStart, 'the title starts at the right').toBeLessThanOrEqual(TOLERANCE);
      if (width > 768) {
        // Wide: the panel at the start (right), the title beside it to the left.
        const [panel, titleBox] = (await boxes(pages.rtl, ['.upload-panel', '.title-area'])).boxes;
        expect(panel!.left).toBeGreaterThan(titleBox!.right);
      }
      for (const page of Object.values(pages)) await fitsWidth(page, width);
    }
  });

  it('a download page: the file rows run from the right, the message’s bar on the right', async () => {
    for (const width of WIDTHS) {
      const pages = await openBoth(downloadPath, width, '[data-testid^="file-row-"]');
      await expectMirrored(pages, [
        '.brand',
        '.app-main .panel',
        '[data-testid="download-message"]',
        '.file-row .file-row-icon',
        '.file-row [data-testid^="download-file-"]',
        '[data-testid="download-all"]',
      ]);
      const rtl = pages.rtl;
      const [icon, name, size, button] = (
        await boxes(rtl, [
          '.file-row .file-row-icon',
          '.file-row .file-row-name',
          '.file-row .file-row-size',
          '.file-row .button',
        ])
      ).boxes;
      expect(icon!.left, 'icon right of the name').toBeGreaterThanOrEqual(name!.right);
      expect(name!.left, 'name right of the size').toBeGreaterThanOrEqual(size!.right);
      expect(size!.left, 'size right of the button').toBeGreaterThanOrEqual(button!.right);
      expect(
        (await textSides(rtl, '.app-main h1')).gapStart,
        'the heading starts at the right',
      ).toBeLessThanOrEqual(TOLERANCE);
      // The file name is Latin: it keeps its own order ("minutes.txt", not ".minutes txt") and the row's side.
      const fileName = rtl.locator('.file-row-name', { hasText: 'minutes.txt' });
      expect(await fileName.evaluate((e) => getComputedStyle(e).unicodeBidi)).toBe('plaintext');
      const nameText = await textSides(rtl, '.file-row-name');
      expect(nameText.gapStart, 'the name on the right of its cell').toBeLessThanOrEqual(TOLERANCE);
      const message = await rtl.getByTestId('download-message').evaluate((e) => {
        const s = getComputedStyle(e);
        return { right: s.borderRightWidth, left: s.borderLeftWidth };
      });
      expect(message).toEqual({ right: '4px', left: '0px' });
      for (const page of Object.values(pages)) await fitsWidth(page, width);
    }
  });

  it('sign-in: labels and fields from the right, the address typed left to right', async () => {
    for (const width of WIDTHS) {
      const pages = await openBoth('/signin', width, '[data-testid="signin-email"]');
      await expectMirrored(pages, [
        '.brand',
        '.auth-panel',
        '[data-testid="signin-email"]',
        '[data-testid="signin-submit"]',
      ]);
      const rtl = pages.rtl;
      const email = rtl.getByTestId('signin-email');
      // The label's words end where its field ends, on the right.
      const [labelRight, fieldRight] = await email.evaluate((input) => {
        const label = document.querySelector(`label[for="${input.id}"]`)!;
        const range = document.createRange();
        range.selectNodeContents(label);
        return [range.getBoundingClientRect().right, input.getBoundingClientRect().right];
      });
      expect(Math.abs(labelRight - fieldRight), 'the label over the field’s right end').toBeLessThanOrEqual(
        TOLERANCE,
      );
      await email.fill(SENDER);
      expect(
        await email.evaluate((e) => {
          const s = getComputedStyle(e);
          return [s.direction, s.textAlign];
        }),
      ).toEqual(['ltr', 'right']);
      for (const page of Object.values(pages)) await fitsWidth(page, width);
    }
  });

  it('the dashboard: the menu at the right, the panel sliding in from the left', async () => {
    for (const width of WIDTHS) {
      const pages = await openBoth('/dashboard', width, '[data-testid="dashboard-layout"]', true);
      await expectMirrored(pages, [
        '.brand',
        '.header-actions',
        '[data-testid="slide-panel"]',
        '[data-testid="slide-panel-close"]',
        '.dashboard-menu',
      ]);
      const rtl = pages.rtl;
      if (width > 768) {
        // Wide: the menu at the right of the content, the uploader's third on the right of the panel.
        const [menu, content] = (await boxes(rtl, ['.dashboard-menu', '.dashboard-content'])).boxes;
        expect(menu!.left).toBeGreaterThanOrEqual(content!.right);
        const [panel, behind] = (
          await boxes(rtl, ['[data-testid="slide-panel"]', '[data-testid="panel-behind"]'])
        ).boxes;
        expect(behind!.left).toBeGreaterThanOrEqual(panel!.right);
      }
      // Where the panel's slide starts: beyond its resting place on the inline end (right in ltr, left in rtl).
      const start = async (page: Page) =>
        page.getByTestId('slide-panel').evaluate((panel) => {
          const animation = panel.getAnimations()[0];
          if (!animation) throw new Error('the panel has no slide animation');
          const rest = panel.getBoundingClientRect().left;
          animation.pause();
          animation.currentTime = 0;
          const from = panel.getBoundingClientRect().left;
          animation.finish();
          return from - rest;
        });
      expect(await start(pages.ltr), 'ltr: from the right').toBeGreaterThan(width / 4);
      expect(await start(pages.rtl), 'rtl: from the left').toBeLessThan(-width / 4);
      for (const page of Object.values(pages)) await fitsWidth(page, width);
    }
  });
});
