import {
  bcp47Of,
  directionOf,
  formatSize,
  GB,
  LOCALE_TABLE,
  type Locale,
  PLAN_LIMITS,
  type PlanCatalogue,
  type PlanType,
  SCREENSHOT_SMALL_WIDTH,
  smallScreenshotName,
  withLocalePrefix,
} from '@ferry/core';
import type { SiteContent } from './content.js';
import type { SiteBlock, SitePage } from './content-schema.js';
import { escapeHtml, inlineHtml, localHref, plainText } from './inline.js';

/** The operator's identity for /legal (LEGAL_* settings); each part optional. */
export interface LegalIdentity {
  name: string | null;
  address: string | null;
  registration: string | null;
  contact: string | null;
  host: string | null;
}

/** What the site needs from config and from the rest of the server. */
export interface SiteSettings {
  /** PUBLIC_URL (or the local origin): canonical links, alternates, the sitemap. Never a request header. */
  origin: string;
  productName: string;
  /** ISO 3166 alpha-2 country of the "made in" banner; '' turns it off. */
  madeInCountry: string;
  /** An optional audience-measurement script, loaded only after consent. */
  analyticsScriptUrl: string | null;
  legal: LegalIdentity;
  /** What can be bought here (prices for the plan table); null when billing is not set up. */
  catalogue: () => PlanCatalogue | null;
}

/** One request's view of a page: who asks and where. */
export interface Visit {
  /** The visitor carries a session cookie (the banner for anonymous visitors stays away). */
  signedIn: boolean;
  /** The request came to the main domain (PUBLIC_URL's host). */
  mainDomain: boolean;
  /** The request came to an account's or team's own verified host (its subdomain or custom domain). */
  ownHost?: boolean;
  /**
   * On the main host: the origin of the user's home host, remembered by the auth-redirect cookie and still
   * verified; the app's home page goes there (spec §4).
   */
  homeOrigin?: string | null;
  /** The visitor has answered the cookie-consent widget (a `ferry_consent` cookie came with the request). */
  consentChosen: boolean;
}

/** The site's static files, named by their content's hash (site/assets.ts). */
export interface SiteAssets {
  css: string;
  scriptPath: string;
}

type Ui = ReturnType<SiteContent['ui']>;

// ---------------------------------------------------------------------------------------------------- numbers

const days = (n: number, tag: string) =>
  new Intl.NumberFormat(tag, { style: 'unit', unit: 'day', unitDisplay: 'long' }).format(n);
const count = (n: number, tag: string) => new Intl.NumberFormat(tag).format(n);

function money(minor: number, currency: string, tag: string): string {
  return new Intl.NumberFormat(tag, { style: 'currency', currency }).format(minor / 100);
}

function dateText(isoDay: string, tag: string): string {
  return new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );
}

// ---------------------------------------------------------------------------------------------------- blocks

const PLAN_COLUMNS: readonly PlanType[] = ['NONE', 'PREMIUM', 'TEAM', 'ENTERPRISE'];

function plansTable(ui: Ui, locale: Locale, settings: SiteSettings): string {
  const tag = bcp47Of(locale);
  const catalogue = settings.catalogue();
  const monthly = (type: PlanType): string => {
    if (type === 'NONE') return ui('plans.free');
    const offers = catalogue?.plans.filter((p) => p.planType === type && p.selfService) ?? [];
    const currency = catalogue?.currencies[0];
    const prices = offers.flatMap((p) =>
      p.prices.filter((price) => price.frequency === 'MONTHLY' && price.currency === currency),
    );
    if (prices.length === 0 || !currency) return ui('plans.onRequest');
    const lowest = Math.min(...prices.map((p) => p.amount));
    return ui('plans.fromPerMonth', { price: money(lowest, currency, tag) });
  };
  const rows: [string, (type: PlanType) => string][] = [
    ['plans.uploadSize', (t) => formatSize(PLAN_LIMITS[t].uploadSizeGB * GB, tag)],
    ['plans.validity', (t) => days(PLAN_LIMITS[t].fileValidityInDays, tag)],
    ['plans.recipients', (t) => count(PLAN_LIMITS[t].recipients, tag)],
    ['plans.files', (t) => count(PLAN_LIMITS[t].files, tag)],
    ['plans.storage', (t) => formatSize(PLAN_LIMITS[t].storageGB * GB, tag)],
    ['plans.price', monthly],
  ];
  const head = PLAN_COLUMNS.map(
    (t) => `<th scope="col">${escapeHtml(ui(`plans.${t.toLowerCase()}`))}</th>`,
  ).join('');
  const body = rows
    .map(
      ([key, value]) =>
        `<tr><th scope="row">${escapeHtml(ui(key))}</th>${PLAN_COLUMNS.map((t) => `<td>${escapeHtml(value(t))}</td>`).join('')}</tr>`,
    )
    .join('');
  const caption = escapeHtml(ui('plans.caption'));
  return (
    `<div class="table-wrap" role="region" tabindex="0" aria-label="${caption}"><table class="plans">` +
    `<caption>${caption}</caption><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table></div>` +
    `<p><a class="text-link" href="${escapeHtml(withLocalePrefix('/prices', locale))}">${escapeHtml(ui('plans.seePrices'))}</a></p>`
  );
}

function formHtml(kind: 'contact' | 'sales', ui: Ui, locale: Locale): string {
  const field = (name: string, label: string, input: string) =>
    `<div class="field"><label for="${kind}-${name}">${escapeHtml(label)}</label>${input}</div>`;
  const text = (name: string, type: string, required: boolean, extra = '') =>
    `<input id="${kind}-${name}" name="${name}" type="${type}"${required ? ' required' : ''}${extra}>`;
  const fields =
    kind === 'sales'
      ? [
          field('name', ui('form.name'), text('name', 'text', true, ' autocomplete="name" maxlength="200"')),
          field('email', ui('form.email'), text('email', 'email', true, ' autocomplete="email"')),
          field(
            'company',
            ui('form.company'),
            text('company', 'text', true, ' autocomplete="organization" maxlength="200"'),
          ),
          field('phone', ui('form.phone'), text('phone', 'tel', false, ' autocomplete="tel" maxlength="40"')),
          field(
            'teamSize',
            ui('form.teamSize'),
            text('teamSize', 'number', false, ' min="1" max="1000000" inputmode="numeric"'),
          ),
          field(
            'message',
            ui('form.message'),
            `<textarea id="${kind}-message" name="message" rows="5" maxlength="5000"></textarea>`,
          ),
        ]
      : [
          field('name', ui('form.name'), text('name', 'text', true, ' autocomplete="name" maxlength="200"')),
          field('email', ui('form.email'), text('email', 'email', true, ' autocomplete="email"')),
          field('subject', ui('form.subject'), text('subject', 'text', true, ' maxlength="200"')),
          field(
            'message',
            ui('form.message'),
            `<textarea id="${kind}-message" name="message" rows="6" required maxlength="5000"></textarea>`,
          ),
        ];
  const messages = ['sending', 'sent', 'error', 'rateLimited']
    .map((m) => ` data-${m.toLowerCase()}="${escapeHtml(ui(`form.${m}`))}"`)
    .join('');
  return (
    `<form class="site-form" data-site-form="${kind}" data-locale="${locale}"${messages} novalidate>` +
    fields.join('') +
    `<button type="submit" class="button primary">${escapeHtml(ui('form.send'))}</button>` +
    `<p class="form-status" role="status" aria-live="polite"></p>` +
    `<noscript><p class="note">${escapeHtml(ui('form.noscript'))}</p></noscript></form>`
  );
}

function operatorHtml(ui: Ui, legal: LegalIdentity): string {
  const parts = (['name', 'address', 'registration', 'contact', 'host'] as const).filter((k) => legal[k]);
  if (parts.length === 0) return `<p class="note">${escapeHtml(ui('operator.missing'))}</p>`;
  return `<dl class="operator">${parts
    .map((k) => `<dt>${escapeHtml(ui(`operator.${k}`))}</dt><dd>${escapeHtml(legal[k]!)}</dd>`)
    .join('')}</dl>`;
}

function consentStatusHtml(ui: Ui): string {
  const labels = ['All', 'Necessary', 'None']
    .map((v) => ` data-label-${v.toLowerCase()}="${escapeHtml(ui(`consent.status${v}`))}"`)
    .join('');
  return (
    `<div class="consent-status"><p><strong>${escapeHtml(ui('consent.yourChoice'))}</strong> ` +
    `<span data-consent-status${labels}>${escapeHtml(ui('consent.statusNone'))}</span></p>` +
    `<button type="button" class="button" data-consent-open>${escapeHtml(ui('consent.change'))}</button></div>`
  );
}

/** What the blocks drawn so far on a page left behind: its first screenshot is drawn differently. */
interface DrawState {
  images: number;
}

/**
 * A guide's screenshot. The first one of a page sits in the first screen on a phone (under the heading and the
 * lead) and is the page's largest paint there: it is fetched at once and first; the others wait until the
 * visitor scrolls near them.
 */
function screenshotHtml(file: string, alt: string, state: DrawState): string {
  const first = state.images === 0;
  state.images += 1;
  // The column is at most 60rem less its padding; on a phone it is the screen less ~5rem (margins, step numbers).
  const srcset = `/site/screenshots/${smallScreenshotName(file)} ${SCREENSHOT_SMALL_WIDTH}w, /site/screenshots/${file} 1280w`;
  return `<img src="/site/screenshots/${file}" srcset="${srcset}" sizes="(max-width: 60rem) calc(100vw - 5rem), 54rem" alt="${escapeHtml(alt)}" width="1280" height="800"${
    first ? ' fetchpriority="high"' : ' loading="lazy"'
  } decoding="async">`;
}

function blockHtml(
  block: SiteBlock,
  locale: Locale,
  ui: Ui,
  settings: SiteSettings,
  state: DrawState,
): string {
  const t = (text: string) => inlineHtml(text, locale);
  switch (block.type) {
    case 'h2':
      return `<h2${block.id ? ` id="${block.id}"` : ''}>${t(block.text)}</h2>`;
    case 'p':
      return `<p>${t(block.text)}</p>`;
    case 'list':
      return `<ul class="list">${block.items.map((i) => `<li>${t(i)}</li>`).join('')}</ul>`;
    case 'steps':
      return `<ol class="steps">${block.items
        .map(
          (s) =>
            `<li><h3>${t(s.title)}</h3><p>${t(s.text)}</p>${
              s.image ? screenshotHtml(s.image, s.alt ?? plainText(s.title), state) : ''
            }</li>`,
        )
        .join('')}</ol>`;
    case 'faq':
      return `<section class="faq" aria-labelledby="faq-title"><h2 id="faq-title">${escapeHtml(ui('faq.heading'))}</h2>${block.items
        .map((i) => `<details><summary>${t(i.q)}</summary><p>${t(i.a)}</p></details>`)
        .join('')}</section>`;
    case 'table': {
      const caption = escapeHtml(plainText(block.caption));
      return (
        `<div class="table-wrap" role="region" tabindex="0" aria-label="${caption}"><table><caption>${t(block.caption)}</caption>` +
        `<thead><tr>${block.head.map((h) => `<th scope="col">${t(h)}</th>`).join('')}</tr></thead><tbody>${block.rows
          .map(
            (r) =>
              `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${t(c)}</th>` : `<td>${t(c)}</td>`)).join('')}</tr>`,
          )
          .join('')}</tbody></table></div>`
      );
    }
    case 'cards':
      return `<ul class="cards">${block.items
        .map((c) =>
          c.href
            ? `<li class="card"><h3><a href="${escapeHtml(localHref(c.href, locale))}">${t(c.title)}</a></h3><p>${t(c.text)}</p></li>`
            : `<li class="card"><h3>${t(c.title)}</h3><p>${t(c.text)}</p></li>`,
        )
        .join('')}</ul>`;
    case 'cta':
      return `<p class="cta"><a class="button primary" href="${escapeHtml(localHref(block.href, locale))}">${t(block.text)}</a></p>`;
    case 'note':
      return `<p class="note">${t(block.text)}</p>`;
    case 'code':
      // Focusable: a long line scrolls sideways on a narrow screen, and the keyboard must be able to scroll it too.
      return `<pre class="code" tabindex="0"><code>${escapeHtml(block.code)}</code></pre>`;
    case 'plans':
      return plansTable(ui, locale, settings);
    case 'form':
      return formHtml(block.form, ui, locale);
    case 'operator':
      return operatorHtml(ui, settings.legal);
    case 'consent':
      return consentStatusHtml(ui);
  }
}

// ---------------------------------------------------------------------------------------------------- head

/** The page in every language: `<link rel="alternate" hreflang>` for each, and x-default (English, the bare path). */
export function alternatesHtml(path: string, origin: string, locales: readonly Locale[]): string {
  return `${locales
    .map(
      (l) =>
        `<link rel="alternate" hreflang="${bcp47Of(l)}" href="${escapeHtml(origin + withLocalePrefix(path, l))}">`,
    )
    .join('')}<link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + path)}">`;
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no text can close the element. */
export function jsonLd(data: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

export function organizationLd(settings: SiteSettings): unknown {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: settings.legal.name ?? settings.productName,
    url: `${settings.origin}/`,
    logo: `${settings.origin}/favicon.svg`,
    ...(settings.legal.contact ? { email: settings.legal.contact } : {}),
  };
}

function faqLd(page: SitePage): unknown | null {
  const items = page.blocks.flatMap((b) => (b.type === 'faq' ? b.items : []));
  if (items.length === 0) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((i) => ({
      '@type': 'Question',
      name: plainText(i.q),
      acceptedAnswer: { '@type': 'Answer', text: plainText(i.a) },
    })),
  };
}

/** The <head> lines every public page shares: description, canonical, alternates, Open Graph. */
export function headHtml(input: {
  path: string;
  locale: Locale;
  title: string;
  description: string;
  settings: SiteSettings;
  locales: readonly Locale[];
  ld: unknown[];
}): string {
  const { path, locale, settings } = input;
  const canonical = settings.origin + withLocalePrefix(path, locale);
  const title = `${plainText(input.title)} · ${settings.productName}`;
  const description = plainText(input.description);
  return (
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="description" content="${escapeHtml(description)}">` +
    `<link rel="canonical" href="${escapeHtml(canonical)}">` +
    alternatesHtml(path, settings.origin, input.locales) +
    `<meta property="og:type" content="website">` +
    `<meta property="og:site_name" content="${escapeHtml(settings.productName)}">` +
    `<meta property="og:title" content="${escapeHtml(title)}">` +
    `<meta property="og:description" content="${escapeHtml(description)}">` +
    `<meta property="og:url" content="${escapeHtml(canonical)}">` +
    `<meta property="og:locale" content="${bcp47Of(locale).replace('-', '_')}">` +
    `<meta property="og:image" content="${escapeHtml(`${settings.origin}/site/og-image.png`)}">` +
    `<meta name="twitter:card" content="summary_large_image">` +
    input.ld.map(jsonLd).join('')
  );
}

// ---------------------------------------------------------------------------------------------------- frame

const FOOTER: readonly [string, readonly [string, string][]][] = [
  [
    'footer.product',
    [
      ['link.features', '/features'],
      ['link.prices', '/prices'],
      ['link.discover', '/discover'],
      ['link.apps', '/apps'],
      ['link.cld', '/cld'],
    ],
  ],
  [
    'footer.help',
    [
      ['link.howTo', '/how-to'],
      ['link.support', '/support'],
      ['link.start', '/d/start'],
      ['link.contact', '/contact'],
    ],
  ],
  [
    'footer.company',
    [
      ['link.about', '/about'],
      ['link.explore', '/explore'],
      ['link.compare', '/compare'],
      ['link.sales', '/contact/sales'],
    ],
  ],
  [
    'footer.legal',
    [
      ['link.terms', '/terms'],
      ['link.privacy', '/privacy-gdpr'],
      ['link.cookies', '/cookies'],
      ['link.legal', '/legal'],
    ],
  ],
];

const NAV: readonly [string, string][] = [
  ['link.features', '/features'],
  ['link.prices', '/prices'],
  ['link.howTo', '/how-to'],
  ['link.support', '/support'],
];

/** The language switcher: the same page in every language, as plain links (works without JavaScript). */
export function languageSwitcherHtml(
  path: string,
  locale: Locale,
  locales: readonly Locale[],
  ui: Ui,
): string {
  const current = LOCALE_TABLE.find((l) => l.code === locale)!;
  const links = LOCALE_TABLE.filter((l) => locales.includes(l.code))
    .map(
      (l) =>
        `<li><a href="${escapeHtml(withLocalePrefix(path, l.code))}" hreflang="${l.bcp47}" lang="${l.bcp47}"${
          l.code === locale ? ' aria-current="page"' : ''
        }>${escapeHtml(l.nativeName)}</a></li>`,
    )
    .join('');
  return (
    `<details class="lang"><summary><span class="visually-hidden">${escapeHtml(ui('language'))}: </span>` +
    `<span lang="${current.bcp47}">${escapeHtml(current.nativeName)}</span></summary><ul>${links}</ul></details>`
  );
}

/** The "made in" banner for anonymous visitors on the main domain; '' otherwise. */
export function madeInHtml(ui: Ui, locale: Locale, settings: SiteSettings, visit: Visit): string {
  if (!settings.madeInCountry || visit.signedIn || !visit.mainDomain) return '';
  const country =
    new Intl.DisplayNames([bcp47Of(locale)], { type: 'region' }).of(settings.madeInCountry) ??
    settings.madeInCountry;
  return `<div class="made-in" data-testid="made-in-banner">${escapeHtml(ui('madeIn', { country }))}</div>`;
}

/**
 * The cookie-consent widget: drawn open for a visitor who has not answered yet (so it is painted with the page,
 * not after the script), else hidden until "Cookie settings" opens it. Without JavaScript nothing optional can
 * load, and consent.css hides it.
 */
export function consentHtml(ui: Ui, locale: Locale, settings: SiteSettings, open: boolean): string {
  return (
    `<section class="consent" id="ferry-consent" aria-label="${escapeHtml(ui('consent.title'))}"${open ? '' : ' hidden'}` +
    ` data-analytics="${escapeHtml(settings.analyticsScriptUrl ?? '')}">` +
    `<p><strong>${escapeHtml(ui('consent.title'))}.</strong> ${escapeHtml(ui('consent.text'))}</p>` +
    `<div class="consent-actions"><button type="button" class="button" data-consent="necessary">${escapeHtml(ui('consent.necessary'))}</button>` +
    `<button type="button" class="button primary" data-consent="all">${escapeHtml(ui('consent.all'))}</button>` +
    `<a href="${escapeHtml(withLocalePrefix('/cookies', locale))}">${escapeHtml(ui('consent.more'))}</a></div></section>`
  );
}

const LOGO =
  '<svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#4052B5"/><path d="M8 19h16l-3 5H11zM15 7v10h2V7zm2 1 6 8h-6z" fill="#fff"/></svg>';

// ---------------------------------------------------------------------------------------------------- page

/** A site page as complete HTML in one language. */
export function renderSitePage(input: {
  path: string;
  locale: Locale;
  content: SiteContent;
  settings: SiteSettings;
  assets: SiteAssets;
  visit: Visit;
}): string {
  const { path, content, settings, assets, visit } = input;
  const found = content.page(path, input.locale);
  if (!found) throw new Error(`no site page ${path}`);
  const { page, locale } = found;
  const ui = content.ui(locale);
  const locales = content.locales();
  const tag = bcp47Of(locale);
  const faq = faqLd(page);
  const immersive = path.startsWith('/discover');
  const nav = NAV.map(
    ([key, href]) =>
      `<li><a href="${escapeHtml(withLocalePrefix(href, locale))}"${href === path ? ' aria-current="page"' : ''}>${escapeHtml(ui(key))}</a></li>`,
  ).join('');
  const footer = FOOTER.map(
    ([heading, links]) =>
      `<nav aria-label="${escapeHtml(ui(heading))}"><h2>${escapeHtml(ui(heading))}</h2><ul>${links
        .map(
          ([key, href]) =>
            `<li><a href="${escapeHtml(withLocalePrefix(href, locale))}">${escapeHtml(ui(key))}</a></li>`,
        )
        .join('')}</ul></nav>`,
  ).join('');
  const state: DrawState = { images: 0 };
  const updated = page.updated
    ? `<p class="updated">${escapeHtml(ui('updated', { date: dateText(page.updated, tag) }))}</p>`
    : '';
  return (
    `<!doctype html><html lang="${tag}" dir="${directionOf(locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="theme-color" content="#4052B5"><link rel="icon" type="image/svg+xml" href="/favicon.svg">` +
    headHtml({
      path,
      locale,
      title: page.title,
      description: page.description,
      settings,
      locales,
      ld: faq ? [faq] : [],
    }) +
    `<style>${assets.css}</style><script src="${assets.scriptPath}" defer></script></head>` +
    `<body class="site${immersive ? ' site--immersive' : ''}">` +
    `<a class="skip-link" href="#main">${escapeHtml(ui('skip'))}</a>` +
    madeInHtml(ui, locale, settings, visit) +
    `<header class="site-header"><a class="brand" href="${escapeHtml(withLocalePrefix('/', locale))}">${LOGO}<span>${escapeHtml(settings.productName)}</span></a>` +
    `<nav class="site-nav" aria-label="${escapeHtml(ui('nav.label'))}"><ul>${nav}</ul></nav>` +
    `<div class="site-tools">${languageSwitcherHtml(path, locale, locales, ui)}` +
    `<a class="button" href="${escapeHtml(withLocalePrefix('/signin', locale))}">${escapeHtml(ui('nav.signin'))}</a>` +
    `<a class="button primary" href="${escapeHtml(withLocalePrefix('/', locale))}">${escapeHtml(ui('nav.send'))}</a></div></header>` +
    `<main id="main" class="site-main${immersive ? ' panel-immersive' : ''}" tabindex="-1">` +
    `<div class="hero"><h1>${inlineHtml(page.heading, locale)}</h1><p class="lead">${inlineHtml(page.lead, locale)}</p>${updated}</div>` +
    `<div class="content">${page.blocks.map((b) => blockHtml(b, locale, ui, settings, state)).join('')}</div></main>` +
    `<footer class="site-footer"><div class="footer-links">${footer}</div>` +
    `<p class="footer-meta"><span>© ${new Date().getUTCFullYear()} ${escapeHtml(settings.legal.name ?? settings.productName)}</span> ` +
    `<button type="button" class="link-button" data-consent-open>${escapeHtml(ui('consent.settings'))}</button></p></footer>` +
    consentHtml(ui, locale, settings, !visit.consentChosen) +
    `</body></html>`
  );
}
