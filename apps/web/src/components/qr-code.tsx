import { create } from 'qrcode';
import { useMemo } from 'react';

/** White modules around the code, as the QR standard asks (4). */
const QUIET_ZONE = 4;

/**
 * The dark modules of `text`'s QR code as one SVG path (runs of a row joined), in module units with the quiet
 * zone around: `size` is the side of the whole square.
 */
export function qrPath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      parts.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h-${col - start}z`);
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, path: parts.join('') };
}

/**
 * A QR code drawn as inline SVG (no canvas, no data: URL: the CSP allows neither for scripts' images), black
 * on white whatever the theme, so that every phone camera reads it. `label` is what a screen reader says.
 */
export function QrCode({
  text,
  label,
  pixels = 200,
  testId,
}: {
  text: string;
  label: string;
  pixels?: number;
  testId?: string;
}) {
  const { size, path } = useMemo(() => qrPath(text), [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={pixels}
      height={pixels}
      shapeRendering="crispEdges"
      data-testid={testId}
      data-modules={size - 2 * QUIET_ZONE}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
