import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, type TestContext } from 'vitest';
import { artifactBase, failed } from './artifacts.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

interface TrackedPage {
  page: Page;
  log: string[];
}

/**
 * One Chromium for a test file, a fresh context per scenario. Every page opened in a context of the current
 * test is tracked; when the test fails, each gets a screenshot (and its console/page-error log) in
 * `e2e/test-results/`; then all contexts of the test are closed.
 */
export function useBrowser() {
  let browser: Browser | null = null;
  let contexts: BrowserContext[] = [];
  let pages: TrackedPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      const base = await artifactBase(context);
      for (const [i, { page, log }] of pages.entries()) {
        const name = `${base}-page${i + 1}`;
        if (!page.isClosed()) {
          await page
            .screenshot({ path: `${name}.png`, fullPage: true, timeout: 10_000 })
            .catch(() => undefined);
          log.push(`[url] ${page.url()}`);
        }
        await fs.writeFile(`${name}.log`, `${log.join('\n')}\n`).catch(() => undefined);
      }
    }
    const closing = contexts;
    contexts = [];
    pages = [];
    for (const c of closing) await c.close().catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    browser = null;
  });

  return {
    get browser(): Browser {
      if (!browser) throw new Error('the browser is not started (use inside a test)');
      return browser;
    },
    /**
     * A new isolated context (downloads accepted), tracked for screenshots on failure. Its visitor has already
     * answered the cookie-consent widget ("only necessary"), as a returning visitor has, so the widget does not
     * cover the page; `consent: null` opens a first visit instead (the widget shown), `'all'` an accepted one.
     */
    async newContext(
      options: BrowserContextOptions & { consent?: 'necessary' | 'all' | null } = {},
    ): Promise<BrowserContext> {
      if (!browser) throw new Error('the browser is not started (use inside a test)');
      const { consent = 'necessary', ...contextOptions } = options;
      const context = await browser.newContext({ acceptDownloads: true, ...contextOptions });
      if (consent) {
        await context.addCookies(
          ['127.0.0.1', 'localhost'].map((domain) => ({
            name: 'ferry_consent',
            value: consent,
            domain,
            path: '/',
          })),
        );
      }
      contexts.push(context);
      context.on('page', (page) => {
        const tracked: TrackedPage = { page, log: [] };
        pages.push(tracked);
        page.on('console', (m) => tracked.log.push(`[console.${m.type()}] ${m.text()}`));
        page.on('pageerror', (e) => tracked.log.push(`[pageerror] ${e.stack ?? e.message}`));
        page.on('requestfailed', (r) =>
          tracked.log.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`),
        );
      });
      return context;
    },
    /** A new context with one page already open. */
    async newPage(
      options: BrowserContextOptions & { consent?: 'necessary' | 'all' | null } = {},
    ): Promise<Page> {
      const context = await this.newContext(options);
      return context.newPage();
    },
  };
}

/**
 * Drops files on an element the way a drag from the desktop ends: dragenter, dragover, drop, carrying a
 * DataTransfer built in the page from the files' bytes (small files only). A page-made DataTransfer has no
 * file-system entries (webkitGetAsEntry() is null), so this drops loose files, not folders.
 */
export async function dropFiles(target: Locator, files: string[]): Promise<void> {
  const payload = await Promise.all(
    files.map(async (file) => ({
      name: path.basename(file),
      base64: (await fs.readFile(file)).toString('base64'),
    })),
  );
  const dataTransfer = await target
    .page()
    .evaluateHandle((items: Array<{ name: string; base64: string }>) => {
      const transfer = new DataTransfer();
      for (const item of items) {
        const bytes = Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], item.name, { type: 'application/octet-stream' }));
      }
      return transfer;
    }, payload);
  try {
    for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
  } finally {
    await dataTransfer.dispose();
  }
}
