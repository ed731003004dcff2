import { LOCALES } from '@ferry/core';
import i18next, { type BackendModule, type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { browserStore } from '../lib/storage';

/** Locales with a full translation; the spec's other LOCALES fall back to English. */
export const UI_LOCALES = ['en', 'fr'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];
export const FALLBACK_LOCALE: UiLocale = 'en';
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

type LocaleTree = Record<(typeof NAMESPACES)[number], Record<string, unknown>>;

/**
 * Each language is its own chunk, fetched when it is first shown: a visitor downloads one language, not all.
 * (A literal import per language, so the bundler makes one chunk of each JSON file.)
 */
const LOCALE_LOADERS: Record<UiLocale, () => Promise<{ default: LocaleTree }>> = {
  en: () => import('./locales/en.json'),
  fr: () => import('./locales/fr.json'),
};

const loading = new Map<UiLocale, Promise<LocaleTree>>();

/** Loads a language's file once; a failed load is tried again next time. */
export function loadLocale(lng: UiLocale): Promise<LocaleTree> {
  let pending = loading.get(lng);
  if (!pending) {
    pending = LOCALE_LOADERS[lng]().then((module) => module.default);
    pending.catch(() => loading.delete(lng));
    loading.set(lng, pending);
  }
  return pending;
}

/** i18next backend over loadLocale: every namespace of a language comes from its one file. */
const localeBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isUiLocale(language)) {
      callback(null, {});
      return;
    }
    loadLocale(language).then(
      (tree) => callback(null, tree[namespace as keyof LocaleTree] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/** The spec's locale codes for languages whose BCP 47 code differs (ja → jp, ko → kr). */
const SPEC_CODES: Record<string, string> = { ja: 'jp', ko: 'kr', cs: 'ccs' };

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
 * The language to show: the user's own choice if saved, else the first browser language that is translated,
 * else English.
 */
export function detectLocale(saved: string | null, browserLanguages: readonly string[]): UiLocale {
  if (saved && isUiLocale(saved)) return saved;
  for (const tag of browserLanguages) {
    const code = specLocaleOf(tag);
    if (code && isUiLocale(code)) return code;
  }
  return FALLBACK_LOCALE;
}

function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language].filter(Boolean);
}

function applyToDocument(lng: string, instance: I18n): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = instance.dir(lng);
}

/**
 * Initialises the shared i18next instance; resolves once the language to show is loaded. Languages are fetched
 * on demand (`loadLocale`); `bundled` resources (tests) are used as they are, and then initialisation is
 * synchronous. There is no fallback language: locales.test.ts keeps every language's keys equal to English's,
 * so a French visitor never needs the English file.
 */
export async function initI18n(instance: I18n = i18next, lng?: string, bundled?: Resource): Promise<I18n> {
  if (!instance.isInitialized) {
    instance.use(initReactI18next).use(localeBackend);
    const ready = instance.init({
      lng: lng ?? detectLocale(browserStore()?.getItem(LOCALE_STORAGE_KEY) ?? null, browserLanguages()),
      fallbackLng: false,
      supportedLngs: [...UI_LOCALES],
      load: 'languageOnly',
      ...(bundled ? { resources: bundled, partialBundledLanguages: true, initAsync: false } : {}),
      ns: [...NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    instance.on('languageChanged', (next) => applyToDocument(next, instance));
    await ready;
  }
  applyToDocument(instance.language, instance);
  return instance;
}

/** Switches language and remembers the choice. */
export async function changeLocale(lng: UiLocale, instance: I18n = i18next): Promise<void> {
  try {
    browserStore()?.setItem(LOCALE_STORAGE_KEY, lng);
  } catch {
    // Not remembered, still switched.
  }
  await instance.changeLanguage(lng);
}

export { i18next };
