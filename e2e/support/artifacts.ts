import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestContext } from 'vitest';
import { REPO_ROOT } from './server.js';

/** The pictures of the app that docs/ shows, taken by the suites on every run. */
export const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');

/**
 * A full-page picture of `page` in docs/screenshots. Notifications are dismissed first, as a reader would (rather
 * than waited out), so that it shows the page.
 */
export async function docScreenshot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOTS_DIR, { recursive: true });
  const toasts = page.getByTestId('toast');
  // A toast may close by itself meanwhile: the click then has nothing to do.
  while ((await toasts.count()) > 0)
    await toasts
      .first()
      .getByRole('button', { name: 'Dismiss' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, {
    timeout: 10_000,
  });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, name), fullPage: true, animations: 'disabled' });
}

/** Where screenshots and logs of failed tests go (git-ignored). */
export const RESULTS_DIR = path.join(REPO_ROOT, 'e2e', 'test-results');

function slug(text: string): string {
  return text
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 120);
}

/** The path prefix of a test's artifacts: `e2e/test-results/<file>-<test name>`. */
export async function artifactBase(context: TestContext): Promise<string> {
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  const file = path.basename(context.task.file?.name ?? '').replace(/\.e2e\.test\.ts$/, '');
  return path.join(RESULTS_DIR, slug(`${file}-${context.task.name}`));
}

export function failed(context: TestContext): boolean {
  return context.task.result?.state === 'fail';
}

/** Saves a text artifact (server output, CLI output…) of a failed test. */
export async function saveArtifact(context: TestContext, suffix: string, text: string): Promise<void> {
  await fs.writeFile(`${await artifactBase(context)}-${suffix}`, text).catch(() => undefined);
}
