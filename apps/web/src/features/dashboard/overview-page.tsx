import { GB, isPayingPlan, type Limits } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { usePlanLimits } from '../../hooks/use-plan-limits';
import { useUserState } from '../../hooks/use-user-state';
import { PRODUCT_NAME } from '../../lib/config';
import { formatPercent, formatSize } from '../../lib/format';
import { getLimits } from '../../lib/transfer-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { hasDashboardPage } from './dashboard-pages';

/** Share of the storage in use, 0–100 (a full or over-full storage shows 100). */
export function storageShare(used: number, limit: number): number {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, (used / limit) * 100));
}

function StorageMeter({ limits, team }: { limits: Limits; team: boolean }) {
  const { t, i18n } = useTranslation();
  const share = storageShare(limits.storageUsed, limits.storage);
  const text = t('account:dashboard.storage_used', {
    used: formatSize(limits.storageUsed, i18n.language),
    limit: formatSize(limits.storage, i18n.language),
  });
  return (
    <div className="storage" data-testid="storage">
      <p className="storage-figures">
        <span data-testid="storage-text">{text}</span>
        <span className="muted">{formatPercent(share, i18n.language)}</span>
      </p>
      <meter
        className="visually-hidden"
        min={0}
        max={100}
        high={90}
        value={share}
        aria-label={t('account:dashboard.storage_title')}
        aria-valuetext={text}
        data-testid="storage-meter"
      />
      <div className="storage-bar" aria-hidden="true" data-level={share >= 90 ? 'high' : 'ok'}>
        <span style={{ width: `${share}%` }} />
      </div>
      {team && <p className="field-hint">{t('account:dashboard.storage_team')}</p>}
      {share >= 100 && (
        <p className="notice notice-warn" data-testid="storage-full">
          {t('account:dashboard.storage_full')}
        </p>
      )}
    </div>
  );
}

/** Storage used against the plan's limit: GET /transfer/limits/{id} for paying users, the free plan otherwise. */
function StorageCard() {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const uid = state.user?.uid ?? null;
  const paying = uid !== null && isPayingPlan(state.planType);
  const owner = state.managerId ?? uid ?? '';
  // The key and call of usePlanLimits: one request for the uploader and this page.
  const query = useQuery({
    queryKey: [ACCOUNT_QUERY_KEY, uid, 'limits', owner],
    queryFn: ({ signal }) => getLimits(owner, signal),
    enabled: paying,
    staleTime: 5 * 60_000,
  });
  const { limits } = usePlanLimits();
  return (
    <section className="panel dashboard-card" aria-labelledby="storage-title">
      <h2 id="storage-title" className="section-title">
        {t('account:dashboard.storage_title')}
      </h2>
      {!paying && (
        <p data-testid="storage-free">
          {t('account:dashboard.storage_free', { limit: formatSize(limits.storageGB * GB, i18n.language) })}
        </p>
      )}
      {paying && query.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="storage-loading">
          {t('account:loading')}
        </p>
      )}
      {paying && query.error && (
        <div className="notice notice-error" role="alert" data-testid="storage-error">
          <p>{describe(query.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void query.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {paying && query.data && <StorageMeter limits={query.data} team={state.managerId !== null} />}
      <dl className="facts">
        <div>
          <dt>{t('account:dashboard.fact_validity')}</dt>
          <dd data-testid="fact-validity">
            {t('account:dashboard.fact_days', { count: limits.fileValidityInDays })}
          </dd>
        </div>
        <div>
          <dt>{t('account:dashboard.fact_upload')}</dt>
          <dd>{formatSize(limits.uploadSizeGB * GB, i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('account:dashboard.fact_recipients')}</dt>
          <dd>{limits.recipients}</dd>
        </div>
      </dl>
    </section>
  );
}

/** `/dashboard`: a greeting, the plan, the storage in use, and the way to the dashboard's pages. */
export function OverviewPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const { displayName } = useUserState();
  const user = state.user;
  if (!user) return null;
  const links = [
    { path: '/dashboard/transfers', label: t('account:dashboard.menu_transfers') },
    { path: '/dashboard/settings', label: t('account:dashboard.menu_settings') },
  ];
  return (
    <div className="dashboard-page" data-testid="page-dashboard">
      <title>{`${t('account:dashboard_title')} · ${PRODUCT_NAME}`}</title>
      <section className="panel dashboard-card" aria-labelledby="dashboard-title">
        <h1 id="dashboard-title" className="panel-title" data-testid="dashboard-greeting">
          {displayName
            ? t('account:dashboard.greeting', { name: displayName })
            : t('account:dashboard.greeting_anonymous')}
        </h1>
        <p className="muted">
          {t('account:dashboard.signed_in_as', { email: user.email })}{' '}
          <span className="plan-badge" data-plan={state.planType} data-testid="dashboard-plan">
            {t(`auth:plan_${state.planType}`)}
          </span>
        </p>
        <ul className="dashboard-links">
          {links.map((link) => (
            <li key={link.path}>
              {hasDashboardPage(link.path) ? (
                <Link to={link.path} className="button button-secondary">
                  {link.label}
                </Link>
              ) : (
                <span className="button button-secondary is-coming" aria-disabled="true">
                  {link.label} <span className="badge">{t('account:dashboard.menu_soon')}</span>
                </span>
              )}
            </li>
          ))}
          <li>
            <Link to="/account/profile" className="button button-secondary">
              {t('auth:menu_account')}
            </Link>
          </li>
        </ul>
      </section>
      <StorageCard />
    </div>
  );
}
