import {
  SECURITY_ACTIONS,
  SECURITY_LOG_RETENTION_DAYS,
  type SecurityAction,
  type SecurityLogEntry,
} from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { intlLocale } from '../../lib/format';
import {
  getSecurityLogSettings,
  listSecurityLogs,
  putSecurityLogSettings,
  type SecurityLogFilters,
  securityLogExportUrl,
} from '../../lib/security-log-api';
import { useAuth } from '../auth/auth-context';
import './security-log.css';

const PAGE_SIZE = 50;

interface FormState {
  member: string;
  action: SecurityAction | '';
  from: string;
  to: string;
  q: string;
}
const EMPTY_FORM: FormState = { member: '', action: '', from: '', to: '', q: '' };

function filtersOf(form: FormState): SecurityLogFilters {
  return {
    member: form.member || undefined,
    action: form.action || undefined,
    from: form.from || undefined,
    to: form.to || undefined,
    q: form.q.trim() || undefined,
  };
}

function Retention({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: ['security-log-settings', teamId],
    queryFn: ({ signal }) => getSecurityLogSettings(teamId, signal),
  });
  const [days, setDays] = useState('');
  useEffect(() => {
    if (settings.data) setDays(String(settings.data.retentionDays));
  }, [settings.data]);
  const save = useMutation({
    mutationFn: (retentionDays: number) => putSecurityLogSettings(teamId, { retentionDays }),
    onSuccess: (data) => client.setQueryData(['security-log-settings', teamId], data),
  });
  const value = Number(days);
  const valid =
    /^\d+$/.test(days) &&
    value >= SECURITY_LOG_RETENTION_DAYS.min &&
    value <= SECURITY_LOG_RETENTION_DAYS.max;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) save.mutate(value);
  };
  return (
    <section className="panel dashboard-card" aria-labelledby="security-log-retention">
      <h2 id="security-log-retention">{t('securitylog:retention')}</h2>
      <form className="security-log-retention" onSubmit={submit} data-testid="security-log-retention">
        <LabelledField
          label={t('securitylog:retention_label')}
          hint={t('securitylog:retention_hint')}
          error={save.error ? describe(save.error) : null}
        >
          {(p) => (
            <input
              {...p}
              type="number"
              inputMode="numeric"
              min={SECURITY_LOG_RETENTION_DAYS.min}
              max={SECURITY_LOG_RETENTION_DAYS.max}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              data-testid="security-log-retention-days"
            />
          )}
        </LabelledField>
        <button
          type="submit"
          className="button button-secondary"
          disabled={!valid || save.isPending || !settings.data}
          data-testid="security-log-retention-save"
        >
          {t('securitylog:retention_save')}
        </button>
        {save.isSuccess && (
          <p role="status" className="muted" data-testid="security-log-retention-saved">
            {t('securitylog:retention_saved')}
          </p>
        )}
      </form>
    </section>
  );
}

function EntryRow({ entry }: { entry: SecurityLogEntry }) {
  const { t, i18n } = useTranslation();
  const at = new Date(entry.at);
  return (
    <tr data-testid="security-log-row" data-action={entry.action}>
      <td>
        <time dateTime={entry.at}>
          {at.toLocaleString(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'medium' })}
        </time>
      </td>
      <td>{entry.actor ?? t('securitylog:unknown_actor')}</td>
      <td>{t(`securitylog:actions.${entry.action}`)}</td>
      <td>{entry.ip ?? '–'}</td>
      <td className="security-log-device">{entry.userAgent ?? '–'}</td>
      <td>{entry.target ?? '–'}</td>
    </tr>
  );
}

/**
 * `/dashboard/admin/security-logs`: the team's security log (filters by member, action and dates, search, pages
 * of 50, CSV and JSON export) and its retention. For the team's manager and USER_MANAGER members.
 */
export function SecurityLogPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const teamId = state.managerId ?? state.user?.uid ?? '';
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const [filters, setFilters] = useState<SecurityLogFilters>({});
  /** The cursors of the pages before the one shown (the first page has none). */
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const list = useQuery({
    queryKey: ['security-logs', teamId, filters, cursor ?? null],
    queryFn: ({ signal }) => listSecurityLogs(teamId, { ...filters, cursor, limit: PAGE_SIZE }, signal),
    enabled: teamId !== '',
    retry: false,
  });
  // Members to filter on: the accounts seen acting in the log (a team member is named by their address).
  const [members, setMembers] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    const seen = list.data?.entries.filter((e) => e.actorUserId && e.actor) ?? [];
    if (seen.some((e) => !members.has(e.actorUserId!)))
      setMembers((known) => {
        const next = new Map(known);
        for (const e of seen) next.set(e.actorUserId!, e.actor!);
        return next;
      });
  }, [list.data, members]);
  const memberOptions = useMemo(
    () => [...members.entries()].sort((a, b) => a[1].localeCompare(b[1])),
    [members],
  );
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(filtersOf(form));
    setCursors([]);
  };
  const clear = () => {
    setForm(EMPTY_FORM);
    setFilters({});
    setCursors([]);
  };
  const forbidden = list.error instanceof ApiError && list.error.status === 404;
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  return (
    <div className="dashboard-page security-log-page" data-testid="page-security-logs">
      <title>{`${t('securitylog:title')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('securitylog:title')}</h1>
        <p className="muted">{t('securitylog:intro')}</p>
      </header>
      {forbidden ? (
        <p className="notice notice-warn" data-testid="security-log-not-allowed">
          {t('securitylog:not_allowed')}
        </p>
      ) : (
        <>
          <form
            className="panel dashboard-card security-log-filters"
            onSubmit={apply}
            aria-label={t('securitylog:filters')}
            data-testid="security-log-filters"
          >
            <LabelledField label={t('securitylog:member')}>
              {(p) => (
                <select
                  {...p}
                  value={form.member}
                  onChange={(e) => set('member')(e.target.value)}
                  data-testid="security-log-member"
                >
                  <option value="">{t('securitylog:member_all')}</option>
                  {memberOptions.map(([uid, email]) => (
                    <option key={uid} value={uid}>
                      {email}
                    </option>
                  ))}
                </select>
              )}
            </LabelledField>
            <LabelledField label={t('securitylog:action')}>
              {(p) => (
                <select
                  {...p}
                  value={form.action}
                  onChange={(e) => set('action')(e.target.value as SecurityAction | '')}
                  data-testid="security-log-action"
                >
                  <option value="">{t('securitylog:action_all')}</option>
                  {SECURITY_ACTIONS.map((a) => (
                    <option key={a} value={a}>
                      {t(`securitylog:actions.${a}`)}
                    </option>
                  ))}
                </select>
              )}
            </LabelledField>
            <LabelledField label={t('securitylog:from')}>
              {(p) => (
                <input
                  {...p}
                  type="date"
                  value={form.from}
                  onChange={(e) => set('from')(e.target.value)}
                  data-testid="security-log-from"
                />
              )}
            </LabelledField>
            <LabelledField label={t('securitylog:to')}>
              {(p) => (
                <input
                  {...p}
                  type="date"
                  value={form.to}
                  onChange={(e) => set('to')(e.target.value)}
                  data-testid="security-log-to"
                />
              )}
            </LabelledField>
            <LabelledField label={t('securitylog:search')} hint={t('securitylog:search_hint')}>
              {(p) => (
                <input
                  {...p}
                  type="search"
                  maxLength={200}
                  value={form.q}
                  onChange={(e) => set('q')(e.target.value)}
                  data-testid="security-log-search"
                />
              )}
            </LabelledField>
            <div className="security-log-buttons">
              <button type="submit" className="button button-primary" data-testid="security-log-apply">
                {t('securitylog:apply')}
              </button>
              <button type="button" className="button button-secondary" onClick={clear}>
                {t('securitylog:reset')}
              </button>
              <a
                className="button button-secondary"
                href={securityLogExportUrl(teamId, filters, 'csv')}
                download
                data-testid="security-log-export-csv"
              >
                {t('securitylog:export_csv')}
              </a>
              <a
                className="button button-secondary"
                href={securityLogExportUrl(teamId, filters, 'json')}
                download
                data-testid="security-log-export-json"
              >
                {t('securitylog:export_json')}
              </a>
            </div>
          </form>
          {list.isPending && teamId !== '' && (
            <p className="muted" role="status" aria-busy="true">
              {t('securitylog:loading')}
            </p>
          )}
          {list.error && !forbidden && (
            <p className="notice notice-error" role="alert" data-testid="security-log-error">
              {describe(list.error)}
            </p>
          )}
          {list.data && list.data.entries.length === 0 && (
            <p className="panel dashboard-card" data-testid="security-log-empty">
              {t('securitylog:empty')}
            </p>
          )}
          {list.data && list.data.entries.length > 0 && (
            // A region that scrolls sideways on a narrow screen: it takes focus, so the keyboard can scroll it.
            <section
              className="security-log-scroll"
              aria-label={t('securitylog:entries')}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
              tabIndex={0}
            >
              <table className="security-log-table" data-testid="security-log-table">
                <thead>
                  <tr>
                    <th scope="col">{t('securitylog:col_at')}</th>
                    <th scope="col">{t('securitylog:col_actor')}</th>
                    <th scope="col">{t('securitylog:col_action')}</th>
                    <th scope="col">{t('securitylog:col_ip')}</th>
                    <th scope="col">{t('securitylog:col_device')}</th>
                    <th scope="col">{t('securitylog:col_target')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.entries.map((entry) => (
                    <EntryRow key={entry.id} entry={entry} />
                  ))}
                </tbody>
              </table>
            </section>
          )}
          <nav className="security-log-pages" aria-label={t('securitylog:title')}>
            {cursors.length > 0 && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setCursors((c) => c.slice(0, -1))}
                data-testid="security-log-newer"
              >
                {t('securitylog:newer')}
              </button>
            )}
            {list.data?.nextCursor && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setCursors((c) => [...c, list.data!.nextCursor!])}
                data-testid="security-log-older"
              >
                {t('securitylog:older')}
              </button>
            )}
          </nav>
          {teamId !== '' && <Retention teamId={teamId} />}
        </>
      )}
    </div>
  );
}
