import { DEFAULT_LOCALE, type Locale, localePrefixOf } from './locales.js';

/**
 * The public site of spec §2: pages the server renders as complete HTML in every language (apps/server/src/site),
 * outside the web app's router. English at the bare path, every other language under its code (`/fr/about`).
 * Their content is apps/server/src/site/content/<code>/<group>.json, keyed by these paths.
 */
export const SITE_PAGES = [
  '/about',
  '/features',
  '/contact',
  '/contact/sales',
  '/support',
  '/discover',
  '/discover/ferry-free-forever',
  '/discover/ferry-premium',
  '/discover/ferry-team',
  '/discover/ferry-enterprise',
  '/discover/ferry-api-sdk',
  '/how-to',
  '/how-to/send-large-files-by-email',
  '/how-to/share-files-by-link',
  '/how-to/request-files',
  '/how-to/create-upload-inbox',
  '/how-to/receive-files-in-your-account',
  '/how-to/add-an-upload-widget',
  '/how-to/sell-files',
  '/how-to/send-large-files-with-outlook',
  '/how-to/send-large-files-with-gmail',
  '/how-to/send-photos',
  '/how-to/send-videos',
  '/how-to/send-pdf-files',
  '/how-to/send-files-bigger-than-2-gb',
  '/how-to/send-files-bigger-than-5-gb',
  '/how-to/send-files-bigger-than-10-gb',
  '/how-to/send-files-bigger-than-20-gb',
  '/explore',
  '/explore/security',
  '/explore/file-storage',
  '/explore/infrastructure-technology',
  '/explore/personal-data',
  '/terms',
  '/privacy-gdpr',
  '/cookies',
  '/legal',
  '/apps',
  '/apps/windows',
  '/apps/macos',
  '/apps/linux',
  '/apps/ios',
  '/apps/android',
  '/apps/outlook-add-in',
  '/apps/chrome-extension-gmail',
  '/wetransfer',
  '/compare',
  '/compare/smash-transfer',
  '/compare/filemail',
  '/compare/dropbox-transfer',
  '/compare/transferxl',
  '/compare/send-anywhere',
  '/compare/sendgb',
  '/compare/swisstransfer',
  '/top-5-file-transfer-service',
  '/d/start',
  '/cld',
] as const;
export type SitePagePath = (typeof SITE_PAGES)[number];

/**
 * The web app's pages that search engines should find (the rest need a sign-in or a secret link): served with the
 * app, but with a title, description, canonical and language alternates written by the server, and listed in
 * sitemap.xml beside the site.
 */
export const PUBLIC_APP_PAGES = [
  '/',
  '/prices',
  '/request-files',
  '/push',
  '/signin',
  '/register',
  '/register/enterprise',
] as const;
export type PublicAppPagePath = (typeof PUBLIC_APP_PAGES)[number];

const SITE_SET = new Set<string>(SITE_PAGES);
const APP_SET = new Set<string>(PUBLIC_APP_PAGES);

function split(pathname: string): { locale: Locale; path: string } {
  const bare = pathname.split(/[?#]/)[0] ?? '';
  const prefixed = localePrefixOf(bare);
  const rest = prefixed ? prefixed.rest : bare;
  const path = rest.length > 1 ? rest.replace(/\/+$/, '').toLowerCase() : rest;
  return { locale: prefixed?.locale ?? DEFAULT_LOCALE, path: path || '/' };
}

/** The site page a request path names, with its language: `/fr/about` → { locale: 'fr', path: '/about' }. */
export function sitePageOf(pathname: string): { locale: Locale; path: SitePagePath } | null {
  const { locale, path } = split(pathname);
  return SITE_SET.has(path) ? { locale, path: path as SitePagePath } : null;
}

/** The public app page a request path names (`/jp/prices`), with its language; null for any other path. */
export function publicAppPageOf(pathname: string): { locale: Locale; path: PublicAppPagePath } | null {
  const { locale, path } = split(pathname);
  return APP_SET.has(path) ? { locale, path: path as PublicAppPagePath } : null;
}

/**
 * A guide screenshot is taken at 1280 px wide (name.jpg) and kept beside a copy for phones (name-640.jpg): pages
 * list both in the image's srcset, so a phone fetches the small one.
 */
export const SCREENSHOT_SMALL_WIDTH = 640;

/** The phone-sized copy of a guide screenshot: `send-link.jpg` → `send-link-640.jpg`. */
export function smallScreenshotName(name: string): string {
  return name.replace(/\.jpg$/, `-${SCREENSHOT_SMALL_WIDTH}.jpg`);
}
