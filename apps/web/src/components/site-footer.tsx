import { withLocalePrefix } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../lib/config';

/**
 * The pages of the public site (spec §2), rendered by the server outside the app's router: plain links, under
 * the page's language prefix (/fr/terms). Labels are written out so locales.test.ts sees every key.
 */
export const SITE_FOOTER_LINKS = [
  { path: '/features', label: 'common:footer_features' },
  { path: '/how-to', label: 'common:footer_how_to' },
  { path: '/support', label: 'common:footer_support' },
  { path: '/about', label: 'common:footer_about' },
  { path: '/terms', label: 'common:footer_terms' },
  { path: '/privacy-gdpr', label: 'common:footer_privacy' },
  { path: '/cookies', label: 'common:footer_cookies' },
  { path: '/legal', label: 'common:footer_legal' },
] as const;

/** The footer of the app's frame: the site's pages, the prices (an app page) and the copyright line. */
export function SiteFooter() {
  const { t, i18n } = useTranslation();
  return (
    <footer className="app-footer">
      <nav className="footer-nav" aria-label={t('common:footer_nav', { product: PRODUCT_NAME })}>
        <ul className="footer-links">
          {SITE_FOOTER_LINKS.map(({ path, label }) => (
            <li key={path}>
              <a href={withLocalePrefix(path, i18n.language)} data-testid={`footer-link-${path.slice(1)}`}>
                {t(label)}
              </a>
            </li>
          ))}
          <li>
            <Link to="/prices" data-testid="footer-prices">
              {t('billing:prices_title')}
            </Link>
          </li>
          <li>
            {/* Opens the server-drawn consent widget (site.js listens for [data-consent-open] on every page). */}
            <button
              type="button"
              className="footer-button"
              data-consent-open
              data-testid="footer-cookie-settings"
            >
              {t('common:footer_cookie_settings')}
            </button>
          </li>
        </ul>
      </nav>
      <p className="footer-copyright">
        {t('common:footer', { product: PRODUCT_NAME, year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
