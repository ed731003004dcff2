import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { operatorMe } from '../../lib/operator-api';
import NotFoundRoute from '../../routes/not-found.route';
import { InvoicesSection, SubscriptionsSection } from './billing-sections';
import { ModerationSection } from './moderation-section';
import { operatorKeys } from './operator-keys';
import { FiguresSection, JournalSection } from './overview-sections';
import { UsersSection } from './users-section';
import './operator.css';

export const OPERATOR_TABS = [
  'users',
  'moderation',
  'subscriptions',
  'invoices',
  'figures',
  'journal',
] as const;
type Tab = (typeof OPERATOR_TABS)[number];

/**
 * `/operator`: the console of the people who run this Ferry (OPERATOR_EMAILS). One section at a time, chosen by
 * `?tab=`. To anyone else it is the not-found page, as the API's 404 says.
 */
export function OperatorPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const [params] = useSearchParams();
  const me = useQuery({
    queryKey: operatorKeys.me,
    queryFn: ({ signal }) => operatorMe(signal),
    retry: false,
  });
  const wanted = params.get('tab');
  const tab: Tab = (OPERATOR_TABS as readonly string[]).includes(wanted ?? '') ? (wanted as Tab) : 'users';

  if (me.isPending)
    return (
      <div className="page-center" aria-busy="true">
        <p className="muted">{t('operator:loading')}</p>
      </div>
    );
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.status === 404) return <NotFoundRoute />;
    return (
      <div className="page-center">
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(me.error)}
        </p>
      </div>
    );
  }

  return (
    <div className="operator-page panel" data-testid="operator-page">
      <h1 className="panel-title">{t('operator:title')}</h1>
      <p className="muted">{t('operator:signed_in_as', { email: me.data.email })}</p>
      <nav className="operator-tabs" aria-label={t('operator:sections')}>
        <ul>
          {OPERATOR_TABS.map((name) => (
            <li key={name}>
              <Link
                to={`?tab=${name}`}
                aria-current={name === tab ? 'page' : undefined}
                className="operator-tab"
                data-testid={`operator-tab-${name}`}
              >
                {t(`operator:tab_${name}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'users' && <UsersSection />}
      {tab === 'moderation' && <ModerationSection />}
      {tab === 'subscriptions' && <SubscriptionsSection />}
      {tab === 'invoices' && <InvoicesSection />}
      {tab === 'figures' && <FiguresSection />}
      {tab === 'journal' && <JournalSection />}
    </div>
  );
}
