import {
  type UploaderSettings,
  UploaderSettings as UploaderSettingsSchema,
  type UserGroup,
} from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import {
  createUserGroup,
  deleteUserGroup,
  listTeamMembers,
  listUserGroups,
  updateTeamMember,
  updateUserGroup,
} from '../../lib/team-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import './team.css';
import { PageFrame } from '../dashboard/page-frame';

type Flag = {
  [K in keyof UploaderSettings]: UploaderSettings[K] extends boolean ? K : never;
}[keyof UploaderSettings];

/** The on/off flags of the uploader settings a group may override (the extension lists stay the team's). */
export const OVERRIDE_FLAGS = Object.keys(UploaderSettingsSchema.shape).filter(
  (k) => !k.endsWith('AllowedExtensions'),
) as Flag[];

function GroupCard({
  group,
  teamId,
  onChanged,
  onError,
}: {
  group: UserGroup;
  teamId: string;
  onChanged: () => Promise<void>;
  onError: (e: unknown) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(group.name);
  const run = async (work: () => Promise<unknown>) => {
    try {
      await work();
      await onChanged();
    } catch (e) {
      onError(e);
    }
  };
  const setFlag = (flag: Flag, value: string) => {
    const overrides: Record<string, unknown> = { ...group.overrides };
    if (value === 'team') delete overrides[flag];
    else overrides[flag] = value === 'on';
    void run(() => updateUserGroup(teamId, group.id, { overrides }));
  };
  return (
    <li className="panel dashboard-card" data-testid="group-card" data-group-id={group.id}>
      <form
        className="team-group-name"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => updateUserGroup(teamId, group.id, { name }));
        }}
      >
        <LabelledField label={t('team:group_name')}>
          {(p) => (
            <input {...p} value={name} data-testid="group-name" onChange={(e) => setName(e.target.value)} />
          )}
        </LabelledField>
        <button type="submit" className="button button-secondary button-small" data-testid="group-rename">
          {t('team:group_rename')}
        </button>
        <button
          type="button"
          className="button button-danger button-small"
          data-testid="group-delete"
          onClick={() => {
            if (window.confirm(t('team:group_delete_confirm', { name: group.name })))
              void run(() => deleteUserGroup(teamId, group.id));
          }}
        >
          {t('team:group_delete')}
        </button>
      </form>
      <p className="muted">{t('team:group_members', { count: group.memberIds.length })}</p>
      <fieldset className="team-overrides">
        <legend>{t('team:group_overrides')}</legend>
        {OVERRIDE_FLAGS.map((flag) => {
          const value = group.overrides[flag];
          return (
            <LabelledField key={flag} label={flag}>
              {(p) => (
                <select
                  {...p}
                  data-testid={`override-${flag}`}
                  value={value === undefined ? 'team' : value ? 'on' : 'off'}
                  onChange={(e) => setFlag(flag, e.target.value)}
                >
                  <option value="team">{t('team:override_team')}</option>
                  <option value="on">{t('team:override_on')}</option>
                  <option value="off">{t('team:override_off')}</option>
                </select>
              )}
            </LabelledField>
          );
        })}
      </fieldset>
    </li>
  );
}

/**
 * `/dashboard/admin/user-groups`: the team's user groups (create, rename, delete), each member's group, and
 * each group's policy overrides (a flag follows the team's setting, or is forced on or off for the group).
 */
export function UserGroupsPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const teamId = state.managerId ?? state.user?.uid ?? '';
  const client = useQueryClient();
  const base = [ACCOUNT_QUERY_KEY, state.user?.uid ?? null] as const;
  const groups = useQuery({
    queryKey: [...base, 'team-groups', teamId],
    queryFn: ({ signal }) => listUserGroups(teamId, signal),
  });
  const members = useQuery({
    queryKey: [...base, 'team-members', teamId],
    queryFn: ({ signal }) => listTeamMembers(teamId, signal),
  });
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: [...base, 'team-groups', teamId] });
    await client.invalidateQueries({ queryKey: [...base, 'team-members', teamId] });
  };
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onError = (e: unknown) => setError(describe(e));

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!newName.trim()) return;
    try {
      await createUserGroup(teamId, { name: newName.trim() });
      setNewName('');
      setError(null);
      await refresh();
    } catch (e) {
      onError(e);
    }
  };
  return (
    <PageFrame
      title={t('team:groups_title')}
      intro={<p className="muted">{t('team:groups_intro')}</p>}
      testId="page-team-groups"
      className="team-page"
      error={groups.error ?? members.error}
    >
      {error && (
        <p className="notice notice-error" role="alert" data-testid="groups-error">
          {error}
        </p>
      )}
      <form className="panel dashboard-card team-invite" onSubmit={(e) => void create(e)}>
        <LabelledField label={t('team:group_new')}>
          {(p) => (
            <input
              {...p}
              value={newName}
              data-testid="group-new-name"
              onChange={(e) => setNewName(e.target.value)}
            />
          )}
        </LabelledField>
        <button type="submit" className="button button-primary" data-testid="group-create">
          {t('team:group_create')}
        </button>
      </form>
      {groups.data && (
        <ul className="team-groups" data-testid="group-list">
          {groups.data.groups.map((g) => (
            <GroupCard key={g.id} group={g} teamId={teamId} onChanged={refresh} onError={onError} />
          ))}
        </ul>
      )}
      {members.data && groups.data && (
        <section className="panel dashboard-card">
          <h2>{t('team:group_membership')}</h2>
          {members.data.members
            .filter((m) => m.uid && !m.isManager)
            .map((m) => (
              <LabelledField key={m.uid} label={m.email}>
                {(p) => (
                  <select
                    {...p}
                    data-testid="member-group"
                    value={m.groupId ?? ''}
                    onChange={(e) =>
                      void updateTeamMember(teamId, m.uid!, { groupId: e.target.value || null }).then(
                        refresh,
                        onError,
                      )
                    }
                  >
                    <option value="">{t('team:group_none')}</option>
                    {groups.data.groups.map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name}
                      </option>
                    ))}
                  </select>
                )}
              </LabelledField>
            ))}
        </section>
      )}
    </PageFrame>
  );
}
