import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/client.js';
import { PgPreviewRepository } from '../db/preview.repository.js';
import { detectPreviewTools, PreviewRenderer } from '../previews/renderer.js';
import { api, fetchBytes, sendTransfer } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { previewInputs } from '../test/preview-inputs.js';

const RENDITION_CSP = "sandbox; default-src 'none'";

describe('thumbnails and previews', () => {
  let ferry: TestFerry;
  let inputs: Awaited<ReturnType<typeof previewInputs>>;
  beforeAll(async () => {
    [ferry, inputs] = await Promise.all([
      startTestFerry({ env: { PREVIEWS_PER_TRANSFER: '3', PREVIEW_MAX_INPUT_MB: '1' } }),
      previewInputs(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await ferry?.close();
  });

  const thumbnails = (transferId: string, fileIds: string[], extra = '') =>
    api(ferry.baseUrl, `/api/transfer/downloads/thumbnail-links?transferId=${transferId}${extra}`, {
      method: 'POST',
      json: { fileIds, format: 'web' },
    });
  const preview = (transferId: string, fileId: string, extra = '') =>
    api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${transferId}&fileId=${fileId}&preview=true${extra}`,
    );

  /** Asks until no thumbnail is pending (the jobs run in the background), as the download page does. */
  async function settled(transferId: string, fileIds: string[], extra = '') {
    for (let i = 0; i < 120; i++) {
      const res = await thumbnails(transferId, fileIds, extra);
      expect(res.status).toBe(200);
      if (!res.body.thumbnails.some((t: { status: string }) => t.status === 'pending'))
        return res.body.thumbnails;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('thumbnails still pending');
  }

  async function image(url: string) {
    const res = await fetchBytes(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(RENDITION_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe('inline');
    return { ...res, meta: await sharp(res.data).metadata() };
  }

  it('makes a thumbnail and a preview of each kind, served sandboxed with their own content types', async () => {
    const files = [
      { name: 'wide.png', data: inputs.png },
      { name: 'turned.jpg', data: inputs.jpeg },
      { name: 'moving.gif', data: inputs.gif },
      { name: 'clip.mp4', data: inputs.mp4 },
      { name: 'tone.wav', data: inputs.wav },
      { name: 'report.pdf', data: inputs.pdf },
      { name: 'notes.txt', data: inputs.text },
      { name: 'data.bin', data: Buffer.from('not previewable') },
      // Not an image after all, and a file over PREVIEW_MAX_INPUT_MB: none, never a failed job or a hang.
      { name: 'broken.jpg', data: Buffer.from('this is no JPEG at all') },
      { name: 'huge.txt', data: Buffer.alloc(1_000_001, 'a') },
    ];
    const t = await sendTransfer(ferry.baseUrl, files);
    const ids = t.files.map((f) => f.id);
    const thumbs = await settled(t.transferId, ids);
    const by = (name: string) => thumbs[files.findIndex((f) => f.name === name)];
    expect(thumbs.map((x: { kind?: string; status: string }) => [x.kind ?? null, x.status])).toEqual([
      ['image', 'ready'],
      ['image', 'ready'],
      ['image', 'ready'],
      ['video', 'ready'],
      ['audio', 'ready'],
      ['pdf', 'ready'],
      ['text', 'none'],
      [null, 'none'],
      ['image', 'none'],
      ['text', 'none'],
    ]);
    expect(thumbs.slice(8).map((x: { preview: boolean }) => x.preview)).toEqual([false, false]);
    const reasons = await query<{ file_id: string; reason: string }>(
      ferry,
      'SELECT file_id, reason FROM file_previews WHERE transfer_id = $1 AND file_id = ANY($2)',
      [t.transferId, ids.slice(8)],
    );
    expect(Object.fromEntries(reasons.map((r) => [r.file_id, r.reason]))).toEqual({
      [ids[8]!]: 'failed',
      [ids[9]!]: 'too-large',
    });
    expect(by('notes.txt').preview).toBe(true);
    expect(by('data.bin')).toEqual({ fileId: ids[7], status: 'none', preview: false });

    // Thumbnails: WebP within 320 px, the JPEG's EXIF turn applied, the GIF's first frame.
    const png = await image(by('wide.png').url);
    expect(png.headers.get('content-type')).toBe('image/webp');
    expect([png.meta.format, png.meta.width, png.meta.height]).toEqual(['webp', 320, 160]);
    const jpeg = await image(by('turned.jpg').url);
    expect([jpeg.meta.width, jpeg.meta.height]).toEqual([160, 320]);
    expect(jpeg.meta.exif).toBeUndefined();
    const gif = await image(by('moving.gif').url);
    expect([gif.meta.width, gif.meta.height, gif.meta.pages ?? 1]).toEqual([64, 48, 1]);
    for (const name of ['clip.mp4', 'tone.wav', 'report.pdf']) {
      const thumb = await image(by(name).url);
      expect(Math.max(thumb.meta.width!, thumb.meta.height!)).toBeLessThanOrEqual(320);
    }

    // Previews: renditions only, never the file.
    const big = await preview(t.transferId, ids[0]!);
    expect(big.status).toBe(200);
    expect(big.body.preview).toMatchObject({ kind: 'image', pageCount: null, poster: null });
    const bigImage = await image(big.body.url);
    expect([bigImage.meta.format, bigImage.meta.width, bigImage.meta.height]).toEqual(['webp', 1600, 800]);

    const video = await preview(t.transferId, ids[3]!);
    expect(video.body.preview.kind).toBe('video');
    expect(video.body.preview.parts[0]).toMatchObject({ contentType: 'video/mp4', height: 480, width: 854 });
    const clip = await fetchBytes(video.body.url);
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    expect(clip.headers.get('content-security-policy')).toContain(RENDITION_CSP);
    expect(clip.data.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // faststart: the index (moov) comes before the media data, so playback starts at once.
    expect(clip.data.indexOf('moov')).toBeLessThan(clip.data.indexOf('mdat'));
    const part = await fetchBytes(video.body.url, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${clip.data.length}`);
    expect(part.data.equals(clip.data.subarray(0, 100))).toBe(true);
    const poster = await image(video.body.preview.poster.url);
    expect(poster.meta.height).toBe(480);
    expect(clip.data.equals(inputs.mp4)).toBe(false);
  }, 120_000);

  it('previews sound, PDF pages and text, counts previews apart from downloads and stops at the limit', async () => {
    const t = await sendTransfer(ferry.baseUrl, [
      { name: 'tone.wav', data: inputs.wav },
      { name: 'report.pdf', data: inputs.pdf },
      { name: 'notes.txt', data: inputs.text },
    ]);
    const ids = t.files.map((f) => f.id);
    await settled(t.transferId, ids);

    const sound = await preview(t.transferId, ids[0]!);
    expect(sound.body.preview).toMatchObject({ kind: 'audio', parts: [{ contentType: 'audio/mp4' }] });
    expect((await fetchBytes(sound.body.url)).headers.get('content-type')).toBe('audio/mp4');
    expect((await image(sound.body.preview.poster.url)).meta.format).toBe('webp');

    const pdf = await preview(t.transferId, ids[1]!);
    expect(pdf.body.preview.kind).toBe('pdf');
    expect(pdf.body.preview.pageCount).toBe(3);
    expect(pdf.body.preview.parts).toHaveLength(3);
    for (const page of pdf.body.preview.parts) {
      const shown = await image(page.url);
      expect(shown.meta.format).toBe('webp');
      expect(Math.max(shown.meta.width!, shown.meta.height!)).toBeLessThanOrEqual(1600);
    }

    const text = await preview(t.transferId, ids[2]!);
    const body = await fetchBytes(text.body.url);
    expect(body.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(body.headers.get('content-security-policy')).toContain(RENDITION_CSP);
    expect(body.data.length).toBeLessThanOrEqual(65_536);
    // The cut two-byte character is dropped, not turned into U+FFFD.
    const shown = body.data.toString('utf8');
    expect(shown.startsWith('a'.repeat(65_535))).toBe(true);
    expect(shown).not.toContain('\uFFFD');

    // PREVIEWS_PER_TRANSFER=3: the fourth is refused; nothing counted as a download.
    const over = await preview(t.transferId, ids[2]!);
    expect(over.status).toBe(403);
    expect(over.body.codes).toEqual(['TOO_MANY_PREVIEWS']);
    const [row] = await query<{ preview_count: number; download_count: number; logged: number }>(
      ferry,
      `SELECT preview_count, download_count, (SELECT count(*)::int FROM downloads WHERE transfer_id = $1) AS logged
         FROM transfers WHERE id = $1`,
      [t.transferId],
    );
    expect(row).toEqual({ preview_count: 3, download_count: 0, logged: 0 });
    // Thumbnails and downloads go on.
    expect((await thumbnails(t.transferId, ids)).status).toBe(200);
    expect((await api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}`)).status).toBe(
      200,
    );
  }, 120_000);

  it('makes nothing with allowPreview off, and takes rendition URLs back when the transfer closes', async () => {
    const off = await sendTransfer(ferry.baseUrl, [{ name: 'a.png', data: inputs.png }], {
      allowPreview: false,
    });
    const res = await thumbnails(off.transferId, [off.files[0]!.id]);
    expect(res.body).toEqual({ thumbnails: [{ fileId: off.files[0]!.id, status: 'none', preview: false }] });
    expect((await preview(off.transferId, off.files[0]!.id)).body.codes).toEqual(['FORBIDDEN']);
    expect(
      await query(ferry, 'SELECT 1 FROM file_previews WHERE transfer_id = $1', [off.transferId]),
    ).toEqual([]);

    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.png', data: inputs.png }], {
      password: 'open sesame',
    });
    expect((await thumbnails(t.transferId, [t.files[0]!.id])).body.codes).toEqual(['PASSWORD_REQUIRED']);
    expect((await thumbnails(t.transferId, [t.files[0]!.id], '&password=wrong')).body.codes).toEqual([
      'WRONG_PASSWORD',
    ]);
    const [thumb] = await settled(t.transferId, [t.files[0]!.id], '&password=open%20sesame');
    expect((await fetchBytes(thumb.url)).status).toBe(200);
    // A rendition URL is no download URL, and a forged one is nothing.
    const token = thumb.url.split('/renditions/')[1];
    expect((await fetchBytes(`${ferry.baseUrl}/api/transfer/downloads/blob/${token}`)).status).toBe(404);
    expect((await fetchBytes(`${ferry.baseUrl}/api/transfer/downloads/renditions/x${token}`)).status).toBe(
      404,
    );
    await query(ferry, "UPDATE transfers SET status = 'DISABLED' WHERE id = $1", [t.transferId]);
    expect((await fetchBytes(thumb.url)).status).toBe(410);
    await query(
      ferry,
      "UPDATE transfers SET status = 'ENABLED', access_epoch = access_epoch + 1 WHERE id = $1",
      [t.transferId],
    );
    expect((await fetchBytes(thumb.url)).status).toBe(404);
  }, 60_000);

  it('shows an S1 transfer’s thumbnails through a recipient’s personal link only', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.png', data: inputs.png }], {
      type: 'S1',
      senderEmail: 'ann@sender.example',
      recipients: ['bob@recipients.example'],
    });
    const fileIds = [t.files[0]!.id];
    expect((await thumbnails(t.transferId, fileIds)).body.codes).toEqual(['TRANSFER_NOT_FOUND']);
    expect((await thumbnails(t.transferId, fileIds, '&userSecret=guessed')).body.codes).toEqual([
      'TRANSFER_NOT_FOUND',
    ]);
    // The sender proves their address (code from the outbox), then Bob's mail brings his link.
    const code = /^(\d{6}) /.exec((await outboxMail('ann@sender.example')).subject ?? '')![1]!;
    const verified = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/sender-verification`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { code },
    });
    expect(verified.status).toBe(200);
    const secret = /userSecret=([A-Za-z0-9_-]+)/.exec(
      (await outboxMail('bob@recipients.example')).text ?? '',
    )![1]!;
    const [thumb] = await settled(t.transferId, fileIds, `&userSecret=${secret}`);
    expect(thumb).toMatchObject({ status: 'ready', kind: 'image', preview: true });
  }, 60_000);

  /** The newest mail to `to` in the outbox (DATA_DIR/outbox: no SMTP_URL in this file). */
  async function outboxMail(to: string) {
    const dir = path.join(ferry.dataDir, 'outbox');
    for (let i = 0; i < 100; i++) {
      const names = (await fs.readdir(dir).catch(() => [] as string[]))
        .filter((n) => n.endsWith('.eml'))
        .sort();
      for (const name of names.reverse()) {
        const mail = await simpleParser(await fs.readFile(path.join(dir, name)));
        const text = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join() : (mail.to?.text ?? '');
        if (text.includes(to)) return { subject: mail.subject, text: mail.text };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no mail to ${to}`);
  }

  it('gives a kind whose tool is missing no rendition, with one log line at start and no failure', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const tools = await detectPreviewTools(
      { ffmpegPath: '/nonexistent/ffmpeg', pdftoppmPath: '/nonexistent/pdftoppm' },
      logger,
    );
    expect(tools).toEqual({ ffmpeg: null, pdftoppm: null });
    expect(lines).toHaveLength(2);
    const renderer = new PreviewRenderer({
      ffmpeg: '/nonexistent/ffmpeg',
      pdftoppm: '/nonexistent/pdftoppm',
    });
    const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp(`${ferry.dataDir}/missing-`));
    const input = `${dir}/in`;
    await import('node:fs/promises').then((fs) => fs.writeFile(input, inputs.mp4));
    expect(await renderer.render('video', input, dir)).toEqual({
      status: 'none',
      kind: 'video',
      reason: 'tool-missing',
    });
    expect(await renderer.render('pdf', input, dir)).toEqual({
      status: 'none',
      kind: 'pdf',
      reason: 'tool-missing',
    });
  });

  it('keeps nothing of a transfer removed while its file was rendered (no failed job, no stray row)', async () => {
    const db = connectDatabase(ferry.databaseUrl, 1);
    try {
      const repo = new PgPreviewRepository(db.db);
      const gone = {
        transferId: 'GoneGoneGoneGone',
        fileId: 'Gone01',
        status: 'ready' as const,
        kind: 'image' as const,
        renditions: [],
        pageCount: null,
        reason: null,
      };
      expect(await repo.save(gone)).toBe(false);
      expect(
        await query(ferry, 'SELECT 1 FROM file_previews WHERE transfer_id = $1', [gone.transferId]),
      ).toEqual([]);
    } finally {
      await db.close();
    }
  });

  // Last: it expires every transfer of this file's database.
  it('deletes the renditions with the files when the transfer expires', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.png', data: inputs.png }]);
    await settled(t.transferId, [t.files[0]!.id]);
    const [row] = await query<{ renditions: Array<{ key: string }> }>(
      ferry,
      'SELECT renditions FROM file_previews WHERE transfer_id = $1',
      [t.transferId],
    );
    const files = row!.renditions.map((r) => path.join(ferry.dataDir, 'files', r.key));
    expect(files).toHaveLength(2);
    for (const file of files) await fs.access(file);
    await ferry.notifications.expireDue(new Date(Date.now() + 400 * 86_400_000));
    for (const file of files) await expect(fs.access(file)).rejects.toThrow();
  }, 60_000);
});

describe('renditions on a separate origin (PREVIEW_ORIGIN)', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry({ env: { PREVIEW_ORIGIN: 'http://previews.test' } });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  /** A GET to the test server as if to another host name (fetch may not set Host). */
  function getAs(host: string, path: string) {
    const { port } = new URL(ferry.baseUrl);
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        });
        req.on('error', reject);
      },
    );
  }

  it('hands out rendition URLs there, serves only them there, and lets the pages load them', async () => {
    const png = await sharp({ create: { width: 50, height: 40, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.png', data: png }]);
    let thumb: { status: string; url?: string } = { status: 'pending' };
    for (let i = 0; i < 60 && thumb.status === 'pending'; i++) {
      const res = await api(
        ferry.baseUrl,
        `/api/transfer/downloads/thumbnail-links?transferId=${t.transferId}`,
        {
          method: 'POST',
          json: { fileIds: [t.files[0]!.id], format: 'web' },
        },
      );
      thumb = res.body.thumbnails[0];
      if (thumb.status === 'pending') await new Promise((r) => setTimeout(r, 500));
    }
    expect(thumb.url).toMatch(/^http:\/\/previews\.test\/api\/transfer\/downloads\/renditions\//);
    const path = new URL(thumb.url!).pathname;
    const served = await getAs('previews.test', path);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['content-security-policy']).toContain("sandbox; default-src 'none'");
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.headers['access-control-allow-origin']).toBe('*');
    expect((await sharp(served.body).metadata()).width).toBe(50);
    // Nothing else there: no page, no API.
    expect(
      (await getAs('previews.test', `/api/transfer/downloads/info?transferId=${t.transferId}`)).status,
    ).toBe(404);
    expect((await getAs('previews.test', `/dl/${t.transferId}`)).status).toBe(404);
    // Ferry's own pages may show images and media from there, and read its text.
    const page = await fetch(`${ferry.baseUrl}/dl/${t.transferId}`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/img-src [^;]*http:\/\/previews\.test/);
    expect(csp).toContain("media-src 'self' http://previews.test");
    expect(csp).toMatch(/connect-src [^;]*http:\/\/previews\.test/);
  }, 60_000);
});
