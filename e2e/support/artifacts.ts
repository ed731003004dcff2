import fs from 'node:fs/promises';
import path from 'node:path';
import { SCREENSHOT_SMALL_WIDTH, smallScreenshotName } from '@ferry/core';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
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
  await dismissToasts(page);
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, name), fullPage: true, animations: 'disabled' });
}

/** Closes the toasts on screen, as a reader would (rather than waiting them out), so that a picture shows the page. */
async function dismissToasts(page: Page): Promise<void> {
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
}

/** The pictures of the public site's guides (`image` in site/content/<lang>/guides.json), taken by the suites. */
export const SITE_SCREENSHOTS_DIR = path.join(REPO_ROOT, 'apps', 'server', 'src', 'site', 'screenshots');
/** The window the guides' pictures are taken in: every picture of a guide has this size. */
export const SITE_VIEWPORT = { width: 1280, height: 800 } as const;

/** Width and height of a baseline or progressive JPEG, read from its first SOF marker; null when it is no JPEG. */
export function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // SOF0…SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

/**
 * What the window shows, as a JPEG (quality 70) in site/screenshots, for the public site's guides. Toasts are
 * dismissed first. Throws unless the file written is a JPEG of the window's size, so a guide never shows a
 * missing or broken picture.
 */
export async function siteScreenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9-]+\.jpg$/.test(name))
    throw new Error(`a guide picture is named like "step-name.jpg": ${name}`);
  await fs.mkdir(SITE_SCREENSHOTS_DIR, { recursive: true });
  await dismissToasts(page);
  const file = path.join(SITE_SCREENSHOTS_DIR, name);
  await fs.rm(file, { force: true });
  await page.screenshot({ path: file, type: 'jpeg', quality: 70, animations: 'disabled' });
  const size = jpegSize(await fs.readFile(file));
  const viewport = page.viewportSize();
  if (!size || !viewport || size.width !== viewport.width || size.height !== viewport.height)
    throw new Error(`${file} is not a ${viewport?.width}×${viewport?.height} JPEG: ${JSON.stringify(size)}`);
  await writeSmallScreenshot(file);
  return file;
}

/** The phone-sized copy of a guide screenshot, beside it (core's smallScreenshotName). */
export async function writeSmallScreenshot(file: string): Promise<string> {
  const small = path.join(path.dirname(file), smallScreenshotName(path.basename(file)));
  await sharp(file)
    .resize({ width: SCREENSHOT_SMALL_WIDTH })
    .jpeg({ quality: 70, mozjpeg: true, progressive: true })
    .toFile(small);
  return small;
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
