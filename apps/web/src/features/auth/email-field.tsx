import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from './field-error';

/**
 * The e-mail address of the sign-in, register and forgotten-password forms: `<id>-email`, its error under it
 * as `<id>-email-error`.
 */
export function EmailField({
  id,
  inputRef,
  value,
  onChange,
  error,
  autoComplete = 'email',
  readOnly,
  testId,
}: {
  id: string;
  inputRef: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  /** `username` where the address names an account to sign in to. */
  autoComplete?: 'email' | 'username';
  readOnly?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={`${id}-email`}>{t('auth:email_label')}</label>
      <input
        ref={inputRef}
        id={`${id}-email`}
        type="email"
        autoComplete={autoComplete}
        inputMode="email"
        maxLength={320}
        required
        value={value}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-email-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
      <FieldError id={`${id}-email-error`} text={error} />
    </div>
  );
}
