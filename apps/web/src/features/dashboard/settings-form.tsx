import type { TransferTemplate, UploaderSettings, UserProfile } from '@ferry/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useCheckedSubmit } from '../../hooks/use-checked-submit';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { updateUserProfile } from '../../lib/auth-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import { ManagerTemplate } from './manager-template';
import { NotificationFields } from './notification-fields';
import {
  hasProblems,
  type SettingsDraft,
  settingsUpdate,
  type TemplateCaps,
  type TemplateProblems,
  templateDraftOf,
  templateProblems,
} from './settings-form-state';
import { TemplateFields } from './template-fields';

/** The signed-in user's own profile in the query cache (the key hooks/use-user-state.ts reads it under). */
export function ownProfileKey(uid: string): unknown[] {
  return [ACCOUNT_QUERY_KEY, uid, 'user', uid];
}

/** For a team member: their manager's template and settings, which they cannot change. */
export interface ManagedUploader {
  template: TransferTemplate;
  settings: UploaderSettings;
  ready: boolean;
}

interface SettingsFormProps {
  uid: string;
  profile: UserProfile;
  caps: TemplateCaps;
  /** Set for a team member: the uploader template is the manager's and is shown read-only. */
  managed: ManagedUploader | null;
}

function draftOf(profile: UserProfile, caps: TemplateCaps) {
  const uploader = templateDraftOf(profile.uploaderTemplate, caps);
  const receiver = templateDraftOf(profile.receiverTemplate, caps);
  const draft: SettingsDraft = {
    notifications: profile.notificationSettings,
    uploader: uploader.draft,
    receiver: receiver.draft,
  };
  return { draft, capped: { uploader: uploader.capped, receiver: receiver.capped } };
}

/**
 * Spec §3 user settings: notification settings, and the uploader and receiver templates, saved together with
 * PATCH /user/users/{id}. Saving refreshes the profile the uploader reads, so that its next reset (spec §4)
 * fills the form with the new template.
 */
export function SettingsForm({ uid, profile, caps, managed }: SettingsFormProps) {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const [initial] = useState(() => draftOf(profile, caps));
  const [draft, setDraft] = useState<SettingsDraft>(initial.draft);
  const [capped, setCapped] = useState(initial.capped);

  const none: TemplateProblems = {};
  const uploaderProblems = managed ? none : templateProblems(draft.uploader, caps);
  const receiverProblems = templateProblems(draft.receiver, caps);
  const invalid = hasProblems(uploaderProblems) || hasProblems(receiverProblems);

  const { form, checked, busy, failure, onSubmit } = useCheckedSubmit({
    invalid,
    save: async () => {
      const saved = await updateUserProfile(uid, settingsUpdate(draft, managed === null));
      queryClient.setQueryData(ownProfileKey(uid), saved);
      // The uploader's user state (own profile, and through it the template) reads again.
      await queryClient.invalidateQueries({ queryKey: [ACCOUNT_QUERY_KEY, uid, 'user'] });
      const next = draftOf(saved, caps);
      setDraft(next.draft);
      setCapped(next.capped);
      toast.show(i18n.t('account:settings.saved'), 'success');
    },
    onError(error, { setFailure }) {
      setFailure(describe(error));
      if (error instanceof ApiError && error.status === 401) void auth.reload();
    },
  });

  return (
    <form
      ref={form}
      className="settings-form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      data-testid="settings-form"
    >
      <section className="panel dashboard-card" aria-labelledby="settings-notifications">
        <h2 id="settings-notifications" className="section-title">
          {t('account:settings.notifications_title')}
        </h2>
        <p className="field-hint">{t('account:settings.notifications_intro')}</p>
        <NotificationFields
          value={draft.notifications}
          onChange={(notifications) => setDraft((d) => ({ ...d, notifications }))}
        />
      </section>
      <section className="panel dashboard-card" aria-labelledby="settings-templates">
        <h2 id="settings-templates" className="section-title">
          {t('account:settings.templates_title')}
        </h2>
        {managed ? (
          <ManagerTemplate
            template={managed.template}
            settings={managed.settings}
            validityDays={caps.validityDays}
            ready={managed.ready}
          />
        ) : (
          <TemplateFields
            kind="uploader"
            draft={draft.uploader}
            caps={caps}
            problems={checked ? uploaderProblems : none}
            capped={capped.uploader}
            onChange={(uploader) => setDraft((d) => ({ ...d, uploader }))}
          />
        )}
        <TemplateFields
          kind="receiver"
          draft={draft.receiver}
          caps={caps}
          problems={checked ? receiverProblems : none}
          capped={capped.receiver}
          onChange={(receiver) => setDraft((d) => ({ ...d, receiver }))}
        />
      </section>
      <div className="settings-actions">
        {checked && invalid && (
          <p className="notice notice-error" role="alert" data-testid="settings-invalid">
            <AlertIcon /> {t('account:settings.invalid')}
          </p>
        )}
        {failure && (
          <p className="notice notice-error" role="alert" data-testid="settings-error">
            <AlertIcon /> {failure}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy} data-testid="settings-save">
          {busy ? t('account:settings.saving') : t('account:settings.save')}
        </button>
      </div>
    </form>
  );
}
