import { withLocalePrefix } from '@ferry/core';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Whether a content link is one the site may carry: a path of the site or app, or an https:// address. */
export function isAllowedHref(href: string): boolean {
  return /^\/(?!\/)[^\s]*$/.test(href) || /^https:\/\/[^\s]+$/.test(href);
}

/**
 * A content link in the page's language: a bare path gets the language prefix (`/prices?x#y` → `/fr/prices?x#y`),
 * an https:// address is left as it is.
 */
export function localHref(href: string, locale: string): string {
  if (!href.startsWith('/')) return href;
  const cut = href.search(/[?#]/);
  const path = cut === -1 ? href : href.slice(0, cut);
  const tail = cut === -1 ? '' : href.slice(cut);
  return withLocalePrefix(path, locale) + tail;
}

const INLINE = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/**
 * Content text as HTML: `**bold**` and `[label](href)` become <strong> and <a>, everything else is escaped.
 * A link the site may not carry is left as its label.
 */
export function inlineHtml(text: string, locale: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    out += escapeHtml(text.slice(last, match.index));
    if (match[1] !== undefined) out += `<strong>${escapeHtml(match[1])}</strong>`;
    else {
      const label = escapeHtml(match[2]!);
      const href = match[3]!;
      if (!isAllowedHref(href)) out += label;
      else if (href.startsWith('/')) out += `<a href="${escapeHtml(localHref(href, locale))}">${label}</a>`;
      else out += `<a href="${escapeHtml(href)}" rel="noopener">${label}</a>`;
    }
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Content text without its marks (for <title>, meta descriptions and JSON-LD). */
export function plainText(text: string): string {
  return text.replace(
    INLINE,
    (_all, bold: string | undefined, label: string | undefined) => bold ?? label ?? '',
  );
}
