import { DEFAULT_RECEIVE_THEME, type ReceiveTheme } from '@ferry/core';
import type { CSSProperties } from 'react';
import { textOn } from '../../lib/contrast';

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

export { contrastRatio, luminance, textOn } from '../../lib/contrast';

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
