import { isWebRoute } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PRODUCT_NAME } from '../../lib/config';

/**
 * `/dashboard/*` without a page: a spec route that is not built yet says so; any other path is not found.
 * Both lead back to the overview.
 */
export function ComingPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // A spec route of core's table (the router sends only those not built yet here); any other is not found.
  const known = isWebRoute(pathname);
  const title = known ? t('account:dashboard.coming_title') : t('common:not_found_title');
  return (
    <section
      className="panel dashboard-card"
      aria-labelledby="coming-title"
      data-testid={known ? 'page-dashboard-coming' : 'page-dashboard-not-found'}
    >
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <h1 id="coming-title" className="panel-title">
        {title}
      </h1>
      <p className="muted">{known ? t('account:dashboard.coming_text') : t('common:not_found_text')}</p>
      <p>
        <Link to="/dashboard" className="button button-secondary">
          {t('account:dashboard.back_to_overview')}
        </Link>
      </p>
    </section>
  );
}
