import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertIcon, CheckIcon } from '../../components/icons';
import { useCountdown } from '../../hooks/use-countdown';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { sendEnterpriseContact } from '../../lib/auth-api';
import { PRODUCT_NAME } from '../../lib/config';
import { formatWait } from '../../lib/format';
import { AuthCard } from './auth-card';
import { useAuth } from './auth-context';
import {
  checkEnterpriseForm,
  EMPTY_ENTERPRISE_FORM,
  ENTERPRISE_MESSAGE_MAX,
  ENTERPRISE_PHONE_MAX,
  type EnterpriseErrors,
  type EnterpriseField,
  type EnterpriseForm,
} from './enterprise-contact';
import { FieldError } from './field-error';

const FIELD_ORDER: EnterpriseField[] = ['name', 'email', 'company', 'phone', 'teamSize', 'message'];

/**
 * `/register/enterprise` (spec §2): the enterprise plan is sold by a person. The form (name, e-mail, company,
 * phone, team size, message) goes to POST /api/sales/enterprise-contact; then a thank-you. A 429 says to wait,
 * with the time when the server gives it.
 */
export function EnterpriseContactPage() {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const { user } = useAuth();
  const id = useId();
  const [form, setForm] = useState<EnterpriseForm>(EMPTY_ENTERPRISE_FORM);
  // Signed in: start from the account's name and address (once known), unless already typed.
  useEffect(() => {
    if (!user) return;
    setForm((now) => ({
      ...now,
      name: now.name || (user.displayName ?? ''),
      email: now.email || user.email,
    }));
  }, [user]);
  const [errors, setErrors] = useState<EnterpriseErrors>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; rateLimited: boolean } | null>(null);
  const [retryUntil, setRetryUntil] = useState<number | null>(null);
  const waitSeconds = useCountdown(retryUntil);
  const [sent, setSent] = useState<{ name: string; email: string } | null>(null);
  const inputs = useRef<Partial<Record<EnterpriseField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  const set = (field: EnterpriseField) => (event: { target: { value: string } }) =>
    setForm((now) => ({ ...now, [field]: event.target.value }));
  const blocked = problem?.rateLimited === true && waitSeconds > 0;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || blocked) return;
    const checked = checkEnterpriseForm(form, i18n.language);
    setErrors(checked.errors);
    setProblem(null);
    setRetryUntil(null);
    const first = FIELD_ORDER.find((field) => checked.errors[field]);
    if (first || !checked.request) return inputs.current[first ?? 'name']?.focus();
    setBusy(true);
    try {
      await sendEnterpriseContact(checked.request);
      setSent({ name: checked.request.name, email: checked.request.email });
    } catch (error) {
      const rateLimited = error instanceof ApiError && error.status === 429;
      if (rateLimited && error.retryAfterSeconds !== null) {
        setRetryUntil(Date.now() + error.retryAfterSeconds * 1000);
      }
      setProblem({ text: rateLimited ? '' : describe(error), rateLimited });
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <AuthCard title={t('auth:enterprise_thanks_title')} testId="page-enterprise" state="sent">
        <div className="message-icon" aria-hidden="true">
          <CheckIcon width={40} height={40} />
        </div>
        <p role="status" data-testid="enterprise-thanks">
          {t('auth:enterprise_thanks_text', { name: sent.name, email: sent.email })}
        </p>
        <div className="auth-actions">
          <Link to="/" className="button button-primary">
            {t('common:go_home', { product: PRODUCT_NAME })}
          </Link>
        </div>
      </AuthCard>
    );
  }

  const field = (
    name: EnterpriseField,
    label: string,
    control: (props: {
      id: string;
      'aria-invalid': true | undefined;
      'aria-describedby': string | undefined;
      'data-testid': string;
    }) => ReactNode,
    hint?: ReactNode,
  ) => {
    const error = errors[name];
    const describedBy = [hint ? `${id}-${name}-hint` : '', error ? `${id}-${name}-error` : '']
      .filter(Boolean)
      .join(' ');
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{label}</label>
        {control({
          id: `${id}-${name}`,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy || undefined,
          'data-testid': `enterprise-${name}`,
        })}
        {hint && (
          <p className="field-hint" id={`${id}-${name}-hint`}>
            {hint}
          </p>
        )}
        <FieldError id={`${id}-${name}-error`} text={error ? t(error) : null} />
      </div>
    );
  };
  const ref = (name: EnterpriseField) => (element: HTMLInputElement | HTMLTextAreaElement | null) => {
    inputs.current[name] = element;
  };

  return (
    <AuthCard
      title={t('auth:enterprise_title', { product: PRODUCT_NAME })}
      testId="page-enterprise"
      state="form"
    >
      <p className="muted">{t('auth:enterprise_intro')}</p>
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        data-testid="enterprise-form"
      >
        {field('name', t('auth:enterprise_name_label'), (props) => (
          <input
            {...props}
            ref={ref('name')}
            type="text"
            autoComplete="name"
            maxLength={200}
            value={form.name}
            onChange={set('name')}
          />
        ))}
        {field('email', t('auth:enterprise_email_label'), (props) => (
          <input
            {...props}
            ref={ref('email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={320}
            value={form.email}
            onChange={set('email')}
          />
        ))}
        {field('company', t('auth:enterprise_company_label'), (props) => (
          <input
            {...props}
            ref={ref('company')}
            type="text"
            autoComplete="organization"
            maxLength={200}
            value={form.company}
            onChange={set('company')}
          />
        ))}
        <div className="field-grid">
          {field('phone', t('auth:enterprise_phone_label'), (props) => (
            <input
              {...props}
              ref={ref('phone')}
              type="text"
              inputMode="tel"
              autoComplete="tel"
              maxLength={ENTERPRISE_PHONE_MAX}
              value={form.phone}
              onChange={set('phone')}
            />
          ))}
          {field('teamSize', t('auth:enterprise_team_size_label'), (props) => (
            <input
              {...props}
              ref={ref('teamSize')}
              type="text"
              inputMode="numeric"
              maxLength={7}
              value={form.teamSize}
              onChange={set('teamSize')}
            />
          ))}
        </div>
        {field(
          'message',
          t('auth:enterprise_message_label'),
          (props) => (
            <textarea
              {...props}
              ref={ref('message')}
              rows={5}
              maxLength={ENTERPRISE_MESSAGE_MAX}
              value={form.message}
              onChange={set('message')}
            />
          ),
          t('auth:enterprise_message_hint', { count: ENTERPRISE_MESSAGE_MAX - form.message.length }),
        )}
        {problem && (
          <p
            className="notice notice-error"
            role="alert"
            data-testid="enterprise-error"
            data-problem={problem.rateLimited ? 'rate_limited' : 'other'}
          >
            <AlertIcon />{' '}
            {problem.rateLimited
              ? waitSeconds > 0
                ? t('auth:enterprise_rate_limited_wait', { time: formatWait(waitSeconds, i18n.language) })
                : t(retryUntil === null ? 'auth:enterprise_rate_limited' : 'auth:error_rate_limited_over')
              : problem.text}
          </p>
        )}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={busy || blocked}
          aria-busy={busy || undefined}
          data-testid="enterprise-submit"
        >
          {t(busy ? 'auth:enterprise_busy' : 'auth:enterprise_submit')}
        </button>
      </form>
      <p className="auth-switch">
        {t('auth:enterprise_self_serve')}{' '}
        <Link to="/register?type=TEAM10" data-testid="enterprise-team-plan">
          {t('auth:enterprise_team_link')}
        </Link>
      </p>
    </AuthCard>
  );
}
