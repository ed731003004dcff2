import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDate, formatSize } from '../../lib/format';
import { listOperatorUsers } from '../../lib/operator-api';
import { operatorKeys } from './operator-keys';
import { stateOf, UserDetail } from './user-detail';

/** Accounts found by address or first name (`?q=`), page after page; one opens in detail (`?user=<uid>`). */
export function UsersSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describe = useDescribeError();
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const selected = params.get('user');
  const [typed, setTyped] = useState(search);
  const list = useInfiniteQuery({
    queryKey: operatorKeys.users(search),
    queryFn: ({ pageParam, signal }) => listOperatorUsers({ search, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const users = list.data?.pages.flatMap((p) => p.users) ?? [];

  const set = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: typed.trim() || null, user: null });
  };

  return (
    <section aria-labelledby={`${id}-title`} data-testid="operator-users">
      <h2 id={`${id}-title`} className="operator-title">
        {t('operator:users_title')}
      </h2>
      {selected && <UserDetail uid={selected} onClose={() => set({ user: null })} />}
      <form className="operator-search" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-search`}>{t('operator:search_label')}</label>
          <input
            id={`${id}-search`}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            data-testid="operator-search"
          />
        </div>
        <button type="submit" className="button button-primary" data-testid="operator-search-submit">
          {t('operator:search')}
        </button>
      </form>
      {list.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(list.error)}
        </p>
      )}
      {list.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {list.isSuccess && users.length === 0 && (
        <p data-testid="operator-users-empty">{t('operator:users_empty')}</p>
      )}
      {users.length > 0 && (
        <div className="operator-table-scroll">
          <table className="operator-table" data-testid="operator-users-table">
            <thead>
              <tr>
                <th scope="col">{t('operator:col_email')}</th>
                <th scope="col">{t('operator:col_plan')}</th>
                <th scope="col">{t('operator:col_ends')}</th>
                <th scope="col">{t('operator:col_storage')}</th>
                <th scope="col">{t('operator:col_last_signin')}</th>
                <th scope="col">{t('operator:col_state')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.uid} data-testid="operator-user-row">
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button"
                      aria-current={u.uid === selected || undefined}
                      onClick={() => set({ user: u.uid })}
                      data-testid="operator-user-open"
                    >
                      {u.email}
                    </button>
                    {u.firstname && <span className="muted"> {u.firstname}</span>}
                  </th>
                  <td>
                    {t(`auth:plan_${u.planType}`)}
                    {u.planCode && u.planCode !== u.planType ? ` (${u.planCode})` : ''}
                  </td>
                  <td>{u.planEndsAt ? formatDate(u.planEndsAt, i18n.language) : '–'}</td>
                  <td>{formatSize(u.storageUsed, i18n.language)}</td>
                  <td>{u.lastLoginAt ? formatDate(u.lastLoginAt, i18n.language) : t('operator:never')}</td>
                  <td>{stateOf(u, t)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button button-secondary operator-more"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
          data-testid="operator-users-more"
        >
          {t('operator:more')}
        </button>
      )}
    </section>
  );
}
