import { existsSync, readdirSync } from 'node:fs';
import {
  isWebRoute,
  LOCALES,
  PUBLIC_APP_PAGES,
  SITE_PAGES,
  sitePageOf,
  smallScreenshotName,
} from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS_DIR } from './assets.js';
import { CONTENT_DIR, loadLanguage } from './content.js';
import { isNameLike, languageProblems, translationProblems } from './content-check.js';
import type { SiteBlock } from './content-schema.js';
import { inlineHtml, isAllowedHref, localHref } from './inline.js';

const english = loadLanguage('en')!;

function textsOf(block: SiteBlock): string[] {
  return Object.values(block).flatMap((value) =>
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value.flatMap((item) =>
            typeof item === 'string' ? [item] : Array.isArray(item) ? item : Object.values(item),
          )
        : [],
  );
}

describe('the site content', () => {
  it('has every page of SITE_PAGES in English, once, and no other', () => {
    const files = readdirSync(new URL('en/', CONTENT_DIR)).filter(
      (n) => n.endsWith('.json') && n !== 'chrome.json',
    );
    const keys = files.flatMap((name) => (Object.keys(loadLanguage('en')!.pages).length >= 0 ? [name] : []));
    expect(keys.length).toBeGreaterThan(0);
    expect([...english.pages.keys()].sort()).toEqual([...SITE_PAGES].sort());
    expect(Object.keys(english.chrome.app).sort()).toEqual([...PUBLIC_APP_PAGES].sort());
  });

  it('links only to pages that exist, and shows only screenshots that exist', () => {
    const broken: string[] = [];
    for (const [path, page] of english.pages) {
      const hrefs = page.blocks.flatMap((block) => [
        ...('href' in block && block.href ? [block.href] : []),
        ...(block.type === 'cards' ? block.items.flatMap((c) => (c.href ? [c.href] : [])) : []),
        ...[...textsOf(block), page.lead, page.heading].flatMap((text) =>
          [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!),
        ),
      ]);
      for (const href of hrefs) {
        const bare = href.split(/[?#]/)[0]!;
        const ok =
          isAllowedHref(href) &&
          (href.startsWith('https://') || sitePageOf(bare) !== null || isWebRoute(bare));
        if (!ok) broken.push(`${path} → ${href}`);
      }
      for (const block of page.blocks) {
        if (block.type !== 'steps') continue;
        for (const step of block.items) {
          if (!step.image) continue;
          for (const file of [step.image, smallScreenshotName(step.image)])
            if (!existsSync(new URL(file, SCREENSHOTS_DIR))) broken.push(`${path} → image ${file}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps titles and descriptions to what search results show', () => {
    const long: string[] = [];
    for (const [path, page] of english.pages) {
      if (page.title.length > 60) long.push(`${path} title ${page.title.length}`);
      if (page.description.length < 50 || page.description.length > 170)
        long.push(`${path} description ${page.description.length}`);
    }
    expect(long).toEqual([]);
  });

  it.each(LOCALES.filter((code) => code !== 'en').map((code) => [code]))(
    '%s is complete: every page and key of English, translated, in the same shape',
    (code) => {
      expect(languageProblems(code)).toEqual([]);
    },
  );
});

describe('the translation check', () => {
  it('finds a missing key, another shape, a changed link, a changed fixed field and English left over', () => {
    const en = {
      '/a': { title: 'Send files', blocks: [{ type: 'p', text: 'See [prices](/prices).' }], href: '/x' },
    };
    expect(translationProblems(en, en)).toEqual([
      '/a.title: not translated ("Send files")',
      '/a.blocks[0].text: not translated ("See [prices](/prices).")',
    ]);
    const good = {
      '/a': { title: 'Envoyer', blocks: [{ type: 'p', text: 'Voir les [prix](/prices).' }], href: '/x' },
    };
    expect(translationProblems(en, good)).toEqual([]);
    expect(translationProblems(en, { '/a': { ...good['/a'], href: '/y' } })).toEqual([
      '/a.href: must stay "/x"',
    ]);
    expect(
      translationProblems(en, {
        '/a': { ...good['/a'], blocks: [{ type: 'p', text: 'Voir les [prix](/tarifs).' }] },
      })[0],
    ).toContain('links differ');
    expect(translationProblems(en, { '/a': { title: 'Envoyer', blocks: [], href: '/x' } })[0]).toContain(
      '0 items',
    );
    expect(translationProblems(en, { '/a': { blocks: good['/a'].blocks, href: '/x' } })).toEqual([
      '/a.title: missing',
    ]);
  });

  it('lets names and codes stay as they are, not sentences', () => {
    expect(isNameLike('Ferry vs WeTransfer')).toBe(true);
    expect(isNameLike('100 MB')).toBe(true);
    expect(isNameLike('PostgreSQL 15+')).toBe(true);
    expect(isNameLike('No')).toBe(false);
    expect(isNameLike('Ferry on Windows')).toBe(false);
    expect(isNameLike('Send large files')).toBe(false);
  });
});

describe('content text', () => {
  it('escapes everything but its two marks, and puts links in the page language', () => {
    expect(inlineHtml('<b>x</b> & **bold** [prices](/prices?x=1#y) [out](https://example.com)', 'fr')).toBe(
      '&lt;b&gt;x&lt;/b&gt; &amp; <strong>bold</strong> <a href="/fr/prices?x=1#y">prices</a> <a href="https://example.com" rel="noopener">out</a>',
    );
    expect(inlineHtml('[bad](javascript:alert(1))', 'en')).not.toContain('<a');
    expect(inlineHtml('[proto](//evil.example)', 'en')).not.toContain('<a');
    expect(localHref('/', 'jp')).toBe('/jp');
    expect(localHref('/how-to', 'en')).toBe('/how-to');
  });
});
