import { DEFAULT_RECEIVE_THEME, type ReceiveTheme } from '@ferry/core';
import type { CSSProperties } from 'react';

/** Spec §3 branding colours, each filled in. */
export type FilledTheme = { backgroundColor: string; actionColor: string; startbtnColor: string };
export const THEME_KEYS = ['backgroundColor', 'actionColor', 'startbtnColor'] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];

const HEX = /^#(?:[0-9a-f]{3}){1,2}$/i;

/** "#abc" → "#aabbcc", lowercase; null for anything that is not a hex colour. */
export function normalizeHex(value: string): string | null {
  const v = value.trim();
  if (!HEX.test(v)) return null;
  const hex = v.length === 4 ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : v;
  return hex.toLowerCase();
}

/** The colours to use: each set one, else the fallback's, else the spec §3 default. */
export function fillTheme(
  theme: Partial<ReceiveTheme> | null | undefined,
  fallback: Partial<ReceiveTheme> | null = null,
): FilledTheme {
  const pick = (key: ThemeKey) =>
    normalizeHex(theme?.[key] ?? '') ??
    normalizeHex(fallback?.[key] ?? '') ??
    DEFAULT_RECEIVE_THEME[key].toLowerCase();
  return {
    backgroundColor: pick('backgroundColor'),
    actionColor: pick('actionColor'),
    startbtnColor: pick('startbtnColor'),
  };
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a hex colour. */
export function luminance(hex: string): number {
  const full = normalizeHex(hex) ?? '#000000';
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const LIGHT_TEXT = '#ffffff';
// Black (not the app's dark grey): with white, it gives every colour a contrast of at least 4.5:1.
const DARK_TEXT = '#000000';

/** White or dark text, whichever reads better on `background` (any owner colour stays legible). */
export function textOn(background: string): string {
  return contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT)
    ? LIGHT_TEXT
    : DARK_TEXT;
}

/**
 * The theme as CSS custom properties (set through the CSSOM, which the strict CSP allows): the header band,
 * links and secondary buttons, and the start button, each with a text colour that contrasts with it.
 */
export function themeStyle(theme: FilledTheme): CSSProperties {
  return {
    '--theme-bg': theme.backgroundColor,
    '--theme-bg-text': textOn(theme.backgroundColor),
    '--theme-action': theme.actionColor,
    '--theme-action-text': textOn(theme.actionColor),
    '--theme-start': theme.startbtnColor,
    '--theme-start-text': textOn(theme.startbtnColor),
  } as CSSProperties;
}
