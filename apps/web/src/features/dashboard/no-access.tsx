import { mayUseDashboardPage, menuViewerOf } from '@ferry/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { useAuth } from '../auth/auth-context';

/** A refusal of the server for this page's data: 403 FORBIDDEN (the session's permissions were out of date). */
export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/** The short "no access" notice, for a page whose data the server refused. */
export function NoAccessNotice() {
  const { t } = useTranslation();
  return (
    <div className="notice notice-warn" role="alert" data-testid="no-access">
      <p>{t('account:dashboard.no_access_text')}</p>
    </div>
  );
}

/**
 * A dashboard page the user may not use (spec §6: a team administration page without the permission it needs,
 * or without a team): says so in the user's language, and leads back to the overview.
 */
export function NoAccessPage() {
  const { t } = useTranslation();
  const title = t('account:dashboard.no_access_title');
  return (
    <section className="panel dashboard-card" aria-labelledby="no-access-title" data-testid="page-no-access">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <h1 id="no-access-title" className="panel-title">
        {title}
      </h1>
      <p className="muted">{t('account:dashboard.no_access_text')}</p>
      <p>
        <Link to="/dashboard" className="button button-secondary">
          {t('account:dashboard.back_to_overview')}
        </Link>
      </p>
    </section>
  );
}

/**
 * The dashboard page at the current path, or NoAccessPage when the signed-in user may not use it (core's
 * mayUseDashboardPage, the rule the menu hides entries by): the page never asks the server for what it would
 * refuse.
 */
export function DashboardAccess({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const { pathname } = useLocation();
  if (!mayUseDashboardPage(pathname, menuViewerOf(state))) return <NoAccessPage />;
  return children;
}
