import { Email } from '@ferry/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { MailIcon } from '../../components/icons';
import { useCountdown } from '../../hooks/use-countdown';
import { forgotPassword } from '../../lib/auth-api';
import { AuthCard } from './auth-card';
import { type AuthProblem, authProblem } from './auth-errors';
import { EmailField } from './email-field';
import { AuthProblemMessage } from './use-auth-submit';

/** `/forgot-password`: mails a link to choose a new password (the answer never says whether the account exists). */
export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation();
  const [search] = useSearchParams();
  const id = useId();
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<AuthProblem | null>(null);
  const [retryUntil, setRetryUntil] = useState<number | null>(null);
  const waitSeconds = useCountdown(retryUntil);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const blocked = problem?.kind === 'rate_limited' && waitSeconds > 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || blocked) return;
    const address = email.trim();
    if (!Email.safeParse(address).success) {
      setEmailError(t('auth:email_invalid'));
      input.current?.focus();
      return;
    }
    setEmailError(null);
    setBusy(true);
    setProblem(null);
    try {
      await forgotPassword(address, i18n.language);
      setSentTo(address);
    } catch (error) {
      const found = authProblem(error);
      if (found.kind === 'rate_limited' && found.retryAfterSeconds !== null) {
        setRetryUntil(Date.now() + found.retryAfterSeconds * 1000);
      }
      setProblem(found);
    } finally {
      setBusy(false);
    }
  };

  if (sentTo !== null) {
    return (
      <AuthCard title={t('auth:forgot_sent_title')} testId="page-forgot-password" state="sent">
        <div className="message-icon" aria-hidden="true">
          <MailIcon width={40} height={40} />
        </div>
        <p role="status" data-testid="forgot-sent">
          {t('auth:forgot_sent_text', { email: sentTo })}
        </p>
        <p className="muted">{t('auth:register_sent_spam')}</p>
        <div className="auth-actions">
          <Link to="/signin" className="button button-secondary">
            {t('auth:back_to_signin')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth:forgot_title')} testId="page-forgot-password" state="form">
      <p className="muted">{t('auth:forgot_intro')}</p>
      <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <EmailField
          id={id}
          inputRef={input}
          value={email}
          onChange={setEmail}
          error={emailError}
          testId="forgot-email"
        />
        {problem && <AuthProblemMessage problem={problem} waitSeconds={waitSeconds} testId="forgot-error" />}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={busy || blocked}
          aria-busy={busy || undefined}
          data-testid="forgot-submit"
        >
          {t('auth:forgot_button')}
        </button>
      </form>
      <p className="auth-switch">
        <Link to="/signin">{t('auth:back_to_signin')}</Link>
      </p>
    </AuthCard>
  );
}
