import { DEFAULT_THEME_COLORS, type DownloadInfo, readableTextOn, type Theme } from '@ferry/core';
import { type FilledTheme, normalizeHex } from '../widget/theme';

/**
 * One layer of branding: a receive page's or a transfer's own colours, an owner's theme, … Layers are read in
 * order, the first that sets a field wins, and spec §3's defaults fill what none sets.
 */
export interface ThemeLayer {
  backgroundColor?: string | null;
  actionColor?: string | null;
  startbtnColor?: string | null;
  /** Wallpapers in turn (a transfer's one chosen wallpaper is a list of one). */
  wallpaperURLs?: readonly string[] | null;
  backgroundVideoURL?: string | null;
  logoURL?: string | null;
}

/** What a page shows once the layers are resolved. */
export interface ResolvedTheme {
  colors: FilledTheme;
  wallpaperURLs: readonly string[];
  backgroundVideoURL: string | null;
  logoURL: string | null;
  /** True when some layer set anything (otherwise Ferry's own look stays untouched). */
  branded: boolean;
}

const COLOR_KEYS = ['backgroundColor', 'actionColor', 'startbtnColor'] as const;

/** The Theme of GET /api/theme as a layer (its colours are filled already; defaults count as unset). */
export function layerOfTheme(theme: Theme | null | undefined): ThemeLayer | null {
  if (!theme) return null;
  const unlessDefault = (key: (typeof COLOR_KEYS)[number]) =>
    normalizeHex(theme[key]) === normalizeHex(DEFAULT_THEME_COLORS[key]) ? null : theme[key];
  return {
    backgroundColor: unlessDefault('backgroundColor'),
    actionColor: unlessDefault('actionColor'),
    startbtnColor: unlessDefault('startbtnColor'),
    wallpaperURLs: theme.customization.wallpaperURLs,
    backgroundVideoURL: theme.customization.backgroundVideoURL,
    logoURL: theme.logoURL,
  };
}

export function resolveLayers(...layers: ReadonlyArray<ThemeLayer | null | undefined>): ResolvedTheme {
  const set = layers.filter((l): l is ThemeLayer => !!l);
  const color = (key: (typeof COLOR_KEYS)[number]) =>
    set.map((l) => normalizeHex(l[key] ?? '')).find((v) => v !== null) ?? null;
  const first = <T>(pick: (l: ThemeLayer) => T | null | undefined, empty: (v: T) => boolean) =>
    set.map(pick).find((v): v is T => v !== null && v !== undefined && !empty(v)) ?? null;
  const colors = {
    backgroundColor: color('backgroundColor'),
    actionColor: color('actionColor'),
    startbtnColor: color('startbtnColor'),
  };
  const wallpaperURLs =
    first(
      (l) => l.wallpaperURLs,
      (v) => v.length === 0,
    ) ?? [];
  const backgroundVideoURL = first(
    (l) => l.backgroundVideoURL,
    (v) => v === '',
  );
  const logoURL = first(
    (l) => l.logoURL,
    (v) => v === '',
  );
  return {
    colors: {
      backgroundColor: colors.backgroundColor ?? DEFAULT_THEME_COLORS.backgroundColor.toLowerCase(),
      actionColor: colors.actionColor ?? DEFAULT_THEME_COLORS.actionColor.toLowerCase(),
      startbtnColor: colors.startbtnColor ?? DEFAULT_THEME_COLORS.startbtnColor.toLowerCase(),
    },
    wallpaperURLs,
    backgroundVideoURL,
    logoURL,
    branded:
      COLOR_KEYS.some((k) => colors[k] !== null) ||
      wallpaperURLs.length > 0 ||
      backgroundVideoURL !== null ||
      logoURL !== null,
  };
}

/**
 * The app's colour tokens (styles/base.css) for a theme, set through the CSSOM (the CSP forbids inline styles
 * in markup): the page background, links and buttons, the start button, each text colour readable on it.
 */
export function brandVariables(colors: FilledTheme): Record<string, string> {
  return {
    '--color-primary': colors.backgroundColor,
    '--color-primary-dark': `color-mix(in srgb, ${colors.backgroundColor} 75%, #000)`,
    '--color-action': colors.actionColor,
    '--color-action-hover': `color-mix(in srgb, ${colors.actionColor} 85%, #000)`,
    '--color-start': colors.startbtnColor,
    '--color-start-hover': `color-mix(in srgb, ${colors.startbtnColor} 88%, #fff)`,
    '--color-start-text': readableTextOn(colors.startbtnColor),
    '--theme-bg': colors.backgroundColor,
    '--theme-bg-text': readableTextOn(colors.backgroundColor),
    '--theme-action': colors.actionColor,
    '--theme-action-text': readableTextOn(colors.actionColor),
    '--theme-start': colors.startbtnColor,
    '--theme-start-text': readableTextOn(colors.startbtnColor),
  };
}

/**
 * A download page's layers (DownloadInfo): the transfer's own colours and wallpaper, over its sender's theme. When
 * the sender has neither, none: Ferry's own look, never the theme of the host or of whoever is signed in, so no
 * one's branding dresses a stranger's files. Null until the info is there.
 */
export function downloadLayers(
  info: Pick<DownloadInfo, 'theme' | 'customization'> | undefined,
): ThemeLayer[] | null {
  if (!info) return null;
  const c = info.customization ?? null;
  const own: ThemeLayer | null = c
    ? {
        backgroundColor: c.backgroundColor,
        actionColor: c.actionColor,
        startbtnColor: c.startbtnColor,
        wallpaperURLs: c.wallpaperURL ? [c.wallpaperURL] : null,
      }
    : null;
  const owner = layerOfTheme(info.theme ?? null);
  return [own, owner].filter((l): l is ThemeLayer => l !== null);
}
