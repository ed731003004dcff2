import { PERMISSIONS, type Permission, type TeamInviteResult, type TeamMember } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDate } from '../../lib/format';
import {
  inviteTeamMembers,
  listTeamMembers,
  removeTeamMember,
  updateTeamMember,
  withdrawTeamInvitation,
} from '../../lib/team-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import './team.css';
import { PageFrame } from '../dashboard/page-frame';

/** Addresses typed in one box: separated by commas, semicolons, spaces or lines. */
export function splitAddresses(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

function PermissionBoxes({
  value,
  onChange,
  legend,
  name,
}: {
  value: Permission[];
  onChange: (next: Permission[]) => void;
  legend: string;
  name: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="team-permissions">
      <legend>{legend}</legend>
      {PERMISSIONS.map((p) => (
        <label key={p} className="team-permission">
          <input
            type="checkbox"
            name={name}
            checked={value.includes(p)}
            onChange={(e) => onChange(e.target.checked ? [...value, p] : value.filter((v) => v !== p))}
          />
          {t(`team:permission.${p}`)}
        </label>
      ))}
    </fieldset>
  );
}

function Results({ results }: { results: TeamInviteResult[] }) {
  const { t } = useTranslation();
  return (
    <ul className="team-results" aria-live="polite" data-testid="invite-results">
      {results.map((r, i) => (
        <li key={`${r.email}-${r.line ?? i}`} data-result={r.result}>
          {r.line ? `${t('team:line', { line: r.line })} · ` : ''}
          <span className="team-email">{r.email || '—'}</span> — {t(`team:result.${r.result}`)}
        </li>
      ))}
    </ul>
  );
}

function MemberRow({
  member,
  teamId,
  onChanged,
  onError,
}: {
  member: TeamMember;
  teamId: string;
  onChanged: () => Promise<void>;
  onError: (error: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<unknown>, confirmText?: string) => {
    if (confirmText && !window.confirm(confirmText)) return;
    setBusy(true);
    try {
      await work();
      await onChanged();
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  const uid = member.uid;
  return (
    <tr data-testid="member-row" data-status={member.status}>
      <td>
        <span className="team-email">{member.email}</span>
        {member.firstname && <span className="muted"> · {member.firstname}</span>}
      </td>
      <td>
        {member.isManager ? t('team:status.manager') : t(`team:status.${member.status}`)}
        {member.lastSignInAt && (
          <span className="muted team-last">
            {' '}
            · {t('team:last_sign_in', { date: formatDate(member.lastSignInAt, i18n.language) })}
          </span>
        )}
      </td>
      <td>
        {member.isManager || !uid ? (
          member.permissions.map((p) => t(`team:permission.${p}`)).join(', ')
        ) : (
          <PermissionBoxes
            legend={t('team:permissions_of', { email: member.email })}
            name={`perm-${uid}`}
            value={member.permissions}
            onChange={(permissions) => void act(() => updateTeamMember(teamId, uid, { permissions }))}
          />
        )}
      </td>
      <td className="team-actions">
        {uid && !member.isManager && (
          <>
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={busy}
              data-testid="member-toggle"
              onClick={() =>
                void act(
                  () => updateTeamMember(teamId, uid, { disabled: member.status !== 'disabled' }),
                  member.status === 'disabled'
                    ? undefined
                    : t('team:disable_confirm', { email: member.email }),
                )
              }
            >
              {member.status === 'disabled' ? t('team:enable') : t('team:disable')}
            </button>
            <button
              type="button"
              className="button button-danger button-small"
              disabled={busy}
              data-testid="member-remove"
              onClick={() =>
                void act(
                  () => removeTeamMember(teamId, uid),
                  t('team:remove_confirm', { email: member.email }),
                )
              }
            >
              {t('team:remove')}
            </button>
          </>
        )}
        {member.invitationId && (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={busy}
            data-testid="invitation-withdraw"
            onClick={() =>
              void act(
                () => withdrawTeamInvitation(teamId, member.invitationId!),
                t('team:withdraw_confirm', { email: member.email }),
              )
            }
          >
            {t('team:withdraw')}
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * `/dashboard/admin/users`: the team's members and pending invitations (status, permissions, last sign-in), with
 * permission edits, disable/enable/remove (confirmed), withdraw, and the invite form (several addresses, or a CSV
 * with a result per row). For the manager and members with USER_MANAGER.
 */
export function MembersPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const teamId = state.managerId ?? state.user?.uid ?? '';
  const client = useQueryClient();
  const key = [ACCOUNT_QUERY_KEY, state.user?.uid ?? null, 'team-members', teamId] as const;
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => listTeamMembers(teamId, signal) });
  const refresh = () => client.invalidateQueries({ queryKey: key });

  const [addresses, setAddresses] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [results, setResults] = useState<TeamInviteResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const emails = splitAddresses(addresses);
    if (emails.length === 0 && !csv) {
      setError(t('team:invite_empty'));
      return;
    }
    setError(null);
    setSending(true);
    try {
      const answer = await inviteTeamMembers(teamId, {
        emails,
        permissions,
        ...(csv ? { csv: csv.text } : {}),
      });
      setResults(answer.results);
      setAddresses('');
      setCsv(null);
      await refresh();
    } catch (e) {
      setError(describe(e));
    } finally {
      setSending(false);
    }
  };

  const data = query.data;
  return (
    <PageFrame
      title={t('team:users_title')}
      intro={
        data && (
          <p className="muted" data-testid="team-seats">
            {data.seats.licences === null
              ? t('team:seats_uncapped', { used: data.seats.used })
              : t('team:seats', { used: data.seats.used, licences: data.seats.licences })}
          </p>
        )
      }
      testId="page-team-users"
      className="team-page"
      loading={query.isPending}
      error={query.error}
      errorTestId="team-error"
    >
      {data && (
        <>
          <form className="panel dashboard-card team-invite" onSubmit={(e) => void submit(e)} noValidate>
            <h2>{t('team:invite_title')}</h2>
            <LabelledField
              label={t('team:invite_addresses')}
              hint={t('team:invite_addresses_hint')}
              error={error}
            >
              {(p) => (
                <textarea
                  {...p}
                  rows={3}
                  value={addresses}
                  data-testid="invite-addresses"
                  onChange={(e) => setAddresses(e.target.value)}
                />
              )}
            </LabelledField>
            <PermissionBoxes
              legend={t('team:invite_permissions')}
              name="invite-permissions"
              value={permissions}
              onChange={setPermissions}
            />
            <LabelledField label={t('team:csv_label')} hint={t('team:csv_hint')}>
              {(p) => (
                <input
                  {...p}
                  type="file"
                  accept=".csv,text/csv,text/plain"
                  data-testid="invite-csv"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (!file) return setCsv(null);
                    void file.text().then((text) => setCsv({ name: file.name, text }));
                  }}
                />
              )}
            </LabelledField>
            <button
              type="submit"
              className="button button-primary"
              disabled={sending}
              data-testid="invite-submit"
            >
              {t('team:invite_submit')}
            </button>
            {results && <Results results={results} />}
          </form>
          <div className="team-table-wrap">
            <table className="team-table" data-testid="member-table">
              <caption className="visually-hidden">{t('team:users_title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('team:col_member')}</th>
                  <th scope="col">{t('team:col_status')}</th>
                  <th scope="col">{t('team:col_permissions')}</th>
                  <th scope="col">{t('team:col_actions')}</th>
                </tr>
              </thead>
              <tbody>
                {data.members.map((m) => (
                  <MemberRow
                    key={m.uid ?? m.invitationId ?? m.email}
                    member={m}
                    teamId={teamId}
                    onChanged={refresh}
                    onError={(e) => setError(describe(e))}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </PageFrame>
  );
}
