import type { TeamTransferListItem, TeamTransferListQuery } from '@ferry/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { listTeamMembers } from '../../lib/team-api';
import { useAuth } from '../auth/auth-context';
import { PageFrame } from '../dashboard/page-frame';
import { STATUS_FILTERS } from '../dashboard/transfers/transfer-labels';
import { SEARCH_DEBOUNCE_MS } from '../dashboard/transfers/transfer-list-page';
import { TransferListResults } from '../dashboard/transfers/transfer-list-results';
import { useDebouncedValue } from '../dashboard/transfers/use-debounced-value';
import { listTeamTransfers } from './team-api';
import { teamIdOf } from './transfer-policy-page';
import '../dashboard/transfers/transfers.css';

/** The query key of the team's transfer list (an action on a transfer's detail page refreshes it). */
export const TEAM_TRANSFERS_QUERY_KEY = 'team-transfers';

interface Member {
  uid: string;
  email: string;
}

/**
 * Whom the member filter offers: the team's accounts from the members API (the manager and USER_MANAGER members
 * read it); for a transfer manager without USER_MANAGER, who may not, the owners of the transfers loaded so far.
 */
function useMembers(teamId: string, items: TeamTransferListItem[]): Member[] {
  const members = useQuery({
    queryKey: ['team-members', teamId],
    queryFn: ({ signal }) => listTeamMembers(teamId, signal),
    enabled: teamId !== '',
    retry: false,
  });
  // Kept across filters: choosing one member must not take the others out of the list.
  const [seen, setSeen] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    setSeen((current) =>
      items.every((i) => current.has(i.ownerUid))
        ? current
        : new Map([...current, ...items.map((i) => [i.ownerUid, i.ownerEmail] as const)]),
    );
  }, [items]);
  if (members.data)
    return members.data.members.flatMap((m) => (m.uid ? [{ uid: m.uid, email: m.email }] : []));
  return [...seen].map(([uid, email]) => ({ uid, email })).sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * `/dashboard/admin/transfers`: every transfer of the team (spec §2), for its manager and transfer managers,
 * searchable and filtered by member and status, page by page. Each row opens the transfer's dashboard page, whose
 * actions they may use and whose downloads carry the admin-dashboard flag.
 */
export function TeamTransfersPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const teamId = teamIdOf(state);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [member, setMember] = useState('');
  const [status, setStatus] = useState('');
  const query: TeamTransferListQuery = {
    q: q.trim() || undefined,
    member: member || undefined,
    status: status ? STATUS_FILTERS.get(status) : undefined,
  };
  const list = useInfiniteQuery({
    queryKey: [TEAM_TRANSFERS_QUERY_KEY, teamId, query],
    queryFn: ({ pageParam, signal }) => listTeamTransfers(teamId, { ...query, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: teamId !== '',
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const members = useMembers(teamId, items);

  return (
    <PageFrame
      title={t('teamPolicies:adminTransfers.title')}
      testId="page-admin-transfers"
      className="transfers-page"
      card
      intro={
        <>
          <p className="muted">{t('teamPolicies:adminTransfers.intro')}</p>
          <div className="transfers-filters">
            <LabelledField label={t('account:transfers.search')}>
              {(p) => (
                <input
                  {...p}
                  type="search"
                  value={search}
                  maxLength={200}
                  placeholder={t('account:transfers.search_hint')}
                  data-testid="admin-transfers-search"
                  onChange={(event) => setSearch(event.target.value)}
                />
              )}
            </LabelledField>
            <LabelledField label={t('teamPolicies:adminTransfers.member')}>
              {(p) => (
                <select
                  {...p}
                  value={member}
                  data-testid="admin-transfers-member"
                  onChange={(event) => setMember(event.target.value)}
                >
                  <option value="">{t('teamPolicies:adminTransfers.all_members')}</option>
                  {members.map((m) => (
                    <option key={m.uid} value={m.uid}>
                      {m.email}
                    </option>
                  ))}
                </select>
              )}
            </LabelledField>
            <LabelledField label={t('account:transfers.filter_status')}>
              {(p) => (
                <select
                  {...p}
                  value={status}
                  data-testid="admin-transfers-status"
                  onChange={(event) => setStatus(event.target.value)}
                >
                  <option value="">{t('account:transfers.filter_all')}</option>
                  {[...STATUS_FILTERS.keys()].map((v) => (
                    <option key={v} value={v}>
                      {t(`account:transfers.status_${v}`)}
                    </option>
                  ))}
                </select>
              )}
            </LabelledField>
          </div>
        </>
      }
      loading={list.isPending && teamId !== ''}
      loadingTestId="admin-transfers-loading"
      error={list.error}
      errorTestId="admin-transfers-error"
      onRetry={() => void list.refetch()}
      noAccessNotice={false}
    >
      <TransferListResults
        list={list}
        team
        testId="admin-transfers"
        emptyText={
          q || member || status
            ? t('account:transfers.empty_filtered')
            : t('teamPolicies:adminTransfers.empty')
        }
      />
    </PageFrame>
  );
}
