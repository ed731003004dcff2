import { bcp47Of, type Locale, PUBLIC_APP_PAGES, SITE_PAGES, withLocalePrefix } from '@ferry/core';
import { escapeHtml } from './inline.js';

/** Every public page (site and public app pages) in every language, with its alternates, as sitemaps.org XML. */
export function sitemapXml(origin: string, locales: readonly Locale[]): string {
  const paths = [...PUBLIC_APP_PAGES, ...SITE_PAGES];
  const alternates = (path: string) =>
    `${locales
      .map(
        (l) =>
          `<xhtml:link rel="alternate" hreflang="${bcp47Of(l)}" href="${escapeHtml(origin + withLocalePrefix(path, l))}"/>`,
      )
      .join('')}<xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + path)}"/>`;
  const urls = paths.flatMap((path) => {
    const links = alternates(path);
    return locales.map(
      (l) => `<url><loc>${escapeHtml(origin + withLocalePrefix(path, l))}</loc>${links}</url>`,
    );
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    urls.join('\n') +
    '\n</urlset>\n'
  );
}

/** Private areas and secret links stay out of search engines; everything else is open. */
const DISALLOWED = [
  '/api/',
  '/dashboard',
  '/account',
  '/operator',
  '/dl/',
  '/r/',
  '/i/',
  '/widgets/',
  '/join',
  '/reset-password',
  '/verify-email',
  '/unsubscribe',
];

export function robotsTxt(origin: string, locales: readonly Locale[]): string {
  const prefixed = locales.filter((l) => l !== 'en');
  const rule = (verb: 'Allow' | 'Disallow', path: string) => [
    `${verb}: ${path}`,
    ...(path.startsWith('/api/') ? [] : prefixed.map((l) => `${verb}: /${l}${path}`)),
  ];
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.flatMap((path) => rule('Disallow', path)),
    // Link-preview fetchers that obey robots.txt (X's card crawler) may read download pages' tags: the pages say
    // noindex, and show only what the transfer's link preview allows (generic text for protected transfers).
    '',
    'User-agent: Twitterbot',
    ...rule('Allow', '/dl/'),
    ...DISALLOWED.filter((path) => path !== '/dl/').flatMap((path) => rule('Disallow', path)),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
