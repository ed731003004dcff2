import { capTemplateAvailability, type TransferTemplate, type UploaderSettings } from '@ferry/core';
import { useTranslation } from 'react-i18next';

/**
 * A team member's uploader template and settings: their manager's (spec §4), shown, not editable, with why.
 * The manager's password is never shown, only whether there is one.
 */
export function ManagerTemplate({
  template,
  settings,
  validityDays,
  ready,
}: {
  template: TransferTemplate;
  settings: UploaderSettings;
  validityDays: number;
  ready: boolean;
}) {
  const { t } = useTranslation();
  const none = t('account:settings.value_none');
  const types = [
    settings.allowS1 && t('account:settings.type_S1'),
    settings.allowS2 && t('account:settings.type_S2'),
  ]
    .filter(Boolean)
    .join(', ');
  const rows: [string, string][] = [
    [t('account:settings.uploader_name'), template.name ?? none],
    [t('account:settings.template_message'), template.message ?? none],
    [
      t('account:settings.template_recipients'),
      template.recipients.length > 0 ? template.recipients.join(', ') : none,
    ],
    [
      t('account:settings.template_password'),
      template.password ? t('account:settings.value_password_set') : none,
    ],
    [
      t('account:settings.template_days'),
      template.defaultAvailability === null
        ? t('account:settings.value_default')
        : t('account:dashboard.fact_days', {
            count: capTemplateAvailability(template.defaultAvailability, validityDays),
          }),
    ],
    [
      t('account:settings.managed_default_type'),
      template.s2AsDefault ? t('account:settings.type_S2') : t('account:settings.type_S1'),
    ],
    [t('account:settings.managed_types'), types || none],
    [
      t('account:settings.managed_password_required'),
      settings.requirePassword ? t('account:settings.value_yes') : t('account:settings.value_no'),
    ],
    [
      t('account:settings.managed_force_email'),
      settings.requireForceEmailWhenDownloadS2
        ? t('account:settings.value_yes')
        : t('account:settings.value_no'),
    ],
  ];
  return (
    <fieldset className="fieldset template-fields" data-testid="template-uploader-managed">
      <legend>{t('account:settings.uploader_legend')}</legend>
      <p className="notice settings-note" data-testid="managed-explanation">
        {t('account:settings.managed_explanation')}
      </p>
      {!ready ? (
        <p className="muted" role="status" aria-busy="true">
          {t('account:loading')}
        </p>
      ) : (
        <dl className="settings-readonly">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </fieldset>
  );
}
