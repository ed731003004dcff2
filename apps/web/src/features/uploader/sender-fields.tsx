import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context';
import { addressKey } from './recipients';
import type { FormField, FormProblems, TransferForm } from './uploader-state';

interface SenderFieldsProps {
  id: string;
  form: TransferForm;
  problems: FormProblems;
  /** Ferry writes to the sender (S1, or download confirmations of a link): the e-mail is required. */
  emailRequired: boolean;
  /** The sender tried to go on: missing required fields now say so. */
  attempted: boolean;
  set: (field: FormField) => (value: string | number | boolean) => void;
}

/** "About you": the sender's e-mail and name, kept in this browser (spec §3 local storage). */
export function SenderFields({ id, form, problems, emailRequired, attempted, set }: SenderFieldsProps) {
  const { t } = useTranslation();
  const account = useAuth().user;
  const asAccount = account !== null && addressKey(account.email) === addressKey(form.senderEmail);
  const missing = attempted && problems.senderEmailRequired;
  const emailError = problems.invalidEmail
    ? t('uploader:invalid_email')
    : missing
      ? t('uploader:sender_email_required')
      : null;
  return (
    <fieldset className="fieldset">
      <legend>{t('uploader:sender_legend')}</legend>
      <div className="field-grid">
        <div className="field">
          <label htmlFor={`${id}-email`}>
            {t(emailRequired ? 'uploader:field_sender_email_required' : 'uploader:field_sender_email')}
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            value={form.senderEmail}
            maxLength={320}
            required={emailRequired}
            aria-required={emailRequired || undefined}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${id}-email-error` : undefined}
            onChange={(e) => set('senderEmail')(e.target.value)}
            data-testid="sender-email"
          />
          {emailError && (
            <p className="field-error" id={`${id}-email-error`} role={missing ? 'alert' : undefined}>
              {emailError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-sender`}>{t('uploader:field_sender_name')}</label>
          <input
            id={`${id}-sender`}
            type="text"
            autoComplete="name"
            value={form.senderName}
            maxLength={200}
            onChange={(e) => set('senderName')(e.target.value)}
            data-testid="sender-name"
          />
        </div>
      </div>
      <p className="field-hint" data-testid="sender-hint">
        {t(
          asAccount
            ? 'uploader:sender_hint_account'
            : emailRequired
              ? 'uploader:sender_hint_verified'
              : 'uploader:sender_hint',
        )}
      </p>
    </fieldset>
  );
}
