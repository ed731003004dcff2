import { Email } from '@ferry/core';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PasswordInput } from '../../components/password-input';
import { PRODUCT_NAME } from '../../lib/config';
import { afterSignInPath } from '../billing/plan-labels';
import { RequiredSecondFactorSetup } from '../team-admin/required-second-factor';
import { AuthCard } from './auth-card';
import { useAuth } from './auth-context';
import { normaliseCode, safeNextPath } from './auth-errors';
import { EmailField } from './email-field';
import { FieldError } from './field-error';
import { OidcProviders, oidcErrorKey } from './oidc-providers';
import { SecondFactorField } from './second-factor-field';
import { AuthProblemMessage, useAuthSubmit } from './use-auth-submit';

/**
 * `/signin?next=…`: e-mail, password, "Stay signed in" (a 14-day session instead of one day), and the code
 * of a second factor when the server asks for it; or one of the server's OpenID Connect providers, whose
 * failures come back as `?error=<code>`. Signed in, it goes to `next` (a path of this site) or `/`.
 */
export function SignInPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [search] = useSearchParams();
  const next = safeNextPath(search.get('next'));
  const oidcError = oidcErrorKey(search.get('error'));
  const id = useId();
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stay, setStay] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string; code?: string }>({});
  const submit = useAuthSubmit();
  const codeInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (submit.needsCode) codeInput.current?.focus();
  }, [submit.needsCode]);

  if (auth.user) return <Navigate to={afterSignInPath(next, auth.state)} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || submit.blocked) return;
    const errors: typeof fieldErrors = {};
    if (!Email.safeParse(email).success) errors.email = t('auth:email_invalid');
    if (password === '') errors.password = t('auth:password_missing');
    const totp = normaliseCode(code);
    if (submit.needsCode && totp === '') errors.code = t('auth:code_missing');
    setFieldErrors(errors);
    if (errors.email) return emailInput.current?.focus();
    if (errors.password) return passwordInput.current?.focus();
    if (errors.code) return codeInput.current?.focus();
    const withCode = submit.needsCode;
    await submit.run(
      () =>
        auth.signIn({
          email: email.trim(),
          password,
          totp: withCode ? totp : undefined,
          staySignedIn: stay,
        }),
      withCode,
    );
  };

  const forgotHref = email.trim()
    ? `/forgot-password?email=${encodeURIComponent(email.trim())}`
    : '/forgot-password';
  return (
    <AuthCard title={t('auth:signin_title')} testId="page-signin">
      {submit.setupToken ? (
        <RequiredSecondFactorSetup
          setupToken={submit.setupToken}
          onSignedIn={(idToken) => submit.run(() => auth.startSession(idToken, stay))}
        />
      ) : (
        <>
          <p className="muted">{t('auth:signin_intro', { product: PRODUCT_NAME })}</p>
          {oidcError && !submit.problem && (
            <p className="notice notice-error" role="alert" data-testid="signin-oidc-error">
              {t(oidcError)}
            </p>
          )}
          {auth.endedBy === 'expired' && !submit.problem && (
            <p className="notice" role="status" data-testid="signin-session-ended">
              {t('auth:session_ended')}
            </p>
          )}
          <form
            className="auth-form"
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            data-testid="signin-form"
          >
            <EmailField
              id={id}
              inputRef={emailInput}
              autoComplete="username"
              value={email}
              readOnly={submit.needsCode}
              onChange={setEmail}
              error={fieldErrors.email ?? null}
              testId="signin-email"
            />
            <div className="field">
              <div className="field-label-row">
                <label htmlFor={`${id}-password`}>{t('auth:password_label')}</label>
                <Link to={forgotHref} className="field-link" data-testid="signin-forgot">
                  {t('auth:forgot_link')}
                </Link>
              </div>
              <PasswordInput
                id={`${id}-password`}
                inputRef={passwordInput}
                autoComplete="current-password"
                required
                maxLength={256}
                value={password}
                onValueChange={setPassword}
                aria-invalid={fieldErrors.password ? true : undefined}
                aria-describedby={fieldErrors.password ? `${id}-password-error` : undefined}
                testId="signin-password"
              />
              <FieldError id={`${id}-password-error`} text={fieldErrors.password ?? null} />
            </div>
            {submit.needsCode && (
              <SecondFactorField
                id={id}
                inputRef={codeInput}
                value={code}
                onChange={setCode}
                error={fieldErrors.code ?? null}
                testId="signin"
              />
            )}
            <label className="checkbox">
              <input
                type="checkbox"
                checked={stay}
                onChange={(event) => setStay(event.target.checked)}
                aria-describedby={`${id}-stay-hint`}
                data-testid="signin-stay"
              />
              <span>{t('auth:stay_signed_in')}</span>
            </label>
            <p className="field-hint checkbox-hint" id={`${id}-stay-hint`}>
              {t('auth:stay_signed_in_hint')}
            </p>
            {submit.problem && (
              <AuthProblemMessage
                problem={submit.problem}
                email={email.trim()}
                waitSeconds={submit.waitSeconds}
                testId="signin-error"
              />
            )}
            <button
              type="submit"
              className="button button-primary button-block"
              disabled={submit.busy || submit.blocked}
              aria-busy={submit.busy || undefined}
              data-testid="signin-submit"
            >
              {t(submit.busy ? 'auth:signin_busy' : 'auth:signin_button')}
            </button>
          </form>
          <OidcProviders next={next} staySignedIn={stay} intent="signin" />
          <p className="auth-switch">
            {t('auth:no_account')}{' '}
            <Link to="/register" data-testid="signin-register">
              {t('auth:register_link')}
            </Link>
          </p>
        </>
      )}
    </AuthCard>
  );
}
