import { existsSync, readFileSync } from 'node:fs';
import { LOCALES } from '@ferry/core';
import i18next, { type TFunction } from 'i18next';

/**
 * Languages mail is written in: every locale of spec §9, by its spec code (the catalog's file name). A locale whose
 * catalog is missing is not offered (mail falls back to English).
 */
export const MAIL_LOCALES = LOCALES;
export type MailLocale = (typeof MAIL_LOCALES)[number];

type Catalog = { mail: Record<string, string> };

// Read at run time rather than imported: the server's tsconfig compiles .ts only. The path is the same from
// src/ (tests) and from dist/ (the build), as both sit in apps/server.
function catalog(language: string): Catalog | null {
  const file = new URL(`../../../src/mail/templates/locales/${language}.json`, import.meta.url);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as Catalog;
}

/**
 * The spec's codes that are not BCP 47 (§9 uses jp, kr, ccs; zh is written in simplified characters). i18next
 * takes its plural rules from the language code, so it is given these tags, never the spec's codes.
 */
const SPEC_TO_BCP47: Record<string, string> = { jp: 'ja', kr: 'ko', ccs: 'cs', zh: 'zh-Hans' };
const BCP47_TO_SPEC: Record<string, string> = { ja: 'jp', ko: 'kr', cs: 'ccs', nn: 'no' };

/** i18next's code of a mail language (plural rules): ja, ko, cs for jp, kr, ccs; zh for zh. */
function i18nCode(language: MailLocale): string {
  return (SPEC_TO_BCP47[language] ?? language).split('-')[0]!;
}

const loaded = Object.fromEntries(
  MAIL_LOCALES.flatMap((language) => {
    const c = catalog(language);
    return c ? [[language, c] as const] : [];
  }),
) as Partial<Record<MailLocale, Catalog>>;
const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(
    Object.entries(loaded).map(([language, c]) => [i18nCode(language as MailLocale), c]),
  ),
  ns: ['mail'],
  defaultNS: 'mail',
  fallbackLng: 'en',
  supportedLngs: Object.keys(loaded).map((language) => i18nCode(language as MailLocale)),
  // React escapes for the HTML part; the text part wants the raw characters.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** The BCP 47 tag of a mail language, for `<html lang>`: ja for jp, ko for kr, cs for ccs, zh-Hans for zh. */
export function mailLanguageTag(language: string): string {
  return SPEC_TO_BCP47[language] ?? language;
}

/** Arabic and Persian mails are laid out right to left. */
export function isRtlMailLanguage(language: string): boolean {
  return language === 'ar' || language === 'fa';
}

export interface ResolvedLocale {
  /** Language of the words (a spec code with a catalog). */
  language: MailLocale;
  /** Locale for dates: the recipient's own tag when it is of that language ("fr-CA"), else the language's. */
  intl: string;
}

/** Maps a recipient's locale (spec code or BCP 47 tag, any case) to the mail language and a date locale. */
export function resolveMailLocale(locale: string | null | undefined): ResolvedLocale {
  const tag = (locale ?? '').trim().replace(/_/g, '-');
  const base = tag.toLowerCase().split('-')[0] ?? '';
  const code = BCP47_TO_SPEC[base] ?? base;
  const language: MailLocale = code in loaded ? (code as MailLocale) : 'en';
  const own = SPEC_TO_BCP47[language] ?? language;
  // The recipient's own tag when it is of the mail's language ("fr-CA", "ja-JP"); the spec codes themselves are not tags.
  if (language === code && base === own.split('-')[0] && tag.includes('-')) {
    try {
      return { language, intl: Intl.getCanonicalLocales(tag)[0] ?? own };
    } catch {
      return { language, intl: own };
    }
  }
  return { language, intl: own };
}

/** The translation function of one language, namespace `mail`. */
export function mailT(language: MailLocale): TFunction<'mail'> {
  return i18n.getFixedT(i18nCode(language), 'mail');
}

/** Every catalog present, for the test that keeps each language in step with English. */
export const catalogs = Object.fromEntries(
  Object.entries(loaded).map(([language, c]) => [language, c!.mail]),
) as Partial<Record<MailLocale, Record<string, string>>> & { en: Record<string, string> };
