import sharp from 'sharp';

/**
 * Measures of screenshots, so that a suite can say what a picture shows rather than only keep it: how much of it
 * is close to a colour, and how much of it changed between two pictures of the same page (or element).
 * Pictures are decoded with sharp to plain RGB, transparency flattened onto white.
 */

/** A decoded picture: `width × height` pixels, 3 bytes (R, G, B) each, row by row. */
export interface Picture {
  width: number;
  height: number;
  data: Buffer;
}

/** Decodes a PNG (or any image sharp reads: a Playwright screenshot) to RGB pixels. */
export async function decodePicture(image: Buffer): Promise<Picture> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels after flattening, got ${info.channels}`);
  return { width: info.width, height: info.height, data };
}

/** "#abc" or "#aabbcc" → [r, g, b]. */
export function rgbOf(hex: string): [number, number, number] {
  const v = hex.trim().toLowerCase();
  const full = /^#[0-9a-f]{3}$/.test(v) ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : v;
  if (!/^#[0-9a-f]{6}$/.test(full)) throw new Error(`not a hex colour: ${hex}`);
  return [1, 3, 5].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/**
 * The share (0–1) of the picture's pixels whose colour is within `tolerance` of `hex`: the Euclidean distance in
 * RGB (0–441). The default, 24, takes a flat colour after PNG and colour management round trips and the part of a
 * gradient near it, not a neighbouring shade (#ff6208 and #ffab00 are 73 apart).
 */
export function colorShare(picture: Picture, hex: string, options: { tolerance?: number } = {}): number {
  const [r, g, b] = rgbOf(hex);
  const limit = (options.tolerance ?? 24) ** 2;
  const pixels = picture.width * picture.height;
  let near = 0;
  for (let i = 0; i < pixels * 3; i += 3) {
    const dr = picture.data[i]! - r;
    const dg = picture.data[i + 1]! - g;
    const db = picture.data[i + 2]! - b;
    if (dr * dr + dg * dg + db * db <= limit) near++;
  }
  return near / pixels;
}

/**
 * The share (0–1) of pixels that differ between two pictures laid over each other from their top-left corner:
 * those where some channel differs by more than `tolerance` (0–255; default 16, above anti-aliasing noise between
 * two renderings of one page). Pictures of different sizes (an element that grew) are compared over the larger
 * area, where a pixel only one of them has counts as changed.
 */
export function differentShare(a: Picture, b: Picture, options: { tolerance?: number } = {}): number {
  const tolerance = options.tolerance ?? 16;
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  let same = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * a.width + x) * 3;
      const j = (y * b.width + x) * 3;
      if (
        Math.abs(a.data[i]! - b.data[j]!) <= tolerance &&
        Math.abs(a.data[i + 1]! - b.data[j + 1]!) <= tolerance &&
        Math.abs(a.data[i + 2]! - b.data[j + 2]!) <= tolerance
      )
        same++;
    }
  const area = Math.max(a.width, b.width) * Math.max(a.height, b.height);
  return (area - same) / area;
}
