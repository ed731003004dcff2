import { TRANSFER_TYPES, type TransferListQuery } from '@ferry/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listTransfers, TRANSFERS_QUERY_KEY } from '../../../lib/dashboard-api';
import { storageShare } from '../overview-page';
import { PageFrame } from '../page-frame';
import { STATUS_FILTERS } from './transfer-labels';
import { TransferListResults } from './transfer-list-results';
import { useDebouncedValue } from './use-debounced-value';
import './transfers.css';
import { formatSize } from '../../../lib/format';

/** How long typing must pause before the search asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

const SORTS = ['createdAt:desc', 'createdAt:asc', 'expiresAt:asc', 'name:asc', 'size:desc'] as const;
type SortChoice = (typeof SORTS)[number];

interface Filters {
  direction: 'sent' | 'received';
  type: string;
  status: string;
  sort: SortChoice;
}

function toQuery(filters: Filters, q: string): TransferListQuery {
  const [sort, dir] = filters.sort.split(':') as [TransferListQuery['sort'], TransferListQuery['dir']];
  return {
    q: q.trim() || undefined,
    direction: filters.direction,
    type: (filters.type || undefined) as TransferListQuery['type'],
    status: filters.status ? STATUS_FILTERS.get(filters.status) : undefined,
    sort,
    dir,
  };
}

function Select(props: {
  label: string;
  value: string;
  testId: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        data-testid={props.testId}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** `/dashboard/transfers`: the user's sent and received transfers, searchable, filtered, sorted, page by page. */
export function TransferListPage() {
  const { t, i18n } = useTranslation();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [filters, setFilters] = useState<Filters>({
    direction: 'sent',
    type: '',
    status: '',
    sort: 'createdAt:desc',
  });
  const query = toQuery(filters, q);
  const list = useInfiniteQuery({
    queryKey: [TRANSFERS_QUERY_KEY, 'list', query],
    queryFn: ({ pageParam, signal }) => listTransfers({ ...query, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const set = (patch: Partial<Filters>) => setFilters((current) => ({ ...current, ...patch }));
  const first = list.data?.pages[0];
  const all = { value: '', label: t('account:transfers.filter_all') };

  return (
    <PageFrame
      title={t('account:transfers.title')}
      testId="page-transfers"
      className="transfers-page"
      card
      intro={
        <>
          {first && (
            <p className="transfers-storage" data-testid="transfers-storage">
              {t('account:dashboard.storage_used', {
                used: formatSize(first.storage.used, i18n.language),
                limit: formatSize(first.storage.limit, i18n.language),
              })}
              <meter
                className="visually-hidden"
                min={0}
                max={100}
                value={storageShare(first.storage.used, first.storage.limit)}
                aria-label={t('account:dashboard.storage_title')}
              />
            </p>
          )}
          <fieldset className="transfers-direction">
            <legend className="visually-hidden">{t('account:transfers.direction')}</legend>
            {(['sent', 'received'] as const).map((direction) => (
              <button
                key={direction}
                type="button"
                className="button button-secondary button-small"
                aria-pressed={filters.direction === direction}
                data-testid={`direction-${direction}`}
                onClick={() => set({ direction })}
              >
                {t(`account:transfers.direction_${direction}`)}
              </button>
            ))}
          </fieldset>
          <div className="transfers-filters">
            <div className="field">
              <label htmlFor={searchId}>{t('account:transfers.search')}</label>
              <input
                id={searchId}
                type="search"
                value={search}
                maxLength={200}
                placeholder={t('account:transfers.search_hint')}
                data-testid="transfers-search"
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
            <Select
              label={t('account:transfers.filter_type')}
              value={filters.type}
              testId="filter-type"
              options={[
                all,
                ...TRANSFER_TYPES.map((v) => ({ value: v, label: t(`account:transfers.type_${v}`) })),
              ]}
              onChange={(type) => set({ type })}
            />
            <Select
              label={t('account:transfers.filter_status')}
              value={filters.status}
              testId="filter-status"
              options={[
                all,
                ...[...STATUS_FILTERS.keys()].map((v) => ({
                  value: v,
                  label: t(`account:transfers.status_${v}`),
                })),
              ]}
              onChange={(status) => set({ status })}
            />
            <Select
              label={t('account:transfers.sort')}
              value={filters.sort}
              testId="transfers-sort"
              options={SORTS.map((v) => ({
                value: v,
                label: t(`account:transfers.sort_${v.replace(':', '_')}`),
              }))}
              onChange={(sort) => set({ sort: sort as SortChoice })}
            />
          </div>
        </>
      }
      loading={list.isPending}
      loadingTestId="transfers-loading"
      error={list.error}
      errorTestId="transfers-error"
      onRetry={() => void list.refetch()}
      noAccessNotice={false}
    >
      <TransferListResults
        list={list}
        testId="transfers"
        emptyText={
          q || filters.type || filters.status
            ? t('account:transfers.empty_filtered')
            : t(`account:transfers.empty_${filters.direction}`)
        }
      />
    </PageFrame>
  );
}
