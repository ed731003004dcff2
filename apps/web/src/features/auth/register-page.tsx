import { BILLING_FREQUENCIES, ChosenPlan, Email, Password, SELF_SERVICE_PLAN_CODES } from '@ferry/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { CheckIcon, MailIcon } from '../../components/icons';
import { PasswordInput } from '../../components/password-input';
import { useCountdown } from '../../hooks/use-countdown';
import { register } from '../../lib/auth-api';
import { PRODUCT_NAME } from '../../lib/config';
import { checkoutPath } from '../billing/plan-labels';
import { AuthCard } from './auth-card';
import { useAuth } from './auth-context';
import { type AuthProblem, authProblem } from './auth-errors';
import { EmailField } from './email-field';
import { FieldError } from './field-error';
import { OidcProviders } from './oidc-providers';
import { PasswordHint } from './password-hint';
import { passwordStrength } from './password-strength';
import { AuthProblemMessage } from './use-auth-submit';

/**
 * The plan of `/register?type=PREMIUM|TEAM10&frequency=MONTHLY|ANNUAL|BIANNUAL&trial=true|false` (spec §2; any
 * self-service plan code of §3 is taken, e.g. PREMIUM_2TB from /prices), sent with the sign-up as `plan`; an
 * unknown type means no plan, an unknown frequency or trial is left out.
 */
export function chosenPlanFromQuery(search: URLSearchParams): ChosenPlan | undefined {
  const type = search.get('type')?.toUpperCase();
  if (!(SELF_SERVICE_PLAN_CODES as readonly string[]).includes(type ?? '')) return undefined;
  const frequency = search.get('frequency')?.toUpperCase();
  const trial = search.get('trial')?.toLowerCase();
  const plan = {
    type,
    ...((BILLING_FREQUENCIES as readonly string[]).includes(frequency ?? '')
      ? { frequency: frequency as ChosenPlan['frequency'] }
      : {}),
    ...(trial === 'true' || trial === 'false' ? { trial: trial === 'true' } : {}),
  };
  const parsed = ChosenPlan.safeParse(plan);
  return parsed.success ? parsed.data : undefined;
}

interface Fields {
  email?: string;
  password?: string;
}

/**
 * `/register`: e-mail, password (with a strength hint and show/hide), first name; the plan from the query.
 * The answer is the same whether or not the address has an account: "check your inbox", where sending the
 * form again mails a new link.
 */
export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const [search] = useSearchParams();
  const plan = chosenPlanFromQuery(search);
  const id = useId();
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [firstname, setFirstname] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Fields>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<AuthProblem | null>(null);
  const [retryUntil, setRetryUntil] = useState<number | null>(null);
  const waitSeconds = useCountdown(retryUntil);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sends, setSends] = useState(0);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  // Signed in already: a plan chosen goes straight to checkout.
  if (auth.user) {
    return (
      <Navigate
        to={
          plan
            ? checkoutPath({ code: plan.type, frequency: plan.frequency, trial: plan.trial })
            : '/account/profile'
        }
        replace
      />
    );
  }

  const strength = passwordStrength(password, [email, firstname]);
  const blocked = problem?.kind === 'rate_limited' && waitSeconds > 0;

  const send = async () => {
    if (busy || blocked) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await register({
        email: email.trim(),
        password,
        ...(firstname.trim() ? { firstname: firstname.trim() } : {}),
        locale: i18n.language,
        ...(plan ? { plan } : {}),
      });
      setSentTo(answer.sentTo);
      setSends((n) => n + 1);
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

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: Fields = {};
    if (!Email.safeParse(email).success) errors.email = t('auth:email_invalid');
    if (!Password.safeParse(password).success) {
      errors.password = password.length > 256 ? t('auth:password_too_long') : t('auth:password_too_short');
    }
    setFieldErrors(errors);
    if (errors.email) return emailInput.current?.focus();
    if (errors.password) return passwordInput.current?.focus();
    await send();
  };

  const planDetails = plan
    ? [
        plan.frequency ? t(`auth:frequency_${plan.frequency}`) : null,
        plan.trial ? t('auth:with_trial') : null,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  const planLine = plan && (
    <p className="notice auth-plan" data-testid="register-plan" data-plan={plan.type}>
      {t(planDetails ? 'auth:register_plan_details' : 'auth:register_plan', {
        plan: t(`auth:plan_code_${plan.type}`),
        details: planDetails,
      })}
    </p>
  );

  if (sentTo !== null) {
    return (
      <AuthCard title={t('auth:register_sent_title')} testId="page-register" state="sent">
        <div className="message-icon" aria-hidden="true">
          <MailIcon width={40} height={40} />
        </div>
        <p data-testid="register-sent" role="status">
          {t('auth:register_sent_text', { email: sentTo })}
        </p>
        <p className="muted">{t('auth:register_sent_spam')}</p>
        {sends > 1 && !problem && (
          <p className="notice notice-success" role="status" data-testid="register-resent">
            <CheckIcon /> {t('auth:register_resent')}
          </p>
        )}
        {problem && (
          <AuthProblemMessage problem={problem} waitSeconds={waitSeconds} testId="register-error" />
        )}
        <div className="auth-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={busy || blocked}
            aria-busy={busy || undefined}
            onClick={() => void send()}
            data-testid="register-resend"
          >
            {t('auth:register_resend')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setSentTo(null);
              setSends(0);
              setProblem(null);
            }}
            data-testid="register-change"
          >
            {t('auth:register_change_address')}
          </button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth:register_title', { product: PRODUCT_NAME })} testId="page-register" state="form">
      {planLine}
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        data-testid="register-form"
      >
        <EmailField
          id={id}
          inputRef={emailInput}
          value={email}
          onChange={setEmail}
          error={fieldErrors.email ?? null}
          testId="register-email"
        />
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('auth:new_password_label')}</label>
          <PasswordInput
            id={`${id}-password`}
            inputRef={passwordInput}
            autoComplete="new-password"
            required
            minLength={10}
            maxLength={256}
            value={password}
            onValueChange={setPassword}
            aria-invalid={fieldErrors.password ? true : undefined}
            aria-describedby={`${id}-strength${fieldErrors.password ? ` ${id}-password-error` : ''}`}
            testId="register-password"
          />
          <PasswordHint id={`${id}-strength`} strength={strength} testId="register-strength" />
          <FieldError id={`${id}-password-error`} text={fieldErrors.password ?? null} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-firstname`}>{t('auth:firstname_label')}</label>
          <input
            id={`${id}-firstname`}
            type="text"
            autoComplete="given-name"
            maxLength={200}
            value={firstname}
            onChange={(event) => setFirstname(event.target.value)}
            data-testid="register-firstname"
          />
        </div>
        {problem && (
          <AuthProblemMessage problem={problem} waitSeconds={waitSeconds} testId="register-error" />
        )}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={busy || blocked}
          aria-busy={busy || undefined}
          data-testid="register-submit"
        >
          {t(busy ? 'auth:register_busy' : 'auth:register_button')}
        </button>
      </form>
      <OidcProviders next="/" intent="register" plan={plan} />
      <p className="auth-switch">
        {t('auth:have_account')}{' '}
        <Link to="/signin" data-testid="register-signin">
          {t('auth:signin_link')}
        </Link>
      </p>
      <p className="auth-switch">
        {t('auth:enterprise_prompt')}{' '}
        <Link to="/register/enterprise" data-testid="register-enterprise">
          {t('auth:enterprise_link')}
        </Link>
      </p>
    </AuthCard>
  );
}
