import { LOCALE_CODES, loadLocaleTexts } from 'virtual:locale-texts';
import {
  bcp47Of,
  DEFAULT_LOCALE,
  directionOf,
  LOCALE_TABLE,
  LOCALES,
  type Locale,
  localePrefixOf,
} from '@ferry/core';
import i18next, { type BackendModule, type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { browserStore } from '../lib/storage';
import { loadTextsInto, wantedTexts } from './texts';

/**
 * Every language of the web app: one file per language in ./locales/<code>.json (the spec's code), found by the
 * build, which splits it by namespace: `loadLocaleTexts(code, namespace)` loads one namespace of one language, a
 * chunk of its own (build/locale-texts.ts), fetched when a page first needs it. Adding a language is adding its
 * file (locales.test.ts checks it is complete).
 */
/** The translated languages, in the spec's order (core's LOCALE_TABLE); English first. */
export const UI_LOCALES: readonly Locale[] = LOCALE_TABLE.map((row) => row.code).filter((code) =>
  LOCALE_CODES.includes(code),
);
export type UiLocale = Locale;
export const FALLBACK_LOCALE: UiLocale = DEFAULT_LOCALE;
/** Namespaces as the spec names them (uploader:…, downloader:…), plus common, notifications, auth, account, errors and billing. */
export const NAMESPACES = [
  'common',
  'uploader',
  'downloader',
  'notifications',
  'auth',
  'account',
  'errors',
  'operator',
  'billing',
  'securitylog',
  'team',
  'teamPolicies',
  'apikeys',
] as const;
export const LOCALE_STORAGE_KEY = 'ferry.locale';

type Namespace = (typeof NAMESPACES)[number];
type LocaleTree = Record<Namespace, Record<string, unknown>>;

const loading = new Map<string, Promise<Record<string, unknown>>>();

/** Loads one namespace of a language once; a failed load is tried again next time. */
export function loadTexts(lng: UiLocale, namespace: string): Promise<Record<string, unknown>> {
  const key = `${lng}:${namespace}`;
  let pending = loading.get(key);
  if (!pending) {
    if (!isUiLocale(lng) || !(NAMESPACES as readonly string[]).includes(namespace))
      return Promise.reject(new Error(`No translation of ${namespace} for ${lng}`));
    pending = loadLocaleTexts(lng, namespace).then((module) => module.default);
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** Every namespace of a language. */
export async function loadLocale(lng: UiLocale): Promise<LocaleTree> {
  if (!isUiLocale(lng)) throw new Error(`No translation file for ${lng}`);
  const parts = await Promise.all(NAMESPACES.map(async (ns) => [ns, await loadTexts(lng, ns)] as const));
  return Object.fromEntries(parts) as LocaleTree;
}

/** i18next backend over loadTexts: each namespace of a language is its own small chunk. */
const localeBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isUiLocale(language)) {
      callback(null, {});
      return;
    }
    loadTexts(language, namespace).then(
      (texts) => callback(null, texts),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/** The spec's locale codes for languages whose BCP 47 code differs (ja → jp, ko → kr; Nynorsk readers get Norsk). */
const SPEC_CODES: Record<string, string> = { ja: 'jp', ko: 'kr', cs: 'ccs', nn: 'no' };

function isUiLocale(code: string): code is UiLocale {
  return (UI_LOCALES as readonly string[]).includes(code);
}

/** Maps a browser language tag ("fr-CA") to the spec's locale code ("fr"), or null if not one of LOCALES. */
export function specLocaleOf(tag: string): string | null {
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const code = SPEC_CODES[base] ?? base;
  return (LOCALES as readonly string[]).includes(code) ? code : null;
}

/**
 * The language to show without a URL prefix or an account's choice: the choice saved in this browser, else
 * the first browser language that is translated, else English.
 */
export function detectLocale(saved: string | null, browserLanguages: readonly string[]): UiLocale {
  if (saved && isUiLocale(saved)) return saved;
  for (const tag of browserLanguages) {
    const code = specLocaleOf(tag);
    if (code && isUiLocale(code)) return code;
  }
  return FALLBACK_LOCALE;
}

/**
 * Pages of the public site: at their bare path they are English, whoever looks (search engines index that
 * address); every other language is under its prefix (/fr/prices).
 */
export const SITE_PAGES: readonly string[] = ['/prices'];

function isSitePage(path: string): boolean {
  const bare = path
    .split(/[?#]/)[0]!
    .replace(/(.)\/+$/, '$1')
    .toLowerCase();
  return SITE_PAGES.includes(bare);
}

/**
 * The language of a page, in the order of issue 21: the URL's prefix (`/fr/…`), else the signed-in account's
 * language, else the choice saved in this browser, else the browser's languages, else English. A site page at
 * its bare path is English.
 */
export function chooseLocale(sources: {
  pathname: string;
  account?: string | null;
  saved: string | null;
  browser: readonly string[];
}): UiLocale {
  const prefix = localePrefixOf(sources.pathname);
  if (prefix && isUiLocale(prefix.locale)) return prefix.locale;
  if (isSitePage(prefix?.rest ?? sources.pathname)) return FALLBACK_LOCALE;
  const account = sources.account ? specLocaleOf(sources.account) : null;
  if (account && isUiLocale(account)) return account;
  return detectLocale(sources.saved, sources.browser);
}

/**
 * The router's basename for a page's address: its locale prefix as written (`/fr`, `/JP`), so that every
 * in-app link stays in the language; undefined at a bare path.
 */
export function basenameOf(pathname: string): string | undefined {
  if (!localePrefixOf(pathname)) return undefined;
  return `/${pathname.split(/[/?#]/)[1]}`;
}

/** The choice saved in this browser (the switcher's), or null. */
export function savedLocale(): string | null {
  try {
    return browserStore()?.getItem(LOCALE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language].filter(Boolean);
}

/** `<html lang>` is the language's BCP 47 tag (ja for jp, zh-Hans for zh) and `dir` is rtl for ar and fa. */
export function applyToDocument(lng: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = bcp47Of(lng);
  document.documentElement.dir = directionOf(lng);
}

/**
 * i18next picks plural forms with Intl.PluralRules of the language's code; the spec's codes are not all BCP 47
 * ('jp', 'kr', 'ccs' would get English rules), so the rules are those of the language's tag.
 */
function pluralRulesByTag(instance: I18n): void {
  const resolver = instance.services.pluralResolver as {
    getRule: (code: string, options?: unknown) => Intl.PluralRules | undefined;
  };
  const getRule = resolver.getRule.bind(resolver);
  resolver.getRule = (code, options) => getRule(bcp47Of(code), options);
}

/**
 * Initialises the shared i18next instance; resolves once the language to show is loaded, in the namespaces the
 * code evaluated so far asked for (./texts.ts); namespaces asked for later are loaded then, and a page waits for
 * its own (`textsReady`). `bundled` resources (tests) are used as they are, and then initialisation is
 * synchronous. There is no fallback language: locales.test.ts keeps every language's keys equal to English's,
 * so a French visitor never needs the English texts.
 */
export async function initI18n(instance: I18n = i18next, lng?: string, bundled?: Resource): Promise<I18n> {
  if (!instance.isInitialized) {
    instance.use(initReactI18next).use(localeBackend);
    const ready = instance.init({
      lng:
        lng ??
        chooseLocale({
          pathname: typeof window === 'undefined' ? '/' : window.location.pathname,
          saved: savedLocale(),
          browser: browserLanguages(),
        }),
      fallbackLng: false,
      supportedLngs: [...UI_LOCALES],
      load: 'languageOnly',
      ...(bundled ? { resources: bundled, partialBundledLanguages: true, initAsync: false } : {}),
      ns: bundled ? [...NAMESPACES] : wantedTexts(),
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      // a namespace that arrives after the page was drawn (a panel opened later) draws its texts
      react: { bindI18n: 'languageChanged loaded' },
    });
    loadTextsInto(instance);
    pluralRulesByTag(instance);
    instance.on('languageChanged', (next) => applyToDocument(next));
    await ready;
  }
  applyToDocument(instance.language);
  return instance;
}

/** Remembers the choice in this browser. */
export function saveLocale(lng: UiLocale): void {
  try {
    browserStore()?.setItem(LOCALE_STORAGE_KEY, lng);
  } catch {
    // Not remembered.
  }
}

/** Switches language in place and remembers the choice. */
export async function changeLocale(lng: UiLocale, instance: I18n = i18next): Promise<void> {
  saveLocale(lng);
  await instance.changeLanguage(lng);
}

export { i18next };
