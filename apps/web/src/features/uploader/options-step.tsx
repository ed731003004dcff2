import { addDays, type PlanLimits } from '@ferry/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from '../../components/icons';
import { formatDate } from '../../lib/format';
import { fromLocalInput } from '../../lib/local-datetime';
import { LinkPreviewFields } from './link-preview-fields';
import { NotificationSwitches } from './notification-switches';
import { PageCustomization } from './page-customization';
import { RecipientsInput } from './recipients-input';
import { SenderFields } from './sender-fields';
import {
  type FormField,
  type FormProblems,
  type FormSettings,
  needsSenderEmail,
  passwordShown,
  type TransferForm,
  type UploaderAction,
  type UploadType,
} from './uploader-state';
import { AvailableFromField, CustomLinkField } from './window-fields';

interface OptionsStepProps {
  type: UploadType;
  form: TransferForm;
  problems: FormProblems;
  limits: Pick<PlanLimits, 'messageLength' | 'fileValidityInDays' | 'recipients'>;
  /** The uploader settings that hide or require options (spec §3 uploaderSettings). */
  settings: FormSettings;
  dispatch: (action: UploaderAction) => void;
  onBack: () => void;
  onStart: () => void;
  busy: boolean;
  /** A paying plan: the custom-link field is offered, and for a link the link-preview fields. */
  paying?: boolean;
  /** The custom link the server refused as taken, shown under the field while it is still the one typed. */
  takenLink?: string | null;
  /** Offered to paying senders allowed to customize (spec §3 `customization`); null: not offered. */
  customization?: {
    wallpapers: readonly string[];
    themeColors: { backgroundColor: string; actionColor: string; startbtnColor: string };
  } | null;
  /** The account's label for the recipients field (its theme's uploader.recipientLabel). */
  recipientLabel?: string | null;
}

/** Problems that keep the Transfer button disabled: each is already shown next to its field. */
export function blockingProblems(problems: FormProblems): boolean {
  return (
    problems.messageTooLong ||
    problems.invalidEmail ||
    problems.invalidMaxDownloads ||
    problems.invalidExpiry ||
    problems.tooManyRecipients ||
    problems.customLink !== null ||
    problems.availableFromPast ||
    problems.ogTitle !== null ||
    problems.ogDescription !== null
  );
}

/** Something required is missing: said when the sender tries to go on, the first such field is focused. */
function missingProblems(problems: FormProblems): boolean {
  return (
    problems.noRecipients ||
    problems.recipientsDraftLeft ||
    problems.senderEmailRequired ||
    problems.passwordRequired
  );
}

/** The field to focus for the first missing thing, in the order of the form (the sender comes last for S2). */
function firstMissing(problems: FormProblems, type: UploadType): string {
  if (problems.noRecipients || problems.recipientsDraftLeft) return '[data-testid="recipients-input"]';
  const sender = '[data-testid="sender-email"]';
  if (type === 'S1' && problems.senderEmailRequired) return sender;
  return problems.passwordRequired ? '[data-testid="transfer-password"]' : sender;
}

/**
 * Step 2: for S1 the recipients first; then the transfer's name, message, expiry, download limit, password,
 * preview, the e-mails it sends, and the sender.
 */
export function OptionsStep({
  type,
  form,
  problems,
  limits,
  settings,
  dispatch,
  onBack,
  onStart,
  busy,
  paying = false,
  takenLink = null,
  customization = null,
  recipientLabel = null,
}: OptionsStepProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [showPassword, setShowPassword] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const set = (field: FormField) => (value: string | number | boolean) =>
    dispatch({ type: 'setField', field, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || blockingProblems(problems)) return;
    if (missingProblems(problems)) {
      setAttempted(true);
      formRef.current?.querySelector<HTMLElement>(firstMissing(problems, type))?.focus();
      return;
    }
    onStart();
  };
  const days = Array.from({ length: limits.fileValidityInDays }, (_, i) => i + 1);
  // The validity counts from the opening when there is one (as the server counts it).
  const opens = problems.availableFromPast ? null : fromLocalInput(form.availableFrom);
  const expiry = formatDate(addDays(opens ?? new Date(), form.expiresInDays), i18n.language);
  const over = form.message.length > limits.messageLength;
  const passwordMissing = attempted && problems.passwordRequired;
  const sender = (
    <SenderFields
      id={id}
      form={form}
      problems={problems}
      emailRequired={needsSenderEmail(form, type)}
      attempted={attempted}
      set={set}
    />
  );

  return (
    <form className="options-form" onSubmit={submit} noValidate ref={formRef}>
      {type === 'S1' && (
        <>
          <RecipientsInput
            recipients={form.recipients}
            draft={form.recipientsDraft}
            max={limits.recipients}
            missing={attempted}
            label={recipientLabel ?? undefined}
            onChange={(recipients, draft) => dispatch({ type: 'setRecipients', recipients, draft })}
          />
          {sender}
        </>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('uploader:field_name')}</label>
        <input
          id={`${id}-name`}
          type="text"
          value={form.name}
          autoComplete="off"
          maxLength={255}
          placeholder={t('uploader:field_name_placeholder')}
          onChange={(e) => set('name')(e.target.value)}
          data-testid="transfer-name"
        />
      </div>

      <div className="field">
        <div className="field-label-row">
          <label htmlFor={`${id}-message`}>{t('uploader:field_message')}</label>
          <span id={`${id}-counter`} className={`counter${over ? ' is-over' : ''}`}>
            {t('uploader:message_counter', { length: form.message.length, max: limits.messageLength })}
          </span>
        </div>
        <textarea
          id={`${id}-message`}
          value={form.message}
          rows={3}
          placeholder={t('uploader:field_message_placeholder')}
          aria-describedby={`${id}-counter`}
          aria-invalid={over || undefined}
          onChange={(e) => set('message')(e.target.value)}
          data-testid="transfer-message"
        />
        {over && (
          <p className="field-error" role="alert">
            {t('errors:limit.messageLength', { max: limits.messageLength, actual: form.message.length })}
          </p>
        )}
      </div>

      <div className="field-grid">
        <div className="field">
          <label htmlFor={`${id}-expiry`}>{t('uploader:field_expiry')}</label>
          <select
            id={`${id}-expiry`}
            value={form.expiresInDays}
            aria-describedby={`${id}-expiry-hint`}
            onChange={(e) => set('expiresInDays')(Number(e.target.value))}
            data-testid="transfer-expiry"
          >
            {days.map((d) => (
              <option key={d} value={d}>
                {t('uploader:days', { count: d })}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${id}-expiry-hint`}>
            {t('uploader:expires_on', { date: expiry })}
          </p>
        </div>
        {settings.downloadLimitOpt && (
          <div className="field">
            <label htmlFor={`${id}-max`}>{t('uploader:field_max_downloads')}</label>
            <input
              id={`${id}-max`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={form.maxDownloads}
              placeholder={t('uploader:field_max_downloads_placeholder')}
              aria-invalid={problems.invalidMaxDownloads || undefined}
              aria-describedby={problems.invalidMaxDownloads ? `${id}-max-error` : undefined}
              onChange={(e) => set('maxDownloads')(e.target.value)}
              data-testid="transfer-max-downloads"
            />
            {problems.invalidMaxDownloads && (
              <p className="field-error" id={`${id}-max-error`}>
                {t('uploader:invalid_max_downloads')}
              </p>
            )}
          </div>
        )}
      </div>

      <AvailableFromField form={form} problems={problems} set={set} />
      {paying && <CustomLinkField form={form} problems={problems} taken={takenLink} set={set} />}

      {passwordShown(settings) && (
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('uploader:field_password')}</label>
          <div className="input-with-button">
            <input
              id={`${id}-password`}
              type={showPassword ? 'text' : 'password'}
              value={form.password}
              autoComplete="new-password"
              maxLength={256}
              placeholder={t(
                settings.requirePassword
                  ? 'uploader:field_password_placeholder_required'
                  : 'uploader:field_password_placeholder',
              )}
              required={settings.requirePassword}
              aria-invalid={passwordMissing || undefined}
              aria-describedby={passwordMissing ? `${id}-password-error` : undefined}
              onChange={(e) => set('password')(e.target.value)}
              data-testid="transfer-password"
            />
            <button
              type="button"
              className="icon-button"
              aria-pressed={showPassword}
              aria-label={t(showPassword ? 'common:hide_password' : 'common:show_password')}
              onClick={() => setShowPassword((v) => !v)}
            >
              {showPassword ? <EyeOffIcon /> : <EyeIcon />}
            </button>
          </div>
          {passwordMissing && (
            <p className="field-error" id={`${id}-password-error`} data-testid="password-error">
              {t('uploader:password_required')}
            </p>
          )}
        </div>
      )}

      {settings.filePreviewOpt && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.allowPreview}
            onChange={(e) => set('allowPreview')(e.target.checked)}
            data-testid="transfer-allow-preview"
          />
          <span>{t('uploader:field_allow_preview')}</span>
        </label>
      )}

      {customization && (
        <PageCustomization
          form={form}
          set={set}
          wallpapers={customization.wallpapers}
          themeColors={customization.themeColors}
        />
      )}

      {paying && type === 'S2' && (
        <LinkPreviewFields
          form={form}
          problems={problems}
          passwordProtected={passwordShown(settings) && form.password !== ''}
          set={set}
        />
      )}

      <NotificationSwitches type={type} form={form} settings={settings} set={set} />

      {type === 'S2' && sender}

      <div className="panel-actions">
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('common:back')}
        </button>
        <button
          type="submit"
          className="button button-start"
          data-testid="start-upload"
          disabled={blockingProblems(problems) || busy}
        >
          {t(type === 'S1' ? 'uploader:start_send' : 'uploader:start_upload')}
        </button>
      </div>
    </form>
  );
}
