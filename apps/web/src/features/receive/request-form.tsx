import { addDays, type PlanLimits, type ReceiveLinkMode } from '@ferry/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../../components/password-input';
import { formatDate } from '../../lib/format';
import { Switch } from '../uploader/notification-switches';
import { RecipientsInput } from '../uploader/recipients-input';
import {
  blockingRequestProblems,
  missingRequestProblems,
  parseExtensions,
  type ReceiveFormSettings,
  type RequestField,
  type RequestForm,
  type RequestFormAction,
  type RequestProblems,
} from './request-form-state';

interface RequestFormProps {
  linkMode: ReceiveLinkMode;
  form: RequestForm;
  problems: RequestProblems;
  limits: Pick<PlanLimits, 'messageLength' | 'fileValidityInDays' | 'recipients'>;
  settings: ReceiveFormSettings;
  dispatch: (action: RequestFormAction) => void;
  onSubmit: () => void;
  busy: boolean;
  /** The server said the custom address is taken (409 CONFLICT). */
  customIdTaken: boolean;
}

function firstMissing(problems: RequestProblems): string {
  if (problems.noRecipients || problems.recipientsDraftLeft) return '[data-testid="recipients-input"]';
  return '[data-testid="request-password"]';
}

/** The team's extension list as checkboxes: a request may narrow it, never widen it. */
function TeamExtensions({
  team,
  value,
  onChange,
}: {
  team: readonly string[];
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const chosen = new Set(parseExtensions(value));
  const toggle = (ext: string, on: boolean) => {
    const next = team.filter((e) => (e === ext ? on : chosen.has(e)));
    onChange(next.join(', '));
  };
  return (
    <fieldset className="fieldset receive-extensions">
      <legend>{t('uploader:receive.extensions_label')}</legend>
      <p className="field-hint">{t('uploader:receive.extensions_team_hint')}</p>
      <div className="receive-extension-list">
        {team.map((ext) => (
          <label key={ext} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.has(ext)}
              onChange={(e) => toggle(ext, e.target.checked)}
              data-testid={`request-extension-${ext}`}
            />
            <span>.{ext}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const COLOURS = ['backgroundColor', 'actionColor', 'startbtnColor'] as const;

/**
 * The receive form of spec §3: for S1 the people to ask first; then subject, message, the requester as the
 * uploaders see them, expiry, password, the e-mails it sends, and (under "More options") the custom address,
 * the allowed file types and the page's colours. Fields the (team's) settings turn off are not shown.
 */
export function RequestFormFields({
  linkMode,
  form,
  problems,
  limits,
  settings,
  dispatch,
  onSubmit,
  busy,
  customIdTaken,
}: RequestFormProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [attempted, setAttempted] = useState(false);
  const set = (field: RequestField) => (value: string | number | boolean) =>
    dispatch({ type: 'setField', field, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || blockingRequestProblems(problems)) return;
    if (missingRequestProblems(problems)) {
      setAttempted(true);
      formRef.current?.querySelector<HTMLElement>(firstMissing(problems))?.focus();
      return;
    }
    onSubmit();
  };
  const s1 = linkMode === 'S1';
  const passwordShown = settings.receivePasswordOpt || settings.receiveRequirePassword;
  const passwordMissing = attempted && problems.passwordRequired;
  const over = problems.messageTooLong;
  const days = Array.from({ length: limits.fileValidityInDays }, (_, i) => i + 1);
  const team = parseExtensions(settings.receiveAllowedExtensions.join(','));
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const customIdError = problems.invalidCustomId
    ? t('uploader:receive.custom_id_invalid')
    : customIdTaken
      ? t('uploader:receive.custom_id_taken')
      : null;

  return (
    <form className="options-form request-form" onSubmit={submit} noValidate ref={formRef}>
      {s1 && (
        <RecipientsInput
          recipients={form.recipients}
          draft={form.recipientsDraft}
          max={limits.recipients}
          missing={attempted}
          label={t('uploader:receive.field_recipients')}
          onChange={(recipients, draft) => dispatch({ type: 'setRecipients', recipients, draft })}
        />
      )}

      <div className="field">
        <label htmlFor={`${id}-subject`}>{t('uploader:receive.field_subject')}</label>
        <input
          id={`${id}-subject`}
          type="text"
          value={form.subject}
          maxLength={255}
          autoComplete="off"
          placeholder={t('uploader:receive.field_subject_placeholder')}
          onChange={(e) => set('subject')(e.target.value)}
          data-testid="request-subject"
        />
      </div>

      <div className="field">
        <div className="field-label-row">
          <label htmlFor={`${id}-message`}>{t('uploader:field_message')}</label>
          <span id={`${id}-counter`} className={`counter${over ? ' is-over' : ''}`}>
            {t('uploader:message_counter', {
              length: Array.from(form.message).length,
              max: limits.messageLength,
            })}
          </span>
        </div>
        <textarea
          id={`${id}-message`}
          value={form.message}
          rows={3}
          placeholder={t('uploader:receive.field_message_placeholder')}
          aria-describedby={`${id}-counter`}
          aria-invalid={over || undefined}
          onChange={(e) => set('message')(e.target.value)}
          data-testid="request-message"
        />
        {over && (
          <p className="field-error" role="alert">
            {t('errors:limit.messageLength', {
              max: limits.messageLength,
              actual: Array.from(form.message).length,
            })}
          </p>
        )}
      </div>

      <fieldset className="fieldset">
        <legend>{t('uploader:receive.sender_legend')}</legend>
        <div className="field-grid">
          <div className="field">
            <label htmlFor={`${id}-sender-name`}>{t('uploader:field_sender_name')}</label>
            <input
              id={`${id}-sender-name`}
              type="text"
              autoComplete="name"
              value={form.senderName}
              maxLength={200}
              onChange={(e) => set('senderName')(e.target.value)}
              data-testid="request-sender-name"
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-sender-email`}>{t('uploader:field_sender_email')}</label>
            <input
              id={`${id}-sender-email`}
              type="email"
              autoComplete="email"
              value={form.senderEmail}
              maxLength={320}
              aria-invalid={problems.invalidSenderEmail || undefined}
              aria-describedby={problems.invalidSenderEmail ? `${id}-sender-email-error` : undefined}
              onChange={(e) => set('senderEmail')(e.target.value)}
              data-testid="request-sender-email"
            />
            {problems.invalidSenderEmail && (
              <p className="field-error" id={`${id}-sender-email-error`}>
                {t('uploader:invalid_email')}
              </p>
            )}
          </div>
        </div>
        <p className="field-hint">{t('uploader:receive.sender_hint')}</p>
      </fieldset>

      {settings.receiveAvailabilityOpt && (
        <div className="field">
          <label htmlFor={`${id}-expiry`}>{t('uploader:receive.field_expiry')}</label>
          <select
            id={`${id}-expiry`}
            value={form.expiresInDays}
            aria-describedby={`${id}-expiry-hint`}
            onChange={(e) => set('expiresInDays')(Number(e.target.value))}
            data-testid="request-expiry"
          >
            {days.map((d) => (
              <option key={d} value={d}>
                {t('uploader:days', { count: d })}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${id}-expiry-hint`}>
            {t('uploader:receive.expires_on', {
              date: formatDate(addDays(new Date(), form.expiresInDays), i18n.language),
            })}
          </p>
        </div>
      )}

      {passwordShown && (
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('uploader:field_password')}</label>
          <PasswordInput
            id={`${id}-password`}
            value={form.password}
            onValueChange={set('password')}
            autoComplete="new-password"
            maxLength={256}
            placeholder={t(
              settings.receiveRequirePassword
                ? 'uploader:field_password_placeholder_required'
                : 'uploader:receive.field_password_placeholder',
            )}
            required={settings.receiveRequirePassword}
            aria-invalid={passwordMissing || undefined}
            aria-describedby={passwordMissing ? `${id}-password-error` : undefined}
            testId="request-password"
          />
          {passwordMissing && (
            <p className="field-error" id={`${id}-password-error`} role="alert">
              {t('uploader:password_required')}
            </p>
          )}
        </div>
      )}

      {settings.receiveNotificationOpt && (
        <fieldset className="fieldset switches">
          <legend>{t('uploader:notifications_legend')}</legend>
          <Switch
            checked={form.uploadNotification}
            label={t('uploader:receive.switch_upload_notification')}
            testId="request-upload-notification"
            onChange={set('uploadNotification')}
          />
          {s1 && (
            <Switch
              checked={form.expiryReminder}
              label={t('uploader:receive.switch_expiry_reminder')}
              testId="request-expiry-reminder"
              onChange={set('expiryReminder')}
            />
          )}
        </fieldset>
      )}

      <details className="request-more" open={customIdError !== null || undefined}>
        <summary data-testid="request-more">{t('uploader:receive.more_options')}</summary>
        <div className="field">
          <label htmlFor={`${id}-custom-id`}>{t('uploader:receive.field_custom_id')}</label>
          <div className="input-prefixed">
            <span className="input-prefix" aria-hidden="true">
              /r/
            </span>
            <input
              id={`${id}-custom-id`}
              type="text"
              value={form.customId}
              maxLength={40}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={customIdError ? true : undefined}
              aria-describedby={`${id}-custom-id-hint${customIdError ? ` ${id}-custom-id-error` : ''}`}
              onChange={(e) => set('customId')(e.target.value)}
              data-testid="request-custom-id"
            />
          </div>
          <p className="field-hint" id={`${id}-custom-id-hint`} data-testid="request-custom-id-hint">
            {form.customId.trim() && !problems.invalidCustomId
              ? t('uploader:receive.custom_id_preview', {
                  link: `${origin}/r/${form.customId.trim().toLowerCase()}`,
                })
              : t('uploader:receive.custom_id_hint')}
          </p>
          {customIdError && (
            <p
              className="field-error"
              id={`${id}-custom-id-error`}
              role="alert"
              data-testid="request-custom-id-error"
            >
              {customIdError}
            </p>
          )}
        </div>

        {team.length > 0 ? (
          <TeamExtensions team={team} value={form.allowedExtensions} onChange={set('allowedExtensions')} />
        ) : (
          <div className="field">
            <label htmlFor={`${id}-extensions`}>{t('uploader:receive.extensions_label')}</label>
            <input
              id={`${id}-extensions`}
              type="text"
              value={form.allowedExtensions}
              autoCapitalize="off"
              autoComplete="off"
              spellCheck={false}
              placeholder={t('uploader:receive.extensions_placeholder')}
              aria-invalid={problems.invalidExtensions.length > 0 || undefined}
              aria-describedby={`${id}-extensions-hint${problems.invalidExtensions.length > 0 ? ` ${id}-extensions-error` : ''}`}
              onChange={(e) => set('allowedExtensions')(e.target.value)}
              data-testid="request-extensions"
            />
            <p className="field-hint" id={`${id}-extensions-hint`}>
              {t('uploader:receive.extensions_hint')}
            </p>
            {problems.invalidExtensions.length > 0 && (
              <p className="field-error" id={`${id}-extensions-error`}>
                {t('uploader:receive.extensions_invalid', { list: problems.invalidExtensions.join(', ') })}
              </p>
            )}
          </div>
        )}

        {settings.receiveAllowCustomization && (
          <fieldset className="fieldset">
            <legend>{t('uploader:receive.customization_legend')}</legend>
            <Switch
              checked={form.customize}
              label={t('uploader:receive.customize')}
              testId="request-customize"
              onChange={set('customize')}
            />
            {form.customize && (
              <div className="receive-colours">
                {COLOURS.map((colour) => (
                  <div className="field" key={colour}>
                    <label htmlFor={`${id}-${colour}`}>{t(`uploader:receive.colour_${colour}`)}</label>
                    <input
                      id={`${id}-${colour}`}
                      type="color"
                      value={form[colour]}
                      onChange={(e) => set(colour)(e.target.value)}
                      data-testid={`request-${colour}`}
                    />
                  </div>
                ))}
              </div>
            )}
          </fieldset>
        )}
      </details>

      <div className="panel-actions">
        <button
          type="submit"
          className="button button-start"
          data-testid="request-submit"
          disabled={blockingRequestProblems(problems) || busy}
        >
          {t(s1 ? 'uploader:receive.submit_S1' : 'uploader:receive.submit_S2')}
        </button>
      </div>
    </form>
  );
}
