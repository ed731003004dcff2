import type { InboxView } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { PRODUCT_NAME } from '../../lib/config';
import { InboxFacts } from './inbox-facts';
import { InboxSwitch } from './inbox-switch';
import { INBOXES_PATH } from './paths';
import { useInboxList } from './use-inboxes';
import './inboxes.css';

function InboxCard({ inbox }: { inbox: InboxView }) {
  return (
    <li className="panel dashboard-card inbox-card" data-testid="inbox-row" data-inbox-id={inbox.inboxId}>
      <div className="inbox-card-head">
        <h2 className="inbox-card-title">
          <Link to={`${INBOXES_PATH}/${inbox.inboxId}`} data-testid="inbox-link">
            {inbox.title}
          </Link>
        </h2>
        <InboxSwitch inbox={inbox} testId="inbox-switch" />
      </div>
      <InboxFacts inbox={inbox} />
    </li>
  );
}

/**
 * `/dashboard/admin/inboxes`: the user's upload inboxes (title, address with copy, on/off, upload count,
 * default mark) and "New inbox" — or why there is none when the (team's) settings turn inboxes off.
 */
export function InboxListPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const query = useInboxList();
  const data = query.data;
  const allowed = data?.inboxUpload.allowed ?? false;
  return (
    <div className="dashboard-page inboxes-page" data-testid="page-inboxes">
      <title>{`${t('account:dashboard.menu_inboxes')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header inboxes-header">
        <div>
          <h1 className="panel-title">{t('account:dashboard.menu_inboxes')}</h1>
          <p className="muted">{t('account:inboxes.intro')}</p>
        </div>
        {allowed && (
          <Link to={`${INBOXES_PATH}/new`} className="button button-primary" data-testid="inbox-new">
            {t('account:inboxes.new')}
          </Link>
        )}
      </header>
      {query.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="inboxes-loading">
          {t('account:loading')}
        </p>
      )}
      {query.error && (
        <div className="notice notice-error" role="alert" data-testid="inboxes-error">
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
      {data && !allowed && (
        <p className="notice notice-warn" data-testid="inboxes-not-allowed">
          {t('account:inboxes.not_allowed')}
        </p>
      )}
      {data && data.items.length === 0 && allowed && (
        <div className="panel dashboard-card" data-testid="inboxes-empty">
          <p>{t('account:inboxes.empty')}</p>
        </div>
      )}
      {data && data.items.length > 0 && (
        <ul className="inbox-cards" aria-label={t('account:dashboard.menu_inboxes')} data-testid="inbox-list">
          {data.items.map((inbox) => (
            <InboxCard key={inbox.inboxId} inbox={inbox} />
          ))}
        </ul>
      )}
    </div>
  );
}
