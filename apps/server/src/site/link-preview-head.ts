import { bcp47Of, formatSize, type Locale, localePrefixOf, TransferId, withLocalePrefix } from '@ferry/core';
import type { LinkPreview } from '../services/link-preview.service.js';
import { escapeHtml } from './inline.js';

/** The default link-preview image (site/assets/og-image.png, made from og-image.svg): 1200 × 630. */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The transfer id of a download page's path (`/dl/{id}`, `/dl/{id}/{fileId}`, under a language prefix too). */
export function downloadPageId(pathname: string): string | null {
  const bare = localePrefixOf(pathname)?.rest ?? pathname;
  const id = /^\/dl\/([^/]+)(?:\/[^/]+)?\/?$/i.exec(bare)?.[1];
  return id && TransferId.safeParse(id).success ? id : null;
}

type Ui = (key: string, values?: Record<string, string>) => string;

/** "3 files" in the visitor's language, with its plural form (og.files.one, og.files.few …). */
export function fileCountText(ui: Ui, locale: Locale, count: number): string {
  const category = new Intl.PluralRules(bcp47Of(locale)).select(count);
  return ui(`og.files.${category}`, { count: count.toLocaleString(bcp47Of(locale)) });
}

/**
 * The Open Graph and Twitter card lines of a download page's head. Everything is escaped; the image and the
 * page's URL are absolute from PUBLIC_URL (never the request's Host), and the URL never carries a query (an S1
 * link's secret stays out of it).
 */
export function linkPreviewHead(input: {
  preview: LinkPreview;
  transferId: string;
  locale: Locale;
  /** The language prefix of the requested path, kept in og:url. */
  pathLocale: Locale;
  ui: Ui;
  origin: string;
  productName: string;
  defaultImagePath: string;
}): string {
  const { preview, ui, locale, productName: product } = input;
  let title: string;
  let description: string;
  if (preview.kind === 'generic') {
    title = ui('og.genericTitle', { product });
    description = ui('og.genericDescription', { product });
  } else {
    const files = fileCountText(ui, locale, preview.fileCount);
    const summary = `${files} · ${formatSize(preview.totalSize, locale)}`;
    title = preview.title ?? preview.name ?? files;
    description = preview.description ?? ui('og.description', { summary, product });
  }
  const logo = preview.kind === 'transfer' ? preview.logoUrl : null;
  const image = logo ?? input.origin + input.defaultImagePath;
  const url = input.origin + withLocalePrefix(`/dl/${input.transferId}`, input.pathLocale);
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  return [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', product),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:locale', bcp47Of(locale).replace('-', '_')),
    meta('property', 'og:image', image),
    // A logo's size is its own; the default image's is known.
    ...(logo
      ? []
      : [
          meta('property', 'og:image:width', String(OG_IMAGE_SIZE.width)),
          meta('property', 'og:image:height', String(OG_IMAGE_SIZE.height)),
        ]),
    meta('property', 'og:image:alt', logo ? ui('og.senderLogoAlt') : ui('og.imageAlt', { product })),
    // There is always an image (the logo or the default one).
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    meta('name', 'twitter:image:alt', logo ? ui('og.senderLogoAlt') : ui('og.imageAlt', { product })),
  ].join('');
}
