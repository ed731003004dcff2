import type { NotificationSettings } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { SettingsSwitch } from './settings-switch';

type TransferKey = keyof NotificationSettings['transfer'];
type ReceiveKey = keyof NotificationSettings['receive'];

const TRANSFER: { key: TransferKey; label: string }[] = [
  { key: 'summary', label: 'account:settings.notify_summary' },
  { key: 'downloadConfirmation', label: 'account:settings.notify_download_confirmation' },
  { key: 'downloadConfirmationS2', label: 'account:settings.notify_download_confirmation_s2' },
  { key: 'expiryReminder', label: 'account:settings.notify_expiry_reminder' },
];

const RECEIVE: { key: ReceiveKey; label: string }[] = [
  { key: 'upload', label: 'account:settings.notify_receive_upload' },
  { key: 'expiryReminder', label: 'account:settings.notify_receive_expiry_reminder' },
];

/** Spec §3 notificationSettings: the e-mails a new transfer and a new request start with. */
export function NotificationFields({
  value,
  onChange,
}: {
  value: NotificationSettings;
  onChange: (next: NotificationSettings) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="settings-columns">
      <fieldset className="fieldset switches">
        <legend>{t('account:settings.notify_transfer_legend')}</legend>
        {TRANSFER.map(({ key, label }) => (
          <SettingsSwitch
            key={key}
            checked={value.transfer[key]}
            label={t(label)}
            testId={`notify-transfer-${key}`}
            onChange={(checked) => onChange({ ...value, transfer: { ...value.transfer, [key]: checked } })}
          />
        ))}
      </fieldset>
      <fieldset className="fieldset switches">
        <legend>{t('account:settings.notify_receive_legend')}</legend>
        {RECEIVE.map(({ key, label }) => (
          <SettingsSwitch
            key={key}
            checked={value.receive[key]}
            label={t(label)}
            testId={`notify-receive-${key}`}
            onChange={(checked) => onChange({ ...value, receive: { ...value.receive, [key]: checked } })}
          />
        ))}
      </fieldset>
    </div>
  );
}
