import { Password } from '@ferry/core';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { PasswordInput } from '../../components/password-input';
import { resetPassword } from '../../lib/auth-api';
import { useToast } from '../toasts/toast-context';
import { AuthCard } from './auth-card';
import { lastStaySignedIn, useAuth } from './auth-context';
import { normaliseCode } from './auth-errors';
import { FieldError } from './field-error';
import { PasswordHint } from './password-hint';
import { passwordStrength } from './password-strength';
import { SecondFactorField } from './second-factor-field';
import { AuthProblemMessage, useAuthSubmit } from './use-auth-submit';

/**
 * `/reset-password?token=…`: a new password from the mailed link. The server signs out every session of
 * the account; this browser is then signed in with the new password. An account with a second factor is asked
 * its code (or a recovery code) first, as at sign-in: the mailbox alone is not enough.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token')?.trim() ?? '';
  const id = useId();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const submit = useAuthSubmit();
  const input = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (submit.needsCode) codeInput.current?.focus();
  }, [submit.needsCode]);
  const strength = passwordStrength(password, auth.user ? [auth.user.email] : []);

  const invalid = token === '' || submit.problem?.kind === 'invalid_token';
  if (invalid) {
    return (
      <AuthCard title={t('auth:reset_invalid_title')} testId="page-reset-password" state="invalid">
        <div className="message-icon" aria-hidden="true">
          <AlertIcon width={40} height={40} />
        </div>
        <p
          className="notice notice-error"
          role="alert"
          data-testid="reset-error"
          data-problem="invalid_token"
        >
          {t('auth:reset_invalid_text')}
        </p>
        <div className="auth-actions">
          <Link to="/forgot-password" className="button button-primary" data-testid="reset-new-link">
            {t('auth:reset_new_link')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || submit.blocked) return;
    if (!Password.safeParse(password).success) {
      setPasswordError(password.length > 256 ? t('auth:password_too_long') : t('auth:password_too_short'));
      input.current?.focus();
      return;
    }
    setPasswordError(null);
    const totp = normaliseCode(code);
    const withCode = submit.needsCode;
    if (withCode && totp === '') {
      setCodeError(t('auth:code_missing'));
      codeInput.current?.focus();
      return;
    }
    setCodeError(null);
    const done = await submit.run(async () => {
      const { idToken } = await resetPassword(token, password, withCode ? totp : undefined);
      return auth.startSession(idToken, lastStaySignedIn());
    }, withCode);
    if (done) {
      toast.show(t('auth:reset_done'), 'success');
      await navigate('/', { replace: true });
    }
  };

  return (
    <AuthCard title={t('auth:reset_title')} testId="page-reset-password" state="form">
      <p className="muted">{t('auth:reset_intro')}</p>
      <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('auth:new_password_label')}</label>
          <PasswordInput
            id={`${id}-password`}
            inputRef={input}
            autoComplete="new-password"
            required
            minLength={10}
            maxLength={256}
            value={password}
            onValueChange={setPassword}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={`${id}-strength${passwordError ? ` ${id}-password-error` : ''}`}
            testId="reset-password"
          />
          <PasswordHint id={`${id}-strength`} strength={strength} testId="reset-strength" />
          <FieldError id={`${id}-password-error`} text={passwordError} />
        </div>
        {submit.needsCode && (
          <SecondFactorField
            id={id}
            inputRef={codeInput}
            value={code}
            onChange={setCode}
            error={codeError}
            testId="reset"
          />
        )}
        {submit.problem && (
          <AuthProblemMessage
            problem={submit.problem}
            waitSeconds={submit.waitSeconds}
            testId="reset-error"
          />
        )}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={submit.busy || submit.blocked}
          aria-busy={submit.busy || undefined}
          data-testid="reset-submit"
        >
          {t('auth:reset_button')}
        </button>
      </form>
    </AuthCard>
  );
}
