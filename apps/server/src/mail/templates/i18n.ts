import { readFileSync } from 'node:fs';
import i18next, { type TFunction } from 'i18next';

/** Languages mail is written in; the spec's other locales (§9) read English, like the web app. */
export const MAIL_LOCALES = ['en', 'fr'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

type Catalog = { mail: Record<string, string> };

// Read at run time rather than imported: the server's tsconfig compiles .ts only. The path is the same from
// src/ (tests) and from dist/ (the build), as both sit in apps/server.
function catalog(language: MailLocale): Catalog {
  const file = new URL(`../../../src/mail/templates/locales/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Catalog;
}
const en = catalog('en');
const fr = catalog('fr');

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en, fr },
  ns: ['mail'],
  defaultNS: 'mail',
  fallbackLng: 'en',
  supportedLngs: [...MAIL_LOCALES],
  // React escapes for the HTML part; the text part wants the raw characters.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

// The spec's codes that are not BCP 47 (§9 uses jp, kr, ccs).
const BCP47: Record<string, string> = { jp: 'ja', kr: 'ko', ccs: 'cs' };

export interface ResolvedLocale {
  /** Language of the words. */
  language: MailLocale;
  /** Locale for dates: the recipient's own tag when it is of that language ("fr-CA"), else the language. */
  intl: string;
}

/** Maps a recipient's locale (spec code or BCP 47 tag, any case) to the mail language and a date locale. */
export function resolveMailLocale(locale: string | null | undefined): ResolvedLocale {
  const tag = (locale ?? '').trim().replace(/_/g, '-');
  const base = tag.toLowerCase().split('-')[0] ?? '';
  const language = (MAIL_LOCALES as readonly string[]).includes(BCP47[base] ?? base)
    ? ((BCP47[base] ?? base) as MailLocale)
    : 'en';
  if (language !== base) return { language, intl: language };
  try {
    return { language, intl: Intl.getCanonicalLocales(tag)[0] ?? language };
  } catch {
    return { language, intl: language };
  }
}

/** The translation function of one language, namespace `mail`. */
export function mailT(language: MailLocale): TFunction<'mail'> {
  return i18n.getFixedT(language, 'mail');
}

/** Every key of the catalogs, for the test that keeps en and fr in step. */
export const catalogs = { en: en.mail, fr: fr.mail } as const;
