import type { UploaderSettings } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useAuth } from '../auth/auth-context';
import { PageFrame } from '../dashboard/page-frame';
import { SettingsSwitch } from '../dashboard/settings-switch';
import { ExtensionTags } from './extension-tags';
import './team-admin.css';
import { getTeamUploaderSettings, putTeamUploaderSettings } from './team-api';

type Flag = {
  [K in keyof UploaderSettings]: UploaderSettings[K] extends boolean ? K : never;
}[keyof UploaderSettings];

/** The switches of spec §3's uploader settings, as the page groups them. */
export const SENDING_FLAGS: readonly Flag[] = [
  'allowS1',
  'allowS2',
  'passwordOpt',
  'requirePassword',
  'notificationOpt',
  'downloadLimitOpt',
  'filePreviewOpt',
  'allowCustomization',
  'requireForceEmailWhenDownloadS2',
];
export const RECEIVING_FLAGS: readonly Flag[] = [
  'allowInboxS1',
  'allowInboxS2',
  'receivePasswordOpt',
  'receiveRequirePassword',
  'receiveNotificationOpt',
  'receiveFilePreviewOpt',
  'receiveAllowCustomization',
  'receiveAvailabilityOpt',
];

/** The team a signed-in user administers: their manager's uid, or their own (a team is its manager's uid). */
export function teamIdOf(state: { user: { uid: string } | null; managerId: string | null }): string {
  return state.user ? (state.managerId ?? state.user.uid) : '';
}

/**
 * `/dashboard/admin/transfers/settings`: the team's uploader settings (spec §3, the full flag set), what its
 * members may do when sending and receiving; saved with PUT /user/users/{managerId}/uploader-settings by the
 * manager or a member with TRANSFER_MANAGER, enforced by the server.
 */
export function TransferPolicyPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const teamId = teamIdOf(state);
  const client = useQueryClient();
  const key = ['team-uploader-settings', teamId];
  const loaded = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => getTeamUploaderSettings(teamId, signal),
    enabled: teamId !== '',
  });
  const [form, setForm] = useState<UploaderSettings | null>(null);
  useEffect(() => {
    if (loaded.data && !form) setForm(loaded.data);
  }, [loaded.data, form]);
  const save = useMutation({
    mutationFn: (settings: UploaderSettings) => putTeamUploaderSettings(teamId, settings),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setForm(saved);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form) save.mutate(form);
  };
  const set = (patch: Partial<UploaderSettings>) => {
    save.reset();
    setForm((current) => (current ? { ...current, ...patch } : current));
  };
  const flag = (name: Flag) =>
    form && (
      <SettingsSwitch
        key={name}
        checked={form[name]}
        label={t(`teamPolicies:flags.${name}.label`)}
        hint={t(`teamPolicies:flags.${name}.hint`)}
        testId={`flag-${name}`}
        onChange={(checked) => set({ [name]: checked })}
      />
    );
  return (
    <PageFrame
      title={t('teamPolicies:transfers.title')}
      intro={<p className="muted">{t('teamPolicies:transfers.intro')}</p>}
      testId="page-admin-transfer-settings"
      loading={loaded.isPending && teamId !== ''}
      loadingText={t('teamPolicies:loading')}
      error={loaded.error}
      errorTestId="policy-load-error"
    >
      {form && (
        <form onSubmit={onSubmit} noValidate data-testid="transfer-policy-form">
          <fieldset className="settings-group">
            <legend>{t('teamPolicies:transfers.sending')}</legend>
            {SENDING_FLAGS.map(flag)}
            <ExtensionTags
              label={t('teamPolicies:extensions.send_label')}
              hint={t('teamPolicies:extensions.hint')}
              value={form.sendAllowedExtensions}
              onChange={(next) => set({ sendAllowedExtensions: next })}
              testId="send-extensions"
            />
          </fieldset>
          <fieldset className="settings-group">
            <legend>{t('teamPolicies:transfers.receiving')}</legend>
            {RECEIVING_FLAGS.map(flag)}
            <ExtensionTags
              label={t('teamPolicies:extensions.receive_label')}
              hint={t('teamPolicies:extensions.hint')}
              value={form.receiveAllowedExtensions}
              onChange={(next) => set({ receiveAllowedExtensions: next })}
              testId="receive-extensions"
            />
          </fieldset>
          {save.error && (
            <div className="notice notice-error" role="alert" data-testid="policy-save-error">
              <p>{describe(save.error)}</p>
            </div>
          )}
          {save.isSuccess && (
            <p className="notice notice-success" role="status" data-testid="policy-saved">
              {t('teamPolicies:saved')}
            </p>
          )}
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="policy-save"
          >
            {t('teamPolicies:save')}
          </button>
        </form>
      )}
    </PageFrame>
  );
}
