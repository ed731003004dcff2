import type { LOCALES } from '../constants.js';

/** One of the spec's locale codes (§9): the code in URLs and the name of a language's translation file. */
export type Locale = (typeof LOCALES)[number];

export interface LocaleInfo {
  /** The spec's code (§9), also the URL prefix: `/fr/prices`, `/jp/prices`. */
  code: Locale;
  /** The BCP 47 tag for `<html lang>` and Intl (jp → ja, kr → ko, ccs → cs, zh → zh-Hans). */
  bcp47: string;
  /** The language's own name, as the language switcher lists it. */
  nativeName: string;
  dir: 'ltr' | 'rtl';
}

/** Every locale of the spec, in the spec's order: one row each. */
export const LOCALE_TABLE: readonly LocaleInfo[] = [
  { code: 'en', bcp47: 'en', nativeName: 'English', dir: 'ltr' },
  { code: 'fr', bcp47: 'fr', nativeName: 'Français', dir: 'ltr' },
  { code: 'it', bcp47: 'it', nativeName: 'Italiano', dir: 'ltr' },
  { code: 'de', bcp47: 'de', nativeName: 'Deutsch', dir: 'ltr' },
  { code: 'nl', bcp47: 'nl', nativeName: 'Nederlands', dir: 'ltr' },
  { code: 'es', bcp47: 'es', nativeName: 'Español', dir: 'ltr' },
  { code: 'pt', bcp47: 'pt', nativeName: 'Português', dir: 'ltr' },
  { code: 'sv', bcp47: 'sv', nativeName: 'Svenska', dir: 'ltr' },
  { code: 'fi', bcp47: 'fi', nativeName: 'Suomi', dir: 'ltr' },
  { code: 'da', bcp47: 'da', nativeName: 'Dansk', dir: 'ltr' },
  { code: 'tr', bcp47: 'tr', nativeName: 'Türkçe', dir: 'ltr' },
  { code: 'ru', bcp47: 'ru', nativeName: 'Русский', dir: 'ltr' },
  { code: 'uk', bcp47: 'uk', nativeName: 'Українська', dir: 'ltr' },
  { code: 'pl', bcp47: 'pl', nativeName: 'Polski', dir: 'ltr' },
  { code: 'bg', bcp47: 'bg', nativeName: 'Български', dir: 'ltr' },
  { code: 'ro', bcp47: 'ro', nativeName: 'Română', dir: 'ltr' },
  { code: 'ccs', bcp47: 'cs', nativeName: 'Čeština', dir: 'ltr' },
  { code: 'el', bcp47: 'el', nativeName: 'Ελληνικά', dir: 'ltr' },
  { code: 'nb', bcp47: 'nb', nativeName: 'Norsk bokmål', dir: 'ltr' },
  { code: 'no', bcp47: 'no', nativeName: 'Norsk', dir: 'ltr' },
  { code: 'hi', bcp47: 'hi', nativeName: 'हिन्दी', dir: 'ltr' },
  { code: 'zh', bcp47: 'zh-Hans', nativeName: '简体中文', dir: 'ltr' },
  { code: 'ar', bcp47: 'ar', nativeName: 'العربية', dir: 'rtl' },
  { code: 'fa', bcp47: 'fa', nativeName: 'فارسی', dir: 'rtl' },
  { code: 'th', bcp47: 'th', nativeName: 'ไทย', dir: 'ltr' },
  { code: 'jp', bcp47: 'ja', nativeName: '日本語', dir: 'ltr' },
  { code: 'kr', bcp47: 'ko', nativeName: '한국어', dir: 'ltr' },
];

const BY_CODE = new Map<string, LocaleInfo>(LOCALE_TABLE.map((row) => [row.code, row]));

/** English: at the bare paths, never a URL prefix. */
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(code: string): code is Locale {
  return BY_CODE.has(code);
}

/** The row of a spec code (case-insensitive), or undefined for any other string. */
export function localeInfo(code: string): LocaleInfo | undefined {
  return BY_CODE.get(code.toLowerCase());
}

/** The BCP 47 tag of a spec code ('jp' → 'ja', 'zh' → 'zh-Hans'); any other string is returned as it is. */
export function bcp47Of(code: string): string {
  return localeInfo(code)?.bcp47 ?? code;
}

/** 'rtl' for Arabic and Persian, else 'ltr'. */
export function directionOf(code: string): 'ltr' | 'rtl' {
  return localeInfo(code)?.dir ?? 'ltr';
}

/**
 * The language prefix of a path: `/fr/prices` → { locale: 'fr', rest: '/prices' }, `/JP` → { locale: 'jp',
 * rest: '/' }; null when the first segment is not a locale code other than English (`/en/prices` is not a
 * locale path: English lives at the bare paths).
 */
export function localePrefixOf(pathname: string): { locale: Locale; rest: string } | null {
  const match = /^\/([^/?#]+)(.*)$/.exec(pathname);
  if (!match) return null;
  const code = match[1]!.toLowerCase();
  if (code === DEFAULT_LOCALE || !isLocale(code)) return null;
  const tail = match[2]!;
  if (tail !== '' && !/^[/?#]/.test(tail)) return null;
  return { locale: code, rest: tail.startsWith('/') ? tail : `/${tail}` };
}

/**
 * `path` (bare, starting with '/') in the language `code`: `/prices` → `/fr/prices`, `/` → `/fr`; English is
 * the bare path. A path that already has a prefix has it replaced.
 */
export function withLocalePrefix(path: string, code: string): string {
  const bare = localePrefixOf(path)?.rest ?? path;
  const lower = code.toLowerCase();
  if (lower === DEFAULT_LOCALE || !isLocale(lower)) return bare;
  if (bare === '/' || bare === '') return `/${lower}`;
  if (/^[?#]/.test(bare)) return `/${lower}${bare}`;
  if (bare.startsWith('/?') || bare.startsWith('/#')) return `/${lower}${bare.slice(1)}`;
  return `/${lower}${bare}`;
}
