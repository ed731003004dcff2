import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../../components/password-input';
import { formatDateTime } from '../../lib/format';
import { useToast } from '../toasts/toast-context';
import { lastStaySignedIn, useAuth } from './auth-context';
import { normaliseCode } from './auth-errors';
import { AuthProblemMessage, useAuthSubmit } from './use-auth-submit';

/**
 * The spec §4 "sign back in" modal, shown by the expiry check when the session ends within 12 hours:
 * the password (and second factor) again gives a new session without leaving the page.
 */
export function SignBackInDialog() {
  const auth = useAuth();
  if (!auth.signBackIn || !auth.user) return null;
  return <SignBackInForm expiresAt={auth.signBackIn.expiresAt} email={auth.user.email} />;
}

function SignBackInForm({ expiresAt, email }: { expiresAt: number; email: string }) {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stay, setStay] = useState(lastStaySignedIn);
  const submit = useAuthSubmit();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    passwordInput.current?.focus();
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
      previous?.focus();
    };
  }, []);

  useEffect(() => {
    if (submit.needsCode) codeInput.current?.focus();
  }, [submit.needsCode]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || submit.blocked || password === '') return;
    const withCode = submit.needsCode;
    const done = await submit.run(
      () =>
        auth.renewSession({
          password,
          totp: withCode ? normaliseCode(code) : undefined,
          staySignedIn: stay,
        }),
      withCode,
    );
    if (done) toast.show(t('auth:sign_back_in_done'), 'success');
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        // Escape: same as "Not now".
        event.preventDefault();
        auth.dismissSignBackIn();
      }}
      data-testid="sign-back-in"
    >
      <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <h2 id={`${id}-title`} className="panel-title">
          {t('auth:sign_back_in_title')}
        </h2>
        <p id={`${id}-text`} className="muted">
          {t('auth:sign_back_in_text', { date: formatDateTime(new Date(expiresAt), i18n.language), email })}
        </p>
        <input type="email" hidden readOnly autoComplete="username" value={email} />
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('auth:password_label')}</label>
          <PasswordInput
            id={`${id}-password`}
            inputRef={passwordInput}
            autoComplete="current-password"
            required
            maxLength={256}
            value={password}
            onValueChange={setPassword}
            testId="sign-back-in-password"
          />
        </div>
        {submit.needsCode && (
          <div className="field">
            <label htmlFor={`${id}-code`}>{t('auth:code_label')}</label>
            <input
              ref={codeInput}
              id={`${id}-code`}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={40}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              data-testid="sign-back-in-code"
            />
          </div>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={stay}
            onChange={(event) => setStay(event.target.checked)}
            data-testid="sign-back-in-stay"
          />
          <span>{t('auth:stay_signed_in')}</span>
        </label>
        {submit.problem && (
          <AuthProblemMessage
            problem={submit.problem}
            email={email}
            waitSeconds={submit.waitSeconds}
            testId="sign-back-in-error"
          />
        )}
        <div className="auth-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={auth.dismissSignBackIn}
            data-testid="sign-back-in-later"
          >
            {t('auth:sign_back_in_later')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={submit.busy || submit.blocked || password === ''}
            aria-busy={submit.busy || undefined}
            data-testid="sign-back-in-submit"
          >
            {t('auth:sign_back_in_button')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
