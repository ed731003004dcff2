import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { PasswordInput } from '../../components/password-input';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { normaliseCode } from '../auth/auth-errors';
import { FieldError } from '../auth/field-error';

/**
 * One field that proves it is you — a 6-digit code of the authenticator app, or the password — and a submit
 * button; focused when it appears. A wrong code or password is told under the field, anything else above the
 * buttons (a 429 with its wait).
 */
export function SecretForm({
  kind,
  label,
  hint,
  submitLabel,
  danger = false,
  onSubmit,
  onCancel,
  testId,
}: {
  kind: 'code' | 'password';
  label: string;
  hint?: string;
  submitLabel: string;
  danger?: boolean;
  onSubmit: (value: string) => Promise<void>;
  onCancel?: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const given = kind === 'code' ? normaliseCode(value) : value;
    setProblem(null);
    if (kind === 'code' && !/^\d{6}$/.test(given)) {
      setFieldError(t('account:totp_code_invalid'));
      return input.current?.focus();
    }
    if (kind === 'password' && given === '') {
      setFieldError(t('auth:password_missing'));
      return input.current?.focus();
    }
    setFieldError(null);
    setBusy(true);
    try {
      await onSubmit(given);
    } catch (error) {
      if (error instanceof ApiError && error.hasCode('SECOND_FACTOR_REQUIRED')) {
        setFieldError(t('auth:error_wrong_code'));
        input.current?.focus();
      } else if (error instanceof ApiError && error.hasCode('INVALID_CREDENTIALS')) {
        setFieldError(t('account:password_wrong'));
        input.current?.focus();
      } else {
        setProblem(describe(error));
      }
    } finally {
      setBusy(false);
    }
  };

  const describedBy = [hint ? `${id}-hint` : '', fieldError ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form
      className="auth-form secret-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      data-testid={testId}
    >
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {kind === 'code' ? (
          <input
            ref={input}
            id={id}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={12}
            className="code-input"
            value={value}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={describedBy || undefined}
            onChange={(event) => setValue(event.target.value)}
            data-testid={`${testId}-input`}
          />
        ) : (
          <PasswordInput
            id={id}
            inputRef={input}
            autoComplete="current-password"
            maxLength={256}
            value={value}
            onValueChange={setValue}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={describedBy || undefined}
            testId={`${testId}-input`}
          />
        )}
        {hint && (
          <p className="field-hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
        <FieldError id={`${id}-error`} text={fieldError} testId={`${testId}-error`} />
      </div>
      {problem && (
        <p className="notice notice-error" role="alert" data-testid={`${testId}-problem`}>
          <AlertIcon /> {problem}
        </p>
      )}
      <div className="auth-actions secret-form-actions">
        {onCancel && (
          <button
            type="button"
            className="button button-secondary"
            onClick={onCancel}
            data-testid={`${testId}-cancel`}
          >
            {t('common:cancel')}
          </button>
        )}
        <button
          type="submit"
          className={`button ${danger ? 'button-danger' : 'button-primary'}`}
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid={`${testId}-submit`}
        >
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
