import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Download, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { dropFiles, useBrowser } from '../support/browser.js';
import {
  readZip,
  SizeSampler,
  sha256,
  sha256File,
  sizeOf,
  waitFor,
  writeRandomFile,
  writeTree,
} from '../support/files.js';
import { FerryProcess, tempDir } from '../support/server.js';

const MiB = 1024 * 1024;
const UPLOADS_PATH = '/api/transfer/uploads';

/** Titles of the rows of a file list: the full relative path for files of a folder, the name otherwise. */
function rowTitles(list: Locator): Promise<string[]> {
  return list.locator('.file-row-name').evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''));
}

/** Clicks, waits for the browser download it starts, and for its bytes to be on disk. */
async function downloadBy(
  page: Page,
  click: () => Promise<void>,
): Promise<{ download: Download; file: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), click()]);
  const file = await download.path();
  expect(await download.failure()).toBeNull();
  return { download, file };
}

/** The download page's rows: file id → title (relative path or name). */
async function downloadRows(page: Page): Promise<Map<string, string>> {
  const rows = page.locator('[data-testid^="file-row-"]');
  await rows.first().waitFor({ timeout: 30_000 });
  const pairs = await rows.evaluateAll((els) =>
    els.map((el) => [
      el.getAttribute('data-testid')!.slice('file-row-'.length),
      el.querySelector('.file-row-name')?.getAttribute('title') ?? '',
    ]),
  );
  return new Map(pairs as Array<[string, string]>);
}

function idOf(rows: Map<string, string>, title: string): string {
  const found = [...rows].find(([, t]) => t === title);
  if (!found) throw new Error(`no row titled ${title} in ${JSON.stringify([...rows.values()])}`);
  return found[0];
}

/** Steps 2 → 4 of the uploader once files are chosen; returns the link of the done step. */
async function finishUpload(page: Page, options: { password?: string } = {}): Promise<string> {
  await page.getByTestId('next').click();
  if (options.password !== undefined) await page.getByTestId('transfer-password').fill(options.password);
  await page.getByTestId('start-upload').click();
  const link = page.getByTestId('transfer-link');
  await link.waitFor({ timeout: 120_000 });
  return link.inputValue();
}

/** Horizontal overflow of the page and where an element lies, for the phone layout. */
async function expectWithinViewport(locator: Locator, width: number): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 10_000 });
  const box = await locator.boundingBox();
  expect(box, 'element has a box').not.toBeNull();
  expect(box!.width).toBeGreaterThan(0);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5);
}

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

describe('the web app, end to end against the built server', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let work: string;

  beforeAll(async () => {
    server = await FerryProcess.start();
    work = await tempDir('web');
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('sends two dropped files and a folder, and the recipient gets each file and the ZIP with folder paths kept', async () => {
    const root = path.join(work, 'transfer');
    const sources: Record<string, Buffer> = {
      'report.txt': Buffer.from('Quarterly report\nAll good.\n'),
      'photo.bin': randomBytes(300 * 1024),
      'album/cover.txt': Buffer.from('cover of the album\n'),
      'album/inner/deep.bin': randomBytes(200 * 1024 + 7),
    };
    await writeTree(path.join(root, 'loose'), {
      'report.txt': sources['report.txt']!,
      'photo.bin': sources['photo.bin']!,
    });
    await writeTree(root, {
      'album/cover.txt': sources['album/cover.txt']!,
      'album/inner/deep.bin': sources['album/inner/deep.bin']!,
    });

    const sender = await scenarios.newPage();
    await sender.goto(`${server.url}/#S2`);
    // The two files dropped on the drop zone, the folder picked with the folder button.
    await dropFiles(sender.getByTestId('dropzone'), [
      path.join(root, 'loose/report.txt'),
      path.join(root, 'loose/photo.bin'),
    ]);
    await waitFor(async () => (await rowTitles(sender.getByTestId('file-list'))).length === 2, {
      what: 'the two dropped files',
    });
    await sender.getByTestId('folder-input').setInputFiles(path.join(root, 'album'));
    const list = sender.getByTestId('file-list');
    await waitFor(async () => (await rowTitles(list)).length === 4, { what: 'four chosen files' });
    expect((await rowTitles(list)).sort()).toEqual(Object.keys(sources).sort());

    const link = await finishUpload(sender);
    expect(link).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}$`));

    // The recipient: another browser profile, knowing only the link.
    const recipient = await scenarios.newPage();
    await recipient.goto(link);
    const rows = await downloadRows(recipient);
    expect([...rows.values()].sort()).toEqual(Object.keys(sources).sort());

    const single = await downloadBy(recipient, () =>
      recipient.getByTestId(`download-file-${idOf(rows, 'photo.bin')}`).click(),
    );
    expect(single.download.suggestedFilename()).toBe('photo.bin');
    expect(sha256(await fs.readFile(single.file))).toBe(sha256(sources['photo.bin']!));

    const all = recipient.getByTestId('download-all');
    await waitFor(() => all.isEnabled(), { what: 'download-all to be enabled again' });
    const zip = await downloadBy(recipient, () => all.click());
    expect(zip.download.suggestedFilename()).toMatch(/\.zip$/);
    const entries = await readZip(zip.file);
    expect([...entries.keys()].sort()).toEqual(Object.keys(sources).sort());
    for (const [name, bytes] of Object.entries(sources)) {
      expect(sha256(entries.get(name)!), `ZIP entry ${name}`).toBe(sha256(bytes));
    }
  });

  it('protects a transfer with the password set in the options step', async () => {
    const dir = path.join(work, 'password');
    const content = Buffer.from('top secret numbers: 4 8 15 16 23 42\n');
    await writeTree(dir, { 'secret.txt': content, 'other.txt': 'not the one we download\n' });
    const password = 'correct horse battery staple';

    const sender = await scenarios.newPage();
    await sender.goto(`${server.url}/#S2`);
    await sender
      .getByTestId('file-input')
      .setInputFiles([path.join(dir, 'secret.txt'), path.join(dir, 'other.txt')]);
    const link = await finishUpload(sender, { password });

    const recipient = await scenarios.newPage();
    await recipient.goto(link);
    const input = recipient.getByTestId('password-input');
    await input.waitFor({ timeout: 30_000 });
    const rows = recipient.locator('[data-testid^="file-row-"]');
    expect(await rows.count()).toBe(0);
    // Nothing about the files reaches a browser without the password, not even through the API.
    const transferId = new URL(link).pathname.split('/').at(-1)!;
    const locked = await fetch(`${server.url}/api/transfer/downloads/info?transferId=${transferId}`);
    expect(locked.status).toBe(200);
    expect(await locked.json()).toMatchObject({ passwordProtected: true, locked: true, files: [] });
    expect(await recipient.getByTestId('download-all').count()).toBe(0);

    await input.fill('not the password');
    await recipient.getByTestId('password-submit').click();
    await recipient.getByTestId('password-error').waitFor({ timeout: 15_000 });
    expect(await rows.count()).toBe(0);
    expect(await recipient.getByTestId('download-all').count()).toBe(0);
    expect(await recipient.content()).not.toContain('secret.txt');

    await input.fill(password);
    await recipient.getByTestId('password-submit').click();
    const listed = await downloadRows(recipient);
    expect([...listed.values()].sort()).toEqual(['other.txt', 'secret.txt']);
    expect(await recipient.getByTestId('password-input').count()).toBe(0);

    const got = await downloadBy(recipient, () =>
      recipient.getByTestId(`download-file-${idOf(listed, 'secret.txt')}`).click(),
    );
    expect(got.download.suggestedFilename()).toBe('secret.txt');
    expect(await fs.readFile(got.file)).toEqual(content);
  });

  it('resumes an upload after a reload mid-transfer, from the bytes the server already has', async () => {
    const size = 256 * MiB;
    const source = path.join(work, 'resume', 'resume-big.bin');
    const sourceSha = await writeRandomFile(source, size);

    const context = await scenarios.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Slow uploads down (bytes per second) so the reload lands in the middle of the first 50 MiB PATCH.
    const throttle = (uploadThroughput: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput,
      });
    await throttle(6 * MiB);

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    let reloaded = false;
    const afterReload: Array<{ request: Request; method: string; url: string; offset: number | null }> = [];
    page.on('request', (request) => {
      if (!reloaded || !new URL(request.url()).pathname.startsWith(UPLOADS_PATH)) return;
      const offset = request.headers()['upload-offset'];
      afterReload.push({
        request,
        method: request.method(),
        url: request.url(),
        offset: offset === undefined ? null : Number(offset),
      });
    });

    await page.goto(`${server.url}/#S2`);
    await page.getByTestId('file-input').setInputFiles(source);
    await page.getByTestId('next').click();
    await page.getByTestId('start-upload').click();

    // The page keeps the unfinished transfer (and tus its upload URL) in localStorage.
    const pending = await waitFor(
      async () => {
        const raw = await page.evaluate(() => localStorage.getItem('ferry.pendingUpload'));
        return raw
          ? (JSON.parse(raw) as {
              transferId: string;
              uploadToken: string;
              files: Array<{ id: string; name: string }>;
            })
          : null;
      },
      { what: 'the pending upload record in localStorage' },
    );
    expect(pending.files).toHaveLength(1);
    const fileId = pending.files[0]!.id;
    const uploadUrl = await waitFor(
      () =>
        page.evaluate((prefix) => {
          for (let i = 0; i < localStorage.length; i++) {
            const key = localStorage.key(i)!;
            if (key.startsWith(prefix)) return JSON.parse(localStorage.getItem(key)!).uploadUrl as string;
          }
          return null;
        }, `tus::ferry:${pending.transferId}:${fileId}:`),
      { what: 'tus to store the upload URL' },
    );
    expect(new URL(uploadUrl).pathname).toBe(`${UPLOADS_PATH}/${pending.transferId}-${fileId}`);

    // What the server has written so far (read from disk: a tus HEAD would take the upload's lock).
    const stored = path.join(server.dataDir, 'files', 'uploads', `${pending.transferId}-${fileId}`);
    await waitFor(async () => ((await sizeOf(stored)) ?? 0) >= 16 * MiB, {
      timeoutMs: 60_000,
      intervalMs: 50,
      what: 'the server to hold 16 MiB of the upload',
    });
    expect(Number(await page.getByTestId('progress-total').getAttribute('value'))).toBeGreaterThan(0);

    reloaded = true;
    await page.reload();
    const heldAtReload = (await sizeOf(stored))!;
    expect(heldAtReload).toBeGreaterThanOrEqual(16 * MiB);
    expect(heldAtReload).toBeLessThan(size);
    expect(dialogs, 'leaving mid-upload asks first').toContain('beforeunload');
    const sampler = new SizeSampler(stored).start();

    try {
      // The server still has the transfer unfinished; the page offers to resume it.
      const state = await fetch(`${server.url}/api/transfer/transfers/${pending.transferId}/upload-state`, {
        headers: { 'x-upload-token': pending.uploadToken },
      });
      expect(state.status).toBe(200);
      const summary = (await state.json()) as {
        status: string;
        files: Array<{ id: string; uploaded: boolean }>;
      };
      expect(summary.status).toBe('UPLOADING');
      expect(summary.files.find((f) => f.id === fileId)?.uploaded).toBe(false);

      const banner = page.getByTestId('resume-banner');
      await banner.waitFor({ timeout: 30_000 });
      expect(await banner.textContent()).toContain('resume-big.bin');

      await throttle(-1);
      await page.getByTestId('file-input').setInputFiles(source);
      const link = page.getByTestId('transfer-link');
      await link.waitFor({ timeout: 180_000 });
      expect(await link.inputValue()).toBe(`${server.url}/dl/${pending.transferId}`);
    } finally {
      sampler.stop();
    }

    // It resumed: no new upload was created, tus asked the existing upload for its offset, and every byte
    // sent after the reload was sent from (at least) what the server already held.
    const tus = afterReload.filter((r) => r.method !== 'OPTIONS');
    expect(tus.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([]);
    const heads = tus.filter((r) => r.method === 'HEAD');
    expect(heads.length).toBeGreaterThan(0);
    expect(heads.every((r) => r.url === uploadUrl)).toBe(true);
    const headOffsets: number[] = [];
    for (const head of heads) {
      const response = await head.request.response();
      if (response?.status() === 200) headOffsets.push(Number(response.headers()['upload-offset']));
    }
    expect(headOffsets.length).toBeGreaterThan(0);
    expect(headOffsets[0]).toBeGreaterThanOrEqual(heldAtReload);
    const patches = tus.filter((r) => r.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.every((r) => r.url === uploadUrl)).toBe(true);
    expect(Math.min(...patches.map((r) => r.offset ?? -1))).toBeGreaterThanOrEqual(heldAtReload);
    expect(sampler.samples.length).toBeGreaterThan(0);
    expect(sampler.min()).toBeGreaterThanOrEqual(heldAtReload);
    expect(sampler.shrank()).toBe(false);

    // The recipient gets exactly the source's bytes.
    const recipient = await scenarios.newPage();
    await recipient.goto(`${server.url}/dl/${pending.transferId}`);
    const rows = await downloadRows(recipient);
    const got = await downloadBy(recipient, () =>
      recipient.getByTestId(`download-file-${idOf(rows, 'resume-big.bin')}`).click(),
    );
    expect(await sha256File(got.file)).toBe(sourceSha);
    await fs.rm(path.dirname(source), { recursive: true, force: true });
  });

  it('fits a phone screen (375×740) without horizontal scrolling', async () => {
    const width = 375;
    const dir = path.join(work, 'phone');
    const longName = `a-very-long-file-name-without-any-break-opportunity-${'x'.repeat(120)}.txt`;
    await writeTree(dir, { [longName]: 'long name\n', 'folder/with/deep/nesting/inside.txt': 'nested\n' });

    const page = await scenarios.newPage({
      viewport: { width, height: 740 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await page.goto(`${server.url}/#S2`);
    await page.getByTestId('dropzone').waitFor();
    expect(await page.evaluate(() => document.documentElement.clientWidth)).toBe(width);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    await expectWithinViewport(page.getByTestId('dropzone'), width);
    await expectWithinViewport(page.getByRole('button', { name: 'Add files' }), width);
    await expectWithinViewport(page.getByRole('button', { name: 'Add folder' }), width);
    await expectWithinViewport(page.getByTestId('language-switcher'), width);

    await page.getByTestId('file-input').setInputFiles(path.join(dir, longName));
    await page.getByTestId('folder-input').setInputFiles(path.join(dir, 'folder'));
    await waitFor(async () => (await rowTitles(page.getByTestId('file-list'))).length === 2, {
      what: 'two chosen files',
    });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    await expectWithinViewport(page.getByTestId('file-list'), width);
    await expectWithinViewport(page.getByTestId('next'), width);

    await page.getByTestId('next').click();
    await page.getByTestId('transfer-password').waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    for (const id of [
      'transfer-name',
      'transfer-message',
      'transfer-password',
      'transfer-expiry',
      'start-upload',
    ])
      await expectWithinViewport(page.getByTestId(id), width);

    await page.getByTestId('start-upload').click();
    await page.getByTestId('transfer-link').waitFor({ timeout: 60_000 });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    await expectWithinViewport(page.getByTestId('transfer-link'), width);
    await expectWithinViewport(page.getByTestId('copy-link'), width);

    await page.goto(await page.getByTestId('transfer-link').inputValue());
    await downloadRows(page);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    await expectWithinViewport(page.getByTestId('download-all'), width);
  });
});
