/**
 * WCAG 2 contrast of theme colours, shared by the server (which refuses an unreadable theme) and the web app
 * (which shows the problem while the colour is picked).
 *
 * The rule, per colour, against what is drawn on or around it:
 * - `backgroundColor` (the header band and page background) carries text in white or black, whichever reads
 *   better: that text must reach 4.5:1;
 * - `startbtnColor` (the start button) likewise: its label in white or black must reach 4.5:1;
 * - `actionColor` is both the colour of links and outlined buttons on Ferry's white panels and the background of
 *   the filled buttons, whose label is white: white on it (the same as it on white) must reach 4.5:1.
 *
 * Black or white reaches at least 4.58:1 on any colour, so only `actionColor` can fail in practice; the first two
 * are checked all the same so that the rule stays true if the text colours change.
 */

/** WCAG's minimum for normal text (level AA). */
export const MIN_TEXT_CONTRAST = 4.5;

const WHITE = '#ffffff';
const BLACK = '#000000';

function expand(hex: string): string | null {
  const v = hex.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join('')}`;
  return null;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a hex colour (anything else counts as black). */
export function relativeLuminance(hex: string): number {
  const full = expand(hex) ?? BLACK;
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two colours, from 1 (same) to 21 (black on white). */
export function contrastBetween(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** White or black, whichever reads better on `background`. */
export function readableTextOn(background: string): string {
  return contrastBetween(background, WHITE) >= contrastBetween(background, BLACK) ? WHITE : BLACK;
}

export const THEME_COLOR_FIELDS = ['backgroundColor', 'actionColor', 'startbtnColor'] as const;
export type ThemeColorField = (typeof THEME_COLOR_FIELDS)[number];

/** One colour that fails the rule: the text colour it was measured with and the ratio reached. */
export interface ContrastProblem {
  field: ThemeColorField;
  /** The text colour checked against it. */
  against: string;
  ratio: number;
  min: number;
}

/** Every colour given (null or absent: the default, which passes) that breaks the rule above. */
export function themeContrastProblems(
  colors: Partial<Record<ThemeColorField, string | null | undefined>>,
): ContrastProblem[] {
  const problems: ContrastProblem[] = [];
  for (const field of THEME_COLOR_FIELDS) {
    const color = colors[field];
    if (!color || !expand(color)) continue;
    const against = field === 'actionColor' ? WHITE : readableTextOn(color);
    const ratio = contrastBetween(color, against);
    if (ratio < MIN_TEXT_CONTRAST)
      problems.push({ field, against, ratio: Math.floor(ratio * 100) / 100, min: MIN_TEXT_CONTRAST });
  }
  return problems;
}
