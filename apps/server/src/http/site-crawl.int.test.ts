import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bcp47Of, LOCALES, type Locale, PUBLIC_APP_PAGES, SITE_PAGES, withLocalePrefix } from '@ferry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNameLike } from '../site/content-check.js';
import { startTestFerry, type TestFerry } from '../test/harness.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/**
 * The words a reader sees in a page's own content (the page's <main>, or the app's prerendered root) and its
 * title and description, one text per block (paragraph, list item, cell…); the language list (native names) and code samples are left out.
 */
function wordsOf(html: string): string[] {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  const description = /<meta name="description" content="([^"]*)">/.exec(html)?.[1] ?? '';
  const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';
  const runs = main
    .replace(/<pre[\s\S]*?<\/pre>/g, '')
    // Inline marks stay inside their sentence: a bold word alone may read the same in both languages.
    .replace(/<\/?(?:strong|a|span|code)\b[^>]*>/g, '')
    .split(/<[^>]+>/)
    .map((run) => run.replace(/&(amp|lt|gt|quot|#39);/g, (_all, name: string) => ENTITIES[name]!).trim())
    .filter((run) => run !== '');
  return [title.replace(/ · Ferry$/, ''), description, ...runs].filter((run) => run !== '');
}

/**
 * The crawl: every public page (site and public app pages) in every language, over HTTP as a search
 * engine fetches it: 200, a title, <html lang> in BCP 47, the canonical, an alternate for each language and
 * x-default, valid JSON-LD, and no English left in a translated page beyond names.
 */
describe('crawl of every public page in every language', () => {
  let ferry: TestFerry;
  const english = new Map<string, Set<string>>();

  beforeAll(async () => {
    const web = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-web-'));
    await fs.writeFile(
      path.join(web, 'index.html'),
      '<!doctype html><html lang="en"><head><title>Ferry</title></head><body><div id="root"></div></body></html>',
    );
    ferry = await startTestFerry({ env: { WEB_DIST: web } });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  const pages = [...PUBLIC_APP_PAGES, ...SITE_PAGES];

  it.each(LOCALES.map((locale) => [locale]))('%s', async (locale: Locale) => {
    const problems: string[] = [];
    for (const page of pages) {
      const url = withLocalePrefix(page, locale);
      const res = await fetch(`${ferry.baseUrl}${url}`);
      const html = await res.text();
      const fail = (what: string) => problems.push(`${url}: ${what}`);
      if (res.status !== 200) {
        fail(`status ${res.status}`);
        continue;
      }
      if (!/<title>[^<]+ · Ferry<\/title>/.test(html)) fail('no title');
      const lang = /<html lang="([^"]+)"/.exec(html)?.[1];
      if (lang !== bcp47Of(locale)) fail(`lang ${lang}, expected ${bcp47Of(locale)}`);
      if (!html.includes(`<link rel="canonical" href="${ferry.publicOrigin}${url}">`)) fail('canonical');
      const alternates = new Map(
        [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [
          m[1],
          m[2],
        ]),
      );
      for (const other of LOCALES) {
        if (alternates.get(bcp47Of(other)) !== `${ferry.publicOrigin}${withLocalePrefix(page, other)}`)
          fail(`hreflang ${bcp47Of(other)}`);
      }
      if (alternates.get('x-default') !== `${ferry.publicOrigin}${page}`) fail('x-default');
      for (const [, json] of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
        try {
          const data = JSON.parse(json!);
          if (data['@context'] !== 'https://schema.org' || typeof data['@type'] !== 'string')
            fail('JSON-LD type');
        } catch {
          fail('JSON-LD is not JSON');
        }
      }
      if (page === '/' && !html.includes('"@type":"Organization"')) fail('no Organization');
      if (page === '/support' && !html.includes('"@type":"FAQPage"')) fail('no FAQPage');
      const words = wordsOf(html);
      if (locale === 'en') english.set(page, new Set(words.filter((w) => !isNameLike(w))));
      else {
        const left = words.filter((w) => english.get(page)?.has(w));
        for (const w of left) fail(`English left: "${w.slice(0, 70)}"`);
      }
    }
    expect(problems).toEqual([]);
  });
});
