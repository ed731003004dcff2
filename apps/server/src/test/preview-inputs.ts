import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** A PDF of `pages` US-letter pages, each with a filled rectangle, written by hand (xref offsets counted). */
export function minimalPdf(pages: number): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  for (let i = 0; i < pages; i++) {
    const stream = `0.2 0.3 0.7 rg 72 ${72 + i * 20} 300 400 re f`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Small files of every kind, made here: images by sharp, a video and a tone by ffmpeg's generators. */
export async function previewInputs() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-preview-inputs-'));
  try {
    const solid = (width: number, height: number, r: number) =>
      sharp({ create: { width, height, channels: 3, background: { r, g: 80, b: 160 } } });
    const png = await solid(2400, 1200, 200).png().toBuffer();
    // Stored landscape, shown portrait: EXIF orientation 6 (turn 90° clockwise).
    const jpeg = await solid(400, 200, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const frames = await Promise.all([10, 240].map((r) => solid(64, 48, r).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const video = path.join(dir, 'clip.mp4');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=1280x720:rate=25:duration=2',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-y',
      video,
    ]);
    const tone = path.join(dir, 'tone.wav');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=2',
      '-y',
      tone,
    ]);
    // 100 KB of text whose 64 KB cut falls inside a two-byte character.
    const text = Buffer.from(`${'a'.repeat(65_535)}${'é'.repeat(20_000)}`, 'utf8');
    return {
      png,
      jpeg,
      gif,
      mp4: await fs.readFile(video),
      wav: await fs.readFile(tone),
      pdf: minimalPdf(5),
      text,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
