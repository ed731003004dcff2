import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PREVIEW_LIMITS, type PreviewKind } from '@ferry/core';
import type { Logger } from 'pino';
import sharp, { type Sharp } from 'sharp';
import { runTool, ToolError, toolAvailable } from './tools.js';

/** A rendition written by the renderer, to be stored as a blob. */
export interface RenderedFile {
  role: 'thumb' | 'poster' | 'preview';
  /** Page of a PDF (1-based); 0 elsewhere. */
  page: number;
  path: string;
  contentType: string;
  width: number | null;
  height: number | null;
}

export type RenderResult =
  | { status: 'ready'; kind: PreviewKind; files: RenderedFile[]; pageCount: number | null }
  | { status: 'none'; kind: PreviewKind | null; reason: 'tool-missing' | 'failed' | 'unsupported' };

export interface RendererTools {
  /** null when the tool is not installed (detected at start): its kinds get no renditions. */
  ffmpeg: string | null;
  pdftoppm: string | null;
}

/** A hostile image cannot make sharp decode more than this many pixels. */
const MAX_INPUT_PIXELS = 100_000_000;
/** Nor a video ffmpeg (8K is 33 megapixels a frame). */
const MAX_VIDEO_PIXELS = '40000000';

// Each file is read once: libvips' operation cache would only hold memory.
sharp.cache(false);
const TOOL_TIMEOUT_MS = 120_000;

/**
 * Makes the thumbnail and the preview renditions of one file already on local disk, into `outDir`. Each kind
 * is held to the limits of PREVIEW_LIMITS; the original is never among the outputs.
 */
export class PreviewRenderer {
  constructor(private readonly tools: RendererTools) {}

  async render(kind: PreviewKind, input: string, outDir: string): Promise<RenderResult> {
    try {
      switch (kind) {
        case 'image':
          return await this.image(input, outDir);
        case 'video':
          return this.tools.ffmpeg ? await this.video(this.tools.ffmpeg, input, outDir) : missing(kind);
        case 'audio':
          return this.tools.ffmpeg ? await this.audio(this.tools.ffmpeg, input, outDir) : missing(kind);
        case 'pdf':
          return this.tools.pdftoppm ? await this.pdf(this.tools.pdftoppm, input, outDir) : missing(kind);
        case 'text':
          return await this.text(input, outDir);
      }
    } catch (error) {
      if (error instanceof ToolError && error.missing) return missing(kind);
      throw error;
    }
  }

  private async image(input: string, outDir: string): Promise<RenderResult> {
    // The first frame of an animation (sharp reads page 0), turned as EXIF says; metadata is not carried over.
    const source = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    const preview = await this.webp(source(), PREVIEW_LIMITS.imagePx, path.join(outDir, 'preview.webp'));
    const thumb = await this.webp(source(), PREVIEW_LIMITS.thumbnailPx, path.join(outDir, 'thumb.webp'));
    return {
      status: 'ready',
      kind: 'image',
      pageCount: null,
      files: [
        { role: 'thumb', page: 0, ...thumb },
        { role: 'preview', page: 0, ...preview },
      ],
    };
  }

  private async webp(image: Sharp, px: number, out: string) {
    const info = await image
      .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(out);
    return { path: out, contentType: 'image/webp', width: info.width, height: info.height };
  }

  /** A still from a downscaled image file (a video frame, a waveform, a PDF page). */
  private async still(
    input: string,
    role: 'thumb' | 'poster' | 'preview',
    page: number,
    px: number,
    out: string,
  ) {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS });
    return { role, page, ...(await this.webp(image, px, out)) } satisfies RenderedFile;
  }

  /** The thumbnail and the poster (shown before a clip plays) made from one still: a video frame, a waveform. */
  private async thumbAndPoster(source: string, outDir: string): Promise<[RenderedFile, RenderedFile]> {
    const poster = await this.still(
      source,
      'poster',
      0,
      PREVIEW_LIMITS.imagePx,
      path.join(outDir, 'poster.webp'),
    );
    const thumb = await this.still(
      source,
      'thumb',
      0,
      PREVIEW_LIMITS.thumbnailPx,
      path.join(outDir, 'thumb.webp'),
    );
    return [thumb, poster];
  }

  private async video(ffmpeg: string, input: string, outDir: string): Promise<RenderResult> {
    const frame = path.join(outDir, 'frame.png');
    const clip = path.join(outDir, 'clip.mp4');
    const scale = `scale=-2:'min(${PREVIEW_LIMITS.clipHeight},ih)'`;
    // A representative frame of the first seconds, at the clip's size: scaled first, so the 50 frames the
    // thumbnail filter compares are small ones whatever the source's resolution.
    await runTool(
      ffmpeg,
      [
        ...FFMPEG_IN,
        '-max_pixels',
        MAX_VIDEO_PIXELS,
        '-t',
        '10',
        '-i',
        input,
        '-vf',
        `${scale},thumbnail=50`,
        '-frames:v',
        '1',
        '-y',
        frame,
      ],
      { timeoutMs: TOOL_TIMEOUT_MS },
    );
    await runTool(
      ffmpeg,
      [
        ...FFMPEG_IN,
        '-max_pixels',
        MAX_VIDEO_PIXELS,
        '-t',
        String(PREVIEW_LIMITS.clipSeconds),
        '-i',
        input,
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-vf',
        scale,
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '28',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        '-ac',
        '2',
        '-movflags',
        '+faststart',
        '-threads',
        '2',
        '-f',
        'mp4',
        '-y',
        clip,
      ],
      { timeoutMs: TOOL_TIMEOUT_MS },
    );
    const [thumb, poster] = await this.thumbAndPoster(frame, outDir);
    return {
      status: 'ready',
      kind: 'video',
      pageCount: null,
      files: [
        thumb,
        poster,
        {
          role: 'preview',
          page: 0,
          path: clip,
          contentType: 'video/mp4',
          width: poster.width,
          height: poster.height,
        },
      ],
    };
  }

  private async audio(ffmpeg: string, input: string, outDir: string): Promise<RenderResult> {
    const wave = path.join(outDir, 'wave.png');
    const clip = path.join(outDir, 'clip.m4a');
    const seconds = String(PREVIEW_LIMITS.audioSeconds);
    await runTool(
      ffmpeg,
      [
        ...FFMPEG_IN,
        '-t',
        seconds,
        '-i',
        input,
        '-filter_complex',
        'aformat=channel_layouts=mono,showwavespic=s=960x240:colors=0x3F51B5',
        '-frames:v',
        '1',
        '-y',
        wave,
      ],
      { timeoutMs: TOOL_TIMEOUT_MS },
    );
    await runTool(
      ffmpeg,
      [
        ...FFMPEG_IN,
        '-t',
        seconds,
        '-i',
        input,
        '-map',
        '0:a:0',
        '-vn',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        '-y',
        clip,
      ],
      { timeoutMs: TOOL_TIMEOUT_MS },
    );
    const [thumb, poster] = await this.thumbAndPoster(wave, outDir);
    return {
      status: 'ready',
      kind: 'audio',
      pageCount: null,
      files: [
        thumb,
        poster,
        { role: 'preview', page: 0, path: clip, contentType: 'audio/mp4', width: null, height: null },
      ],
    };
  }

  private async pdf(pdftoppm: string, input: string, outDir: string): Promise<RenderResult> {
    const prefix = path.join(outDir, 'page');
    // -scale-to bounds the pixels whatever page size the PDF declares.
    await runTool(
      pdftoppm,
      [
        '-f',
        '1',
        '-l',
        String(PREVIEW_LIMITS.pdfPages),
        '-scale-to',
        String(PREVIEW_LIMITS.imagePx),
        '-png',
        input,
        prefix,
      ],
      { timeoutMs: TOOL_TIMEOUT_MS },
    );
    // pdftoppm pads page numbers to the document's page count (page-1.png, page-01.png …).
    const pages = (await fs.readdir(outDir))
      .map((name) => ({ name, n: Number(/^page-(\d+)\.png$/.exec(name)?.[1] ?? Number.NaN) }))
      .filter((p) => Number.isInteger(p.n))
      .sort((a, b) => a.n - b.n);
    if (pages.length === 0) return { status: 'none', kind: 'pdf', reason: 'failed' };
    const files: RenderedFile[] = [];
    for (const [i, p] of pages.entries()) {
      const src = path.join(outDir, p.name);
      if (i === 0)
        files.push(
          await this.still(src, 'thumb', 1, PREVIEW_LIMITS.thumbnailPx, path.join(outDir, 'thumb.webp')),
        );
      files.push(
        await this.still(src, 'preview', i + 1, PREVIEW_LIMITS.imagePx, path.join(outDir, `p${i + 1}.webp`)),
      );
    }
    return { status: 'ready', kind: 'pdf', pageCount: pages.length, files };
  }

  /** The first 64 KB as UTF-8 (a character cut at the end is dropped); a file with NUL bytes is no text. */
  private async text(input: string, outDir: string): Promise<RenderResult> {
    const chunks: Buffer[] = [];
    for await (const chunk of createReadStream(input, { start: 0, end: PREVIEW_LIMITS.textBytes - 1 }))
      chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (bytes.includes(0)) return { status: 'none', kind: 'text', reason: 'unsupported' };
    const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes, { stream: true });
    const out = path.join(outDir, 'preview.txt');
    await fs.writeFile(out, text, 'utf8');
    return {
      status: 'ready',
      kind: 'text',
      pageCount: null,
      files: [
        {
          role: 'preview',
          page: 0,
          path: out,
          contentType: 'text/plain; charset=utf-8',
          width: null,
          height: null,
        },
      ],
    };
  }
}

const FFMPEG_IN = ['-hide_banner', '-nostdin', '-loglevel', 'error'];

function missing(kind: PreviewKind): RenderResult {
  return { status: 'none', kind, reason: 'tool-missing' };
}

/**
 * Finds the tools at start: one log line for each one missing (its kinds then get `status: "none"`). Images and
 * text need none (sharp is a dependency).
 */
export async function detectPreviewTools(
  paths: { ffmpegPath: string; pdftoppmPath: string },
  logger: Pick<Logger, 'warn'>,
): Promise<RendererTools> {
  const ffmpeg = (await toolAvailable(paths.ffmpegPath, ['-version'])) ? paths.ffmpegPath : null;
  if (!ffmpeg)
    logger.warn(
      { tool: paths.ffmpegPath },
      'ffmpeg not found: videos and sounds get no thumbnails or previews (install ffmpeg)',
    );
  const pdftoppm = (await toolAvailable(paths.pdftoppmPath, ['-v'])) ? paths.pdftoppmPath : null;
  if (!pdftoppm)
    logger.warn(
      { tool: paths.pdftoppmPath },
      'pdftoppm not found: PDFs get no thumbnails or previews (install poppler-utils)',
    );
  return { ffmpeg, pdftoppm };
}
