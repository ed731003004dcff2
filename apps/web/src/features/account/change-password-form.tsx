import { Password } from '@ferry/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { PasswordInput } from '../../components/password-input';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { changePassword } from '../../lib/auth-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { FieldError } from '../auth/field-error';
import { PasswordHint } from '../auth/password-hint';
import { passwordStrength } from '../auth/password-strength';
import { useToast } from '../toasts/toast-context';

interface Fields {
  current?: string;
  next?: string;
}

/**
 * "Change password": the current one and a new one (with the strength hint). The server signs out every other
 * session of the account; the toast says so (and how many).
 */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const describe = useDescribeError();
  const queryClient = useQueryClient();
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Fields>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const currentInput = useRef<HTMLInputElement>(null);
  const nextInput = useRef<HTMLInputElement>(null);
  const strength = passwordStrength(next, [auth.user?.email ?? '', auth.user?.displayName ?? '']);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const errors: Fields = {};
    if (current === '') errors.current = t('account:password_current_missing');
    if (!Password.safeParse(next).success) {
      errors.next = next.length > 256 ? t('auth:password_too_long') : t('auth:password_too_short');
    } else if (next === current) {
      errors.next = t('account:password_same');
    }
    setFieldErrors(errors);
    setProblem(null);
    if (errors.current) return currentInput.current?.focus();
    if (errors.next) return nextInput.current?.focus();
    setBusy(true);
    try {
      const revoked = await changePassword({ currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      toast.show(
        revoked > 0 ? t('account:password_changed', { count: revoked }) : t('account:password_changed_alone'),
        'success',
      );
      void queryClient.invalidateQueries({ queryKey: [ACCOUNT_QUERY_KEY, auth.user?.uid ?? '', 'sessions'] });
    } catch (error) {
      if (error instanceof ApiError && error.hasCode('INVALID_CREDENTIALS')) {
        setFieldErrors({ current: t('account:password_current_wrong') });
        currentInput.current?.focus();
      } else if (error instanceof ApiError && error.details.reason === 'NO_PASSWORD') {
        // An account made through a sign-in provider has no password to change: it can set one by reset link.
        setProblem(t('account:password_none'));
      } else {
        setProblem(describe(error));
        if (error instanceof ApiError && error.status === 401) void auth.reload();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="auth-form account-form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      data-testid="password-form"
    >
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" hidden autoComplete="username" value={auth.user?.email ?? ''} readOnly />
      <div className="field">
        <label htmlFor={`${id}-current`}>{t('account:password_current_label')}</label>
        <PasswordInput
          id={`${id}-current`}
          inputRef={currentInput}
          autoComplete="current-password"
          required
          maxLength={256}
          value={current}
          onValueChange={setCurrent}
          aria-invalid={fieldErrors.current ? true : undefined}
          aria-describedby={fieldErrors.current ? `${id}-current-error` : undefined}
          testId="password-current"
        />
        <FieldError
          id={`${id}-current-error`}
          text={fieldErrors.current ?? null}
          testId="password-current-error"
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-next`}>{t('account:password_new_label')}</label>
        <PasswordInput
          id={`${id}-next`}
          inputRef={nextInput}
          autoComplete="new-password"
          required
          minLength={10}
          maxLength={256}
          value={next}
          onValueChange={setNext}
          aria-invalid={fieldErrors.next ? true : undefined}
          aria-describedby={`${id}-strength${fieldErrors.next ? ` ${id}-next-error` : ''}`}
          testId="password-new"
        />
        <PasswordHint id={`${id}-strength`} strength={strength} testId="password-strength" />
        <FieldError id={`${id}-next-error`} text={fieldErrors.next ?? null} testId="password-new-error" />
      </div>
      <p className="field-hint">{t('account:password_others_signed_out')}</p>
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="password-error">
          <AlertIcon /> {problem}
        </p>
      )}
      <div>
        <button
          type="submit"
          className="button button-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid="password-submit"
        >
          {t(busy ? 'account:password_busy' : 'account:password_submit')}
        </button>
      </div>
    </form>
  );
}
