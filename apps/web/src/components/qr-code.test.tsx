import { create } from 'qrcode';
import { afterEach, describe, expect, it } from 'vitest';
import { type Rendered, render } from '../test/render';
import { QrCode, qrPath } from './qr-code';

const OTPAUTH = 'otpauth://totp/Ferry:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Ferry';

/** The dark cells a path draws ("row,col" in module units, quiet zone included). */
function cellsOf(path: string): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(w); i++) cells.add(`${Number(y)},${Number(x) + i}`);
  }
  return cells;
}

/** A finder pattern (7×7: dark ring, light ring, 3×3 dark core) with its top-left module at row, col. */
function isFinder(cells: Set<string>, row: number, col: number): boolean {
  for (let r = 0; r < 7; r++) {
    for (let c = 0; c < 7; c++) {
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      if (cells.has(`${row + r},${col + c}`) !== (ring !== 2)) return false;
    }
  }
  return true;
}

describe('QR code', () => {
  let view: Rendered | undefined;
  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  it('draws exactly the modules of the code, with the 4-module quiet zone and the three finder patterns', () => {
    const { modules } = create(OTPAUTH, { errorCorrectionLevel: 'M' });
    const { size, path } = qrPath(OTPAUTH);
    expect(size).toBe(modules.size + 8);
    const cells = cellsOf(path);
    let dark = 0;
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        const on = Boolean(modules.get(row, col));
        if (on) dark++;
        expect(cells.has(`${row + 4},${col + 4}`), `${row},${col}`).toBe(on);
      }
    }
    expect(cells.size).toBe(dark);
    const n = modules.size;
    expect(isFinder(cells, 4, 4)).toBe(true);
    expect(isFinder(cells, 4, 4 + n - 7)).toBe(true);
    expect(isFinder(cells, 4 + n - 7, 4)).toBe(true);
    expect(isFinder(cells, 4 + n - 7, 4 + n - 7)).toBe(false);
  });

  it('grows with the text (a longer otpauth URL needs a larger version)', () => {
    expect(qrPath('hi').size).toBe(21 + 8);
    expect(qrPath(`${OTPAUTH}&algorithm=SHA1&digits=6&period=30`).size).toBeGreaterThan(qrPath('hi').size);
  });

  it('renders an SVG image with its label, black on white, and no data: URL', async () => {
    view = await render(<QrCode text={OTPAUTH} label="QR code for your app" testId="qr" />);
    const svg = view.container.querySelector('svg[data-testid="qr"]');
    expect(svg?.getAttribute('role')).toBe('img');
    expect(svg?.getAttribute('aria-label')).toBe('QR code for your app');
    expect(svg?.getAttribute('viewBox')).toBe(`0 0 ${qrPath(OTPAUTH).size} ${qrPath(OTPAUTH).size}`);
    expect(svg?.querySelector('rect')?.getAttribute('fill')).toBe('#fff');
    expect(svg?.querySelector('path')?.getAttribute('fill')).toBe('#000');
    expect(view.container.innerHTML).not.toContain('data:');
  });
});
