import { useTranslation } from 'react-i18next';
import type { FormField, FormSettings, TransferForm, UploadType } from './uploader-state';

/** One on/off option (a checkbox with role=switch); also the receive form's. */
export function Switch({
  checked,
  label,
  hint,
  testId,
  locked = false,
  onChange,
}: {
  checked: boolean;
  label: string;
  hint?: string;
  testId: string;
  /** Set by the (team's) settings: shown, not changeable. */
  locked?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        checked={checked}
        disabled={locked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span className="switch-track" aria-hidden="true" />
      <span className="switch-text">
        <span>{label}</span>
        {hint && <span className="field-hint">{hint}</span>}
      </span>
    </label>
  );
}

/**
 * The e-mails a transfer sends besides the transfer itself: S1 download confirmations and expiry reminders;
 * for a link, asking downloaders for their e-mail and confirming downloads to the sender. Without
 * `notificationOpt` the account's defaults apply unseen; a required downloader e-mail is on and locked.
 */
export function NotificationSwitches({
  type,
  form,
  settings,
  set,
}: {
  type: UploadType;
  form: TransferForm;
  settings: Pick<FormSettings, 'notificationOpt' | 'requireForceEmailWhenDownloadS2'>;
  set: (field: FormField) => (value: string | number | boolean) => void;
}) {
  const { t } = useTranslation();
  const forced = settings.requireForceEmailWhenDownloadS2;
  if (!settings.notificationOpt && (type === 'S1' || !forced)) return null;
  return (
    <fieldset className="fieldset switches">
      <legend>{t('uploader:notifications_legend')}</legend>
      {type === 'S1' && (
        <>
          <Switch
            checked={form.downloadConfirmation}
            label={t('uploader:switch_download_confirmation')}
            testId="notify-download-confirmation"
            onChange={set('downloadConfirmation')}
          />
          <Switch
            checked={form.expiryReminder}
            label={t('uploader:switch_expiry_reminder')}
            testId="notify-expiry-reminder"
            onChange={set('expiryReminder')}
          />
        </>
      )}
      {type === 'S2' && (
        <>
          <Switch
            checked={forced || form.forceEmailWhenDownloadS2}
            label={t('uploader:switch_force_email')}
            hint={t(forced ? 'uploader:switch_force_email_required' : 'uploader:switch_force_email_hint')}
            testId="force-downloader-email"
            locked={forced}
            onChange={set('forceEmailWhenDownloadS2')}
          />
          {settings.notificationOpt && (
            <Switch
              checked={form.downloadConfirmationS2}
              label={t('uploader:switch_download_confirmation')}
              hint={t('uploader:switch_download_confirmation_s2_hint')}
              testId="notify-download-confirmation"
              onChange={set('downloadConfirmationS2')}
            />
          )}
        </>
      )}
    </fieldset>
  );
}
