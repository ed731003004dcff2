import {
  bcp47Of,
  DEFAULT_LOCALE,
  directionOf,
  LOCALE_TABLE,
  type Locale,
  localeInfo,
  localePrefixOf,
  publicAppPageOf,
  sitePageOf,
  withLocalePrefix,
} from '@ferry/core';
import type { LinkPreview } from '../services/link-preview.service.js';
import { SiteFiles } from './assets.js';
import { SiteContent } from './content.js';
import { escapeHtml, inlineHtml } from './inline.js';
import { linkPreviewHead } from './link-preview-head.js';
import {
  consentHtml,
  headHtml,
  organizationLd,
  renderSitePage,
  type SiteSettings,
  type Visit,
} from './render.js';
import { robotsTxt, sitemapXml } from './seo.js';

/** The best of the visitor's Accept-Language that the site speaks (English when none). */
export function localeOfAcceptLanguage(header: string | undefined, locales: readonly Locale[]): Locale {
  if (!header) return DEFAULT_LOCALE;
  const wanted = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag: tag.toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of wanted) {
    const exact = LOCALE_TABLE.find((l) => l.bcp47.toLowerCase() === tag || l.code === tag);
    const base = tag.split('-')[0]!;
    const found =
      exact ??
      LOCALE_TABLE.find((l) => l.bcp47.toLowerCase().split('-')[0] === base) ??
      (base === 'nn' ? localeInfo('no') : undefined);
    if (found && locales.includes(found.code)) return found.code;
  }
  return DEFAULT_LOCALE;
}

/**
 * The public site: its pages rendered in every language (kept once rendered: the content is read at start),
 * the words and head lines of the app's public pages, sitemap.xml and robots.txt.
 */
export class PublicSite {
  readonly content: SiteContent;
  readonly files = new SiteFiles();
  private readonly rendered = new Map<string, string>();

  constructor(
    private readonly settings: SiteSettings,
    content?: SiteContent,
  ) {
    this.content = content ?? new SiteContent();
  }

  /** The site page at a request path as HTML, or null when the path is not one. */
  page(pathname: string, visit: Visit): string | null {
    const found = sitePageOf(pathname);
    if (!found) return null;
    const key = `${found.locale}|${found.path}|${visit.signedIn}|${visit.mainDomain}|${visit.consentChosen}`;
    let html = this.rendered.get(key);
    if (html === undefined) {
      html = renderSitePage({
        path: found.path,
        locale: found.locale,
        content: this.content,
        settings: this.settings,
        assets: { css: this.files.css, scriptPath: this.files.scriptPath },
        visit,
      });
      // The plan table reads the live catalogue, so only the rest of the site is kept.
      if (!html.includes('class="plans"')) this.rendered.set(key, html);
    }
    return html;
  }

  /**
   * The app's index.html for a request: the page's language on <html>; on a public app page its title,
   * description, canonical, alternates, Open Graph and (home) Organization JSON-LD, and its heading and lead in
   * the HTML before the app draws; on every page the consent widget, the site script and the app's settings.
   * A bare path is English for search engines; the consent widget speaks the visitor's language. A download page
   * gets its link preview (Open Graph, Twitter card) in the visitor's language, and stays out of search engines.
   */
  appShell(
    index: string,
    pathname: string,
    acceptLanguage: string | undefined,
    visit: Visit,
    /** A download page's link preview (LinkPreviewService), written in the visitor's language. */
    download?: { transferId: string; preview: LinkPreview },
  ): string {
    const locales = this.content.locales();
    const publicPage = publicAppPageOf(pathname);
    const prefixed = /^\/([a-z]+)(?:[/?#]|$)/.exec(pathname);
    const urlLocale = prefixed && localeInfo(prefixed[1]!) ? (prefixed[1] as Locale) : null;
    const pageLocale = publicPage?.locale ?? urlLocale ?? DEFAULT_LOCALE;
    const visitorLocale = urlLocale ?? localeOfAcceptLanguage(acceptLanguage, locales);
    const ui = this.content.ui(visitorLocale);
    let html = index.replace(
      /<html[^>]*>/,
      `<html lang="${bcp47Of(pageLocale)}" dir="${directionOf(pageLocale)}">`,
    );
    if (publicPage) {
      const words = this.content.appPage(publicPage.path, publicPage.locale)!;
      const head = headHtml({
        path: publicPage.path,
        locale: publicPage.locale,
        title: words.title,
        description: words.description,
        settings: this.settings,
        locales,
        ld: publicPage.path === '/' ? [organizationLd(this.settings)] : [],
      });
      html = html
        .replace(/<title>[\s\S]*?<\/title>/, '')
        .replace(/<meta name="description"[^>]*>/, '')
        .replace('</head>', `${head}</head>`)
        .replace(
          '<div id="root"></div>',
          `<div id="root"><main class="prerendered"><h1>${inlineHtml(words.heading, publicPage.locale)}</h1>` +
            `<p>${inlineHtml(words.lead, publicPage.locale)}</p>` +
            `<p><a href="${escapeHtml(withLocalePrefix('/features', publicPage.locale))}">${escapeHtml(this.content.ui(publicPage.locale)('link.features'))}</a></p></main></div>`,
        );
    } else {
      const preview = download
        ? linkPreviewHead({
            ...download,
            locale: visitorLocale,
            pathLocale: urlLocale ?? DEFAULT_LOCALE,
            ui,
            origin: this.settings.origin,
            productName: this.settings.productName,
            defaultImagePath: this.files.ogImagePath,
          })
        : '';
      html = html.replace('</head>', `<meta name="robots" content="noindex">${preview}</head>`);
    }
    // The upload widget is framed by other sites: no banner, no consent widget of ours inside their page (it sets
    // no cookie of its own and loads nothing optional).
    const bare = localePrefixOf(pathname)?.rest ?? pathname;
    if (bare.startsWith('/widgets/')) return html;
    const config = JSON.stringify({
      madeInCountry: this.settings.madeInCountry,
      mainDomain: visit.mainDomain,
      ownHost: visit.ownHost === true,
      // without a session cookie the visitor is signed out for sure: the app draws the visitors' banner at once,
      // not after GET /api/auth/me (which would move the page down under the reader)
      sessionCookie: visit.signedIn,
      ...(visit.homeOrigin ? { homeOrigin: visit.homeOrigin } : {}),
    }).replace(/</g, '\\u003c');
    return html
      .replace(
        '</head>',
        `<link rel="stylesheet" href="${this.files.consentCssPath}">` +
          `<script id="ferry-site-config" type="application/json">${config}</script>` +
          `<script src="${this.files.scriptPath}" defer></script></head>`,
      )
      .replace('</body>', `${consentHtml(ui, visitorLocale, this.settings, !visit.consentChosen)}</body>`);
  }

  // Both are the same for every request once the origin is known (~4.6 MB for the sitemap): made once per origin.
  private made: { origin: string; sitemap: string; robots: string } | null = null;

  private madeFiles(): { sitemap: string; robots: string } {
    const origin = this.settings.origin;
    if (this.made?.origin !== origin) {
      const locales = this.content.locales();
      this.made = { origin, sitemap: sitemapXml(origin, locales), robots: robotsTxt(origin, locales) };
    }
    return this.made;
  }

  sitemap(): string {
    return this.madeFiles().sitemap;
  }

  robots(): string {
    return this.madeFiles().robots;
  }
}
