import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@ferry/core';
import { CHROME_SCHEMA, GROUP_SCHEMA, type SiteChrome, type SitePage } from './content-schema.js';

/** One language's words: its chrome and its pages by bare path. */
export interface SiteLanguage {
  chrome: SiteChrome;
  pages: Map<string, SitePage>;
}

// Read at run time, as the mail catalogs are: the path is the same from src/ (tests) and dist/ (the build).
export const CONTENT_DIR = new URL('../../src/site/content/', import.meta.url);

function readJson(file: URL): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Reads and checks one language's folder; null when the language has no folder or no chrome.json yet. A bad file
 * throws, naming it.
 */
export function loadLanguage(code: string, dir: URL = CONTENT_DIR): SiteLanguage | null {
  const folder = new URL(`${code}/`, dir);
  if (!existsSync(folder)) return null;
  const pages = new Map<string, SitePage>();
  let chrome: SiteChrome | null = null;
  for (const name of readdirSync(folder)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = new URL(name, folder);
    const raw = readJson(file);
    const parsed = name === 'chrome.json' ? CHROME_SCHEMA.safeParse(raw) : GROUP_SCHEMA.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`site content ${code}/${name}: ${issue.path.join('.')}: ${issue.message}`);
    }
    if (name === 'chrome.json') chrome = parsed.data as SiteChrome;
    else
      for (const [path, page] of Object.entries(parsed.data as Record<string, SitePage>))
        pages.set(path, page);
  }
  // A language is offered once its frame is translated; until then its pages are English.
  return chrome ? { chrome, pages } : null;
}

/**
 * Every language's site content, read once. A language without a folder, or without a page, falls back to
 * English for what it lacks (the content test keeps them complete in CI).
 */
export class SiteContent {
  private readonly languages = new Map<Locale, SiteLanguage>();

  constructor(dir: URL = CONTENT_DIR) {
    for (const code of LOCALES) {
      const language = loadLanguage(code, dir);
      if (language) this.languages.set(code, language);
    }
    if (!this.languages.has(DEFAULT_LOCALE)) throw new Error('site content: the English folder is missing');
  }

  /** The languages with a folder of their own. */
  locales(): Locale[] {
    return [...this.languages.keys()];
  }

  /** A page in a language: that language's own words when it has them (`locale` says which it got). */
  page(path: string, locale: Locale): { page: SitePage; locale: Locale } | null {
    const own = this.languages.get(locale)?.pages.get(path);
    if (own) return { page: own, locale };
    const english = this.languages.get(DEFAULT_LOCALE)!.pages.get(path);
    return english ? { page: english, locale: DEFAULT_LOCALE } : null;
  }

  /** The words of the frame in a language (English for a key it lacks). */
  ui(locale: Locale): (key: string, values?: Record<string, string>) => string {
    const own = this.languages.get(locale)?.chrome.ui ?? {};
    const english = this.languages.get(DEFAULT_LOCALE)!.chrome.ui;
    return (key, values) => {
      const template = own[key] ?? english[key] ?? key;
      return template.replace(/\{(\w+)\}/g, (all, name: string) => values?.[name] ?? all);
    };
  }

  /** A public app page's words in a language. */
  appPage(path: string, locale: Locale): SiteChrome['app'][string] | null {
    return (
      this.languages.get(locale)?.chrome.app[path] ??
      this.languages.get(DEFAULT_LOCALE)!.chrome.app[path] ??
      null
    );
  }
}
