import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDateTime, formatSize, intlLocale } from '../../lib/format';
import { listOperatorActions, operatorFigures } from '../../lib/operator-api';
import { operatorKeys } from './operator-keys';

/** The instance in numbers: accounts (paying, suspended), stored transfers and bytes, bytes served in 7 days. */
export function FiguresSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describe = useDescribeError();
  const figures = useQuery({
    queryKey: operatorKeys.figures,
    queryFn: ({ signal }) => operatorFigures(signal),
  });
  const count = (n: number) => new Intl.NumberFormat(intlLocale(i18n.language)).format(n);
  const f = figures.data;
  return (
    <section aria-labelledby={`${id}-title`} data-testid="operator-figures">
      <h2 id={`${id}-title`} className="operator-title">
        {t('operator:figures_title')}
      </h2>
      {figures.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {figures.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(figures.error)}
        </p>
      )}
      {f && (
        <dl className="operator-figures">
          {(
            [
              ['accounts', count(f.accounts)],
              ['paying_accounts', count(f.payingAccounts)],
              ['suspended_accounts', count(f.suspendedAccounts)],
              ['transfers', count(f.transfers)],
              ['bytes_stored', formatSize(f.bytesStored, i18n.language)],
              ['bytes_served', formatSize(f.bytesServed7Days, i18n.language)],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className="operator-figure" data-testid={`operator-figure-${key}`}>
              <dt>{t(`operator:figure_${key}`)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** What operators did, newest first: when, who, what, on what, and the change's details. */
export function JournalSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describe = useDescribeError();
  const list = useInfiniteQuery({
    queryKey: operatorKeys.actions,
    queryFn: ({ pageParam, signal }) => listOperatorActions(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const actions = list.data?.pages.flatMap((p) => p.actions) ?? [];
  return (
    <section aria-labelledby={`${id}-title`} data-testid="operator-journal">
      <h2 id={`${id}-title`} className="operator-title">
        {t('operator:journal_title')}
      </h2>
      {list.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {list.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(list.error)}
        </p>
      )}
      {list.isSuccess && actions.length === 0 && <p>{t('operator:journal_empty')}</p>}
      {actions.length > 0 && (
        <ol className="operator-journal">
          {actions.map((a) => (
            <li key={a.id} data-testid="operator-action">
              <time dateTime={a.at}>{formatDateTime(a.at, i18n.language)}</time>{' '}
              {t('operator:journal_line', {
                operator: a.operator,
                action: a.action,
                target: a.target ?? '–',
              })}
              {Object.keys(a.details).length > 0 && (
                <code className="operator-details">{JSON.stringify(a.details)}</code>
              )}
            </li>
          ))}
        </ol>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button button-secondary operator-more"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('operator:more')}
        </button>
      )}
    </section>
  );
}
