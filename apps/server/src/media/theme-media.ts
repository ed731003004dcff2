import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ThemeAssetKind } from '@ferry/core';
import sharp, { type OutputInfo } from 'sharp';
import { AppError } from '../services/app-error.js';

/** A theme asset made ready on local disk, to be stored as a blob. */
export interface PreparedAsset {
  path: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
}

/** What the customization service asks of media handling (the port it is given). */
export interface ThemeMedia {
  /**
   * Reads an upload (at most the kind's byte limit) into `workDir` and returns what is to be stored: an image
   * decoded and encoded again (WebP, or PNG for a mail header), metadata dropped, within the kind's dimensions;
   * a video as it came once its container is known to be MP4 or WebM.
   */
  prepare(kind: ThemeAssetKind, body: Readable, workDir: string): Promise<PreparedAsset>;
}

export interface ThemeMediaLimits {
  /** Bytes an uploaded image may have (before it is encoded again). */
  imageMaxBytes: number;
  videoMaxBytes: number;
}

/** The largest width and height each kind of image keeps (larger ones are scaled down, never up). */
export const IMAGE_BOUNDS: Record<Exclude<ThemeAssetKind, 'video'>, { width: number; height: number }> = {
  logo: { width: 1024, height: 1024 },
  wallpaper: { width: 2560, height: 2560 },
  mailHeader: { width: 1200, height: 600 },
};

/** Raster formats sharp decodes that are taken; SVG (a document that can carry script) and PDF never are. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/** A hostile image cannot make sharp decode more than this many pixels. */
const MAX_INPUT_PIXELS = 100_000_000;

sharp.cache(false);

/**
 * Writes a body to `file`, at most `max` bytes. Past that the write stops and the rest of the body is read and
 * dropped (never stored), so that the request ends normally and the client gets the 413.
 */
function saveCapped(body: Readable, file: string, max: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    let seen = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      body.unpipe(out);
      body.resume();
      out.destroy();
      reject(error);
    };
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > max)
        fail(
          new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${Math.floor(max / 1_000_000)} MB.`, {
            details: { maxBytes: max },
          }),
        );
    });
    body.on('error', fail);
    out.on('error', fail);
    out.on('finish', () => {
      if (!failed) resolve();
    });
    body.pipe(out);
  });
}

/** MP4 (an ISO BMFF `ftyp` box first) or WebM (EBML with the `webm` doc type), by the first bytes. */
export function videoTypeOf(head: Buffer): 'video/mp4' | 'video/webm' | null {
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  if (
    head.length >= 4 &&
    head[0] === 0x1a &&
    head[1] === 0x45 &&
    head[2] === 0xdf &&
    head[3] === 0xa3 &&
    head.includes(Buffer.from('webm', 'latin1'))
  )
    return 'video/webm';
  return null;
}

const refused = (message: string) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', message, { details: { field: 'body' } });

/** sharp for images, a signature check for videos (not encoded again: see docs/customization.md). */
export class SharpThemeMedia implements ThemeMedia {
  constructor(private readonly limits: ThemeMediaLimits) {}

  async prepare(kind: ThemeAssetKind, body: Readable, workDir: string): Promise<PreparedAsset> {
    const input = path.join(workDir, 'upload');
    const max = kind === 'video' ? this.limits.videoMaxBytes : this.limits.imageMaxBytes;
    await saveCapped(body, input, max);
    return kind === 'video' ? this.video(input) : this.image(kind, input, workDir);
  }

  private async video(input: string): Promise<PreparedAsset> {
    const handle = await fs.open(input, 'r');
    let head: Buffer;
    try {
      head = Buffer.alloc(64);
      const { bytesRead } = await handle.read(head, 0, 64, 0);
      head = head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
    const contentType = videoTypeOf(head);
    if (!contentType) throw refused('A background video must be an MP4 or WebM file.');
    const { size } = await fs.stat(input);
    return { path: input, contentType, size, width: null, height: null };
  }

  private async image(
    kind: Exclude<ThemeAssetKind, 'video'>,
    input: string,
    workDir: string,
  ): Promise<PreparedAsset> {
    let format: string | undefined;
    try {
      format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
    } catch {
      throw refused('This file is not an image Ferry can read (JPEG, PNG, WebP, GIF, AVIF, HEIF or TIFF).');
    }
    if (!format || !IMAGE_FORMATS.has(format))
      throw refused('Only raster images are taken (JPEG, PNG, WebP, GIF, AVIF, HEIF or TIFF); SVG is not.');
    const bounds = IMAGE_BOUNDS[kind];
    // Mail clients show PNG everywhere; pages take the smaller WebP. No metadata is written (no EXIF, no ICC
    // beyond sRGB): the output is made from the decoded pixels only.
    const png = kind === 'mailHeader';
    const output = path.join(workDir, png ? 'asset.png' : 'asset.webp');
    let info: OutputInfo;
    try {
      const pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ ...bounds, fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb');
      info = await (png ? pipeline.png({ compressionLevel: 9 }) : pipeline.webp({ quality: 86 })).toFile(
        output,
      );
    } catch {
      throw refused('This image could not be read.');
    }
    return {
      path: output,
      contentType: png ? 'image/png' : 'image/webp',
      size: info.size,
      width: info.width,
      height: info.height,
    };
  }
}
