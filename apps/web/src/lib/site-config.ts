/**
 * What the server tells the page about the site it is served from, in index.html before the app's script:
 * `<script id="ferry-site-config" type="application/json">{"madeInCountry":"FR","mainDomain":true}</script>`.
 */
export interface SiteConfig {
  /** ISO 3166 alpha-2 code of the "Made in" banner, upper case; "" turns the banner off. */
  madeInCountry: string;
  /** Whether the page was asked for at the main domain (PUBLIC_URL's host), not a subdomain or another host. */
  mainDomain: boolean;
  /**
   * The page was asked for at an account's or team's own verified host (its subdomain or custom domain), as the
   * server found it in its table of hosts: signed-out visitors get the limited pages only (spec §2).
   */
  ownHost: boolean;
  /** On the main host: the user's home host (auth-redirect cookie, spec §4), where the home page goes; else absent. */
  homeOrigin?: string;
  /**
   * Whether the page was asked for with a session cookie; false: the visitor is signed out for sure, before
   * GET /api/auth/me answers. Absent when the server did not say (dev server, tests).
   */
  sessionCookie?: boolean;
}

export const SITE_CONFIG_ELEMENT_ID = 'ferry-site-config';

/** Without the element (dev server, tests) or with one that cannot be read: no banner, not the main domain. */
export const NO_SITE_CONFIG: Readonly<SiteConfig> = Object.freeze({
  madeInCountry: '',
  mainDomain: false,
  ownHost: false,
});

/** The settings in `text` (the element's JSON); anything missing or malformed reads as NO_SITE_CONFIG's. */
export function parseSiteConfig(text: string | null | undefined): SiteConfig {
  if (!text) return { ...NO_SITE_CONFIG };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...NO_SITE_CONFIG };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ...NO_SITE_CONFIG };
  const { madeInCountry, mainDomain, ownHost, homeOrigin, sessionCookie } = value as Record<string, unknown>;
  const country = typeof madeInCountry === 'string' ? madeInCountry.trim().toUpperCase() : '';
  return {
    // ZZ is ISO's "unknown region": no country to name.
    madeInCountry: /^[A-Z]{2}$/.test(country) && country !== 'ZZ' ? country : '',
    mainDomain: mainDomain === true,
    ownHost: ownHost === true,
    ...(typeof homeOrigin === 'string' && /^https?:\/\/[^/]+$/.test(homeOrigin) ? { homeOrigin } : {}),
    ...(typeof sessionCookie === 'boolean' ? { sessionCookie } : {}),
  };
}

/** Reads the page's site settings (each call reads the element again: it is tiny). */
export function readSiteConfig(doc: Document | undefined = globalThis.document): SiteConfig {
  return parseSiteConfig(doc?.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent);
}
