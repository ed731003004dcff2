import type { InboxView } from '@ferry/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useCheckedSubmit } from '../../hooks/use-checked-submit';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { SettingsSwitch } from '../dashboard/settings-switch';
import { fillTheme } from '../widget/theme';
import { WidgetPreview } from '../widget/widget-preview';
import { ExtensionsInput } from './extensions-input';
import { FieldsEditor } from './fields-editor';
import { fieldsOfDraft } from './fields-state';
import { AboutFields, LimitFields, ModeFields, PasswordFields } from './inbox-form-fields';
import {
  hasInboxProblems,
  type InboxCaps,
  type InboxDraft,
  type InboxProblems,
  inboxDraftOf,
  inboxProblems,
  newInboxDraft,
  sizeInBytes,
} from './inbox-form-state';
import { ThemeEditor } from './theme-editor';

/** The uploader settings a refusal names (details.setting), said in words. */
const SETTING_TEXT: Record<string, string> = {
  allowInboxS1: 'account:inboxes.refused_allowInboxS1',
  allowInboxS2: 'account:inboxes.refused_allowInboxS2',
  receiveRequirePassword: 'account:inboxes.password_required',
  receivePasswordOpt: 'account:inboxes.refused_receivePasswordOpt',
  receiveAllowCustomization: 'account:inboxes.refused_receiveAllowCustomization',
  receiveNotificationOpt: 'account:inboxes.refused_receiveNotificationOpt',
  receiveAllowedExtensions: 'account:inboxes.refused_receiveAllowedExtensions',
};

/**
 * Create or edit an inbox: about (title, address, description), how people send (S1/S2), protection and
 * limits (password, allowed extensions, largest upload, how long files stay), the uploader's form, the upload
 * notification and the colours with a live preview. Problems show after a save is tried, next to each field.
 */
export function InboxForm(props: {
  caps: InboxCaps;
  original: InboxView | null;
  ownerName: string | null;
  submitLabel: string;
  onSave: (draft: InboxDraft) => Promise<void>;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { caps, original } = props;
  const [draft, setDraft] = useState<InboxDraft>(() =>
    original ? inboxDraftOf(original) : newInboxDraft(caps),
  );
  const [taken, setTaken] = useState<string | null>(null);

  const own = inboxProblems(draft, caps, original);
  const invalid = hasInboxProblems(own) || (taken !== null && taken === draft.slug);
  const change = (patch: Partial<InboxDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const { form, checked, busy, failure, onSubmit } = useCheckedSubmit({
    invalid,
    save: () => props.onSave(draft),
    onError(error, { setFailure, refuse }) {
      if (error instanceof ApiError && error.hasCode('CONFLICT') && error.details.field === 'slug') {
        setTaken(draft.slug);
        refuse();
      } else {
        const setting =
          error instanceof ApiError ? SETTING_TEXT[String(error.details.setting ?? '')] : undefined;
        setFailure(setting ? t(setting) : describe(error));
      }
    },
  });
  const problems: InboxProblems = checked ? own : {};
  if (checked && taken !== null && taken === draft.slug) problems.slug = 'taken';

  const preview = {
    fields: (() => {
      const fields = fieldsOfDraft(draft.fields, draft.linkMode);
      return {
        name: fields.name ?? 'optional',
        email: fields.email ?? 'optional',
        message: fields.message ?? 'optional',
        questions: (fields.questions ?? [])
          .filter((q) => q.label.trim() !== '')
          .map((q) => ({ id: q.id, label: q.label, required: q.required === true })),
      };
    })(),
    passwordProtected: draft.password !== '' || (draft.passwordProtected && !draft.removePassword),
    allowedExtensions: draft.allowedExtensions.length > 0 ? draft.allowedExtensions : caps.teamExtensions,
    maxUploadBytes: (() => {
      const bytes = sizeInBytes(draft.maxUpload, draft.maxUploadUnit);
      return bytes !== null && !Number.isNaN(bytes)
        ? Math.min(bytes, caps.maxUploadBytes)
        : caps.maxUploadBytes;
    })(),
  };

  return (
    <form
      ref={form}
      className="settings-form inbox-form"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      data-testid="inbox-form"
    >
      <section className="panel dashboard-card" aria-labelledby="inbox-about">
        <h2 id="inbox-about" className="section-title">
          {t('account:inboxes.section_about')}
        </h2>
        <AboutFields draft={draft} caps={caps} problems={problems} onChange={change} />
        <ModeFields draft={draft} caps={caps} problems={problems} onChange={change} />
      </section>
      <section className="panel dashboard-card" aria-labelledby="inbox-protection">
        <h2 id="inbox-protection" className="section-title">
          {t('account:inboxes.section_protection')}
        </h2>
        <PasswordFields draft={draft} caps={caps} problems={problems} onChange={change} />
        <ExtensionsInput
          value={draft.allowedExtensions}
          onChange={(allowedExtensions) => change({ allowedExtensions })}
          outside={problems.extensions}
          hint={
            caps.teamExtensions.length > 0
              ? t('account:inboxes.extensions_team', {
                  list: caps.teamExtensions.map((e) => `.${e}`).join(', '),
                })
              : t('account:inboxes.extensions_hint')
          }
          testId="inbox-extensions"
        />
        <LimitFields draft={draft} caps={caps} problems={problems} onChange={change} />
      </section>
      <section className="panel dashboard-card" aria-labelledby="inbox-form-fields">
        <h2 id="inbox-form-fields" className="section-title">
          {t('account:inboxes.section_form')}
        </h2>
        <FieldsEditor
          value={draft.fields}
          linkMode={draft.linkMode}
          problems={problems.questions ?? {}}
          testId="inbox-fields"
          onChange={(fields) => change({ fields })}
        />
        {caps.notificationOpt ? (
          <SettingsSwitch
            checked={draft.uploadNotification}
            label={t('account:inboxes.notification_label')}
            hint={t('account:inboxes.notification_hint')}
            testId="inbox-notification"
            onChange={(uploadNotification) => change({ uploadNotification })}
          />
        ) : (
          <p className="field-hint" data-testid="inbox-notification-locked">
            {t('account:inboxes.notification_locked')}
          </p>
        )}
      </section>
      <section className="panel dashboard-card" aria-labelledby="inbox-look">
        <h2 id="inbox-look" className="section-title">
          {t('account:inboxes.section_look')}
        </h2>
        <div className="inbox-look">
          {caps.allowCustomization ? (
            <ThemeEditor
              value={draft.colors}
              fallback={fillTheme(null)}
              testId="inbox-colors"
              onChange={(colors) => change({ colors })}
            />
          ) : (
            <p className="field-hint" data-testid="inbox-colors-locked">
              {t(caps.managed ? 'account:inboxes.colors_locked_managed' : 'account:inboxes.colors_locked')}
            </p>
          )}
          <WidgetPreview
            theme={fillTheme(caps.allowCustomization ? draft.colors : null)}
            title={draft.title.trim() || null}
            ownerName={props.ownerName}
            message={draft.description.trim() || null}
            point={preview}
            testId="inbox-preview"
          />
        </div>
      </section>
      <div className="settings-actions">
        {checked && invalid && (
          <p className="notice notice-error" role="alert" data-testid="inbox-invalid">
            <AlertIcon /> {t('account:inboxes.invalid')}
          </p>
        )}
        {failure && (
          <p className="notice notice-error" role="alert" data-testid="inbox-error">
            <AlertIcon /> {failure}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy} data-testid="inbox-save">
          {busy ? t('account:inboxes.saving') : props.submitLabel}
        </button>
      </div>
    </form>
  );
}
