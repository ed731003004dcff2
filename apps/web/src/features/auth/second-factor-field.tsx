import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from './field-error';

/**
 * The code of a second factor, asked once the server answered SECOND_FACTOR_REQUIRED (sign-in, new password):
 * a 6-digit code of the authenticator app ("123 456" works) or a recovery code.
 */
export function SecondFactorField({
  id,
  inputRef,
  value,
  onChange,
  error,
  testId,
}: {
  id: string;
  inputRef: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  /** `<testId>-second-factor` on the field, `<testId>-code` on the input. */
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="field" data-testid={`${testId}-second-factor`}>
      <label htmlFor={`${id}-code`}>{t('auth:code_label')}</label>
      <input
        ref={inputRef}
        id={`${id}-code`}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={40}
        required
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-code-hint${error ? ` ${id}-code-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
        data-testid={`${testId}-code`}
      />
      <p className="field-hint" id={`${id}-code-hint`}>
        {t('auth:code_hint')}
      </p>
      <FieldError id={`${id}-code-error`} text={error} />
    </div>
  );
}
