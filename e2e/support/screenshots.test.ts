import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { colorShare, decodePicture, differentShare, rgbOf } from './screenshots.js';

/** A PNG of `width × height` in `background`, with rectangles of other colours drawn on it. */
async function png(
  width: number,
  height: number,
  background: string,
  blocks: Array<{ x: number; y: number; width: number; height: number; color: string }> = [],
  channels: 3 | 4 = 3,
): Promise<Buffer> {
  const composite = await Promise.all(
    blocks.map(async (b) => ({
      input: await sharp({
        create: { width: b.width, height: b.height, channels: 4, background: b.color },
      })
        .png()
        .toBuffer(),
      left: b.x,
      top: b.y,
    })),
  );
  return sharp({ create: { width, height, channels, background } }).composite(composite).png().toBuffer();
}

describe('rgbOf', () => {
  it('reads long and short hex colours, in either case', () => {
    expect(rgbOf('#FFAB00')).toEqual([255, 171, 0]);
    expect(rgbOf('#5d4037')).toEqual([93, 64, 55]);
    expect(rgbOf('#fa0')).toEqual([255, 170, 0]);
  });

  it('refuses anything else', () => {
    expect(() => rgbOf('orange')).toThrow(/not a hex colour/);
    expect(() => rgbOf('#ffab0')).toThrow(/not a hex colour/);
  });
});

describe('decodePicture', () => {
  it('gives 3 bytes a pixel, row by row', async () => {
    const picture = await decodePicture(
      await png(4, 2, '#ffffff', [{ x: 3, y: 1, width: 1, height: 1, color: '#102030' }]),
    );
    expect(picture.width).toBe(4);
    expect(picture.height).toBe(2);
    expect(picture.data.length).toBe(4 * 2 * 3);
    expect([...picture.data.subarray(0, 3)]).toEqual([255, 255, 255]);
    expect([...picture.data.subarray((1 * 4 + 3) * 3)]).toEqual([0x10, 0x20, 0x30]);
  });

  it('flattens transparency onto white', async () => {
    const clear = await png(2, 2, '#00000000', [], 4);
    const picture = await decodePicture(clear);
    expect([...picture.data]).toEqual(new Array(12).fill(255));
  });
});

describe('colorShare', () => {
  // 100 × 50 white, a 20 × 10 amber block at (10, 5), a 10 × 10 orange one at (60, 30).
  const blocks = [
    { x: 10, y: 5, width: 20, height: 10, color: '#ffab00' },
    { x: 60, y: 30, width: 10, height: 10, color: '#ff6208' },
  ];

  it('is the share of pixels of that colour, in the whole picture', async () => {
    const picture = await decodePicture(await png(100, 50, '#ffffff', blocks));
    expect(colorShare(picture, '#ffab00')).toBe(200 / 5000);
    expect(colorShare(picture, '#ff6208')).toBe(100 / 5000);
    expect(colorShare(picture, '#ffffff')).toBe(4700 / 5000);
    expect(colorShare(picture, '#5d4037')).toBe(0);
  });

  it('counts colours within the tolerance and not beyond it', async () => {
    // #ffab00 and #fbaf04 are sqrt(16 + 16 + 16) ≈ 6.9 apart; #ff6208 is 73 from #ffab00.
    const picture = await decodePicture(
      await png(10, 10, '#ffffff', [
        { x: 0, y: 0, width: 5, height: 10, color: '#fbaf04' },
        { x: 5, y: 0, width: 5, height: 10, color: '#ff6208' },
      ]),
    );
    expect(colorShare(picture, '#ffab00')).toBe(0.5);
    expect(colorShare(picture, '#ffab00', { tolerance: 6 })).toBe(0);
    expect(colorShare(picture, '#ffab00', { tolerance: 80 })).toBe(1);
  });
});

describe('differentShare', () => {
  it('is 0 for the same picture and the changed share for another', async () => {
    const plain = await decodePicture(await png(100, 50, '#ffffff'));
    const marked = await decodePicture(
      await png(100, 50, '#ffffff', [{ x: 0, y: 0, width: 25, height: 10, color: '#5d4037' }]),
    );
    expect(differentShare(plain, plain)).toBe(0);
    expect(differentShare(plain, marked)).toBe(250 / 5000);
    expect(differentShare(marked, plain)).toBe(250 / 5000);
  });

  it('ignores changes within the tolerance', async () => {
    const white = await decodePicture(await png(10, 10, '#ffffff'));
    const nearWhite = await decodePicture(await png(10, 10, '#f4f4f4'));
    expect(differentShare(white, nearWhite)).toBe(0);
    expect(differentShare(white, nearWhite, { tolerance: 10 })).toBe(1);
  });

  it('compares pictures of different sizes over the larger, counting what only one has as changed', async () => {
    const a = await decodePicture(await png(10, 10, '#ffffff'));
    const b = await decodePicture(await png(10, 11, '#ffffff'));
    expect(differentShare(a, b)).toBeCloseTo(10 / 110, 10);
    expect(differentShare(b, a)).toBeCloseTo(10 / 110, 10);
    const wide = await decodePicture(await png(20, 10, '#ffffff'));
    expect(differentShare(a, wide)).toBeCloseTo(0.5, 10);
  });
});
