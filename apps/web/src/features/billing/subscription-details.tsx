import {
  BILLING_FREQUENCIES,
  type BillingFrequency,
  type ChangeSubscriptionRequest,
  type ChangeSubscriptionResponse,
  type PaymentInfos,
  type PaymentProviderName,
  type PlanCatalogue,
  type PlanCode,
  planTypeOfCode,
  type Subscription,
} from '@ferry/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { cancelSubscription, changeSubscription, resumeSubscription } from '../../lib/billing-api';
import { formatDate } from '../../lib/format';
import { PlanSelect } from './buyer-fields';
import { CardField, type CardReady } from './card-field';
import { formatMoney, vatOf } from './money';
import { loadStripe } from './stripe';
import type { PlanWait } from './use-billing';

function Facts({ subscription, infos }: { subscription: Subscription; infos: PaymentInfos | undefined }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, subscription.currency, i18n.language);
  const vat = vatOf(subscription.amount, subscription.taxRate);
  const card = infos?.defaultPaymentMethod?.card ?? null;
  const periodEnd =
    subscription.trialEndsAt && subscription.status === 'trialing'
      ? subscription.trialEndsAt
      : subscription.currentPeriodEnd;
  return (
    <dl className="item-facts subscription-facts" data-testid="subscription-facts">
      <dt>{t('billing:current_plan')}</dt>
      <dd data-testid="subscription-plan">{t(`billing:plan_name_${subscription.planCode}`)}</dd>
      <dt>{t('billing:status_label')}</dt>
      <dd data-testid="subscription-status">
        {subscription.cancelAtPeriodEnd && subscription.status !== 'canceled'
          ? t('billing:status_cancel_at_end')
          : t(`billing:status_${subscription.status}`)}
      </dd>
      <dt>{t('billing:frequency_label')}</dt>
      <dd>{t(`billing:frequency_${subscription.frequency}`)}</dd>
      {periodEnd && (
        <>
          <dt>
            {subscription.status === 'trialing'
              ? t('billing:trial_ends')
              : subscription.cancelAtPeriodEnd
                ? t('billing:ends_on')
                : t('billing:renews_on')}
          </dt>
          <dd data-testid="subscription-period-end">{formatDate(periodEnd, i18n.language)}</dd>
        </>
      )}
      <dt>{t('billing:summary_price')}</dt>
      <dd data-testid="subscription-price">
        {t('billing:price_with_vat', {
          amount: money(subscription.amount),
          total: money(subscription.amount + vat),
          rate: subscription.taxRate,
        })}
      </dd>
      <dt>{t('billing:provider_label')}</dt>
      <dd>{t(`billing:provider_${subscription.provider}`)}</dd>
      {card && (
        <>
          <dt>{t('billing:card_on_file')}</dt>
          <dd data-testid="subscription-card">
            {t('billing:card_text', {
              brand: card.brand,
              last4: card.last4,
              expiry: `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`,
            })}
          </dd>
        </>
      )}
    </dl>
  );
}

/** Change plan, frequency or payment method (PATCH); an upgrade's prorated charge is shown once made. */
function ChangeForm({
  subscription,
  catalogue,
  onChanged,
}: {
  subscription: Subscription;
  catalogue: PlanCatalogue;
  onChanged(answer: ChangeSubscriptionResponse, newPlan: PlanCode | null): void;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const [planCode, setPlanCode] = useState<PlanCode>(subscription.planCode);
  const [frequency, setFrequency] = useState<BillingFrequency>(subscription.frequency);
  const [provider, setProvider] = useState<PaymentProviderName>(subscription.provider);
  const [card, setCard] = useState<CardReady | null>(null);
  const [cardComplete, setCardComplete] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const sellable = catalogue.plans.filter((p) => p.selfService);
  const newCard = provider === 'STRIPE' && subscription.provider !== 'STRIPE';
  const stripeReady = catalogue.stripeJsUrl !== null && catalogue.stripePublishableKey !== null;
  const change: ChangeSubscriptionRequest = {
    ...(planCode !== subscription.planCode ? { planCode } : {}),
    ...(frequency !== subscription.frequency ? { frequency } : {}),
    ...(provider !== subscription.provider ? { provider } : {}),
  };
  const changed = Object.keys(change).length > 0;

  const confirm = async (secret: string): Promise<string | null> => {
    if (newCard) {
      if (!card) return t('billing:stripe_unavailable');
      const outcome = await card.stripe.confirmCardSetup(secret, { payment_method: { card: card.card } });
      return outcome.error ? (outcome.error.message ?? t('billing:payment_failed')) : null;
    }
    if (!stripeReady) return t('billing:stripe_unavailable');
    const stripe = await loadStripe(
      catalogue.stripeJsUrl as string,
      catalogue.stripePublishableKey as string,
    );
    const outcome = await stripe.confirmCardPayment(secret);
    return outcome.error ? (outcome.error.message ?? t('billing:payment_failed')) : null;
  };

  const submit = async () => {
    if (!changed || busy) return;
    if (newCard && !cardComplete) {
      setProblem(t('billing:card_incomplete'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const answer = await changeSubscription(subscription.id, change);
      if (answer.clientSecret && (newCard || answer.subscription.provider === 'STRIPE')) {
        const failed = await confirm(answer.clientSecret);
        if (failed) setProblem(failed);
      }
      onChanged(answer, change.planCode ?? null);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="auth-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="subscription-change"
    >
      <h2 className="section-title">{t('billing:change_title')}</h2>
      <PlanSelect
        plans={sellable}
        value={planCode}
        onChange={setPlanCode}
        testId="change-plan"
        hint={t('billing:change_hint')}
      />
      <LabelledField label={t('billing:frequency_label')}>
        {(props) => (
          <select
            {...props}
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as BillingFrequency)}
            data-testid="change-frequency"
          >
            {BILLING_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {t(`billing:frequency_${f}`)}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      {catalogue.providers.length > 1 && (
        <LabelledField label={t('billing:provider_label')}>
          {(props) => (
            <select
              {...props}
              value={provider}
              onChange={(e) => setProvider(e.target.value as PaymentProviderName)}
              data-testid="change-provider"
            >
              {catalogue.providers.map((name) => (
                <option key={name} value={name}>
                  {t(`billing:provider_${name}`)}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
      )}
      {newCard && stripeReady && (
        <CardField
          stripeJsUrl={catalogue.stripeJsUrl as string}
          publishableKey={catalogue.stripePublishableKey as string}
          onReady={setCard}
          onComplete={setCardComplete}
        />
      )}
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="change-error">
          {problem}
        </p>
      )}
      <div>
        <button
          type="submit"
          className="button button-primary"
          disabled={!changed || busy}
          aria-busy={busy || undefined}
          data-testid="change-submit"
        >
          {t(busy ? 'billing:saving_changes' : 'billing:change_submit')}
        </button>
      </div>
    </form>
  );
}

/** Cancel at the period's end (after a confirmation), or resume a cancellation. */
function CancelSection({
  subscription,
  onUpdated,
}: {
  subscription: Subscription;
  onUpdated(next: Subscription | null): void;
}) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const [asking, setAsking] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  // The question takes the focus (its safe answer first), so a keyboard user hears it at once.
  useEffect(() => {
    if (asking) keepButton.current?.focus();
  }, [asking]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (call: () => Promise<{ subscription: Subscription | null }>) => {
    setBusy(true);
    setProblem(null);
    try {
      onUpdated((await call()).subscription);
      setAsking(false);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };
  const end = subscription.currentPeriodEnd ?? subscription.trialEndsAt;
  return (
    <section
      className="danger-zone"
      aria-labelledby="subscription-cancel-title"
      data-testid="subscription-cancel"
    >
      <h2 id="subscription-cancel-title" className="section-title">
        {t(subscription.cancelAtPeriodEnd ? 'billing:resume_title' : 'billing:cancel_title')}
      </h2>
      {subscription.cancelAtPeriodEnd ? (
        <>
          <p>{end ? t('billing:cancelled_text', { date: formatDate(end, i18n.language) }) : null}</p>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            aria-busy={busy || undefined}
            onClick={() => void run(() => resumeSubscription(subscription.id))}
            data-testid="subscription-resume"
          >
            {t('billing:resume_button')}
          </button>
        </>
      ) : asking ? (
        <div data-testid="cancel-confirm">
          <p>
            {end
              ? t('billing:cancel_confirm_text', { date: formatDate(end, i18n.language) })
              : t('billing:cancel_confirm_text_now')}
          </p>
          <div className="auth-actions">
            <button
              ref={keepButton}
              type="button"
              className="button button-secondary"
              onClick={() => setAsking(false)}
              data-testid="cancel-keep"
            >
              {t('billing:cancel_keep')}
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={() => void run(() => cancelSubscription(subscription.id))}
              data-testid="cancel-confirm-button"
            >
              {t('billing:cancel_confirm')}
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="muted">{t('billing:cancel_text')}</p>
          <button
            type="button"
            className="button button-danger"
            onClick={() => setAsking(true)}
            data-testid="subscription-cancel-button"
          >
            {t('billing:cancel_button')}
          </button>
        </>
      )}
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="cancel-error">
          {problem}
        </p>
      )}
    </section>
  );
}

/** The subscription of the paying account: its facts, the change form, cancel / resume. */
export function SubscriptionDetails({
  subscription,
  catalogue,
  infos,
  planWait,
  onUpdated,
  onPlanChanged,
}: {
  subscription: Subscription;
  catalogue: PlanCatalogue | undefined;
  infos: PaymentInfos | undefined;
  planWait: PlanWait;
  onUpdated(next: Subscription | null): void;
  onPlanChanged(code: PlanCode): void;
}) {
  const { t, i18n } = useTranslation();
  const [charged, setCharged] = useState<ChangeSubscriptionResponse['invoice']>(null);
  return (
    <>
      <Facts subscription={subscription} infos={infos} />
      {subscription.status === 'incomplete' && (
        <p className="notice" role="status" data-testid="subscription-incomplete">
          {t('billing:incomplete_text')} <Link to="/account/invoices">{t('billing:nav_invoices')}</Link>
        </p>
      )}
      {planWait === 'waiting' && (
        <p className="muted" role="status" aria-busy="true" data-testid="plan-activating">
          {t('billing:plan_activating')}
        </p>
      )}
      {planWait === 'done' && (
        <p className="notice notice-success" role="status" data-testid="plan-changed">
          {t('billing:plan_changed')}
        </p>
      )}
      {charged && (
        <p className="notice" role="status" data-testid="change-charged">
          {t('billing:charged_now', {
            amount: formatMoney(charged.amountDue, charged.currency, i18n.language),
            number: charged.number,
          })}{' '}
          <a href={charged.pdfUrl} download>
            {t('billing:download_invoice', { number: charged.number })}
          </a>
        </p>
      )}
      {catalogue && subscription.status !== 'canceled' && (
        <ChangeForm
          subscription={subscription}
          catalogue={catalogue}
          onChanged={(answer, newPlan) => {
            setCharged(answer.invoice);
            onUpdated(answer.subscription);
            if (newPlan && planTypeOfCode(newPlan) !== planTypeOfCode(subscription.planCode))
              onPlanChanged(newPlan);
          }}
        />
      )}
      {subscription.status !== 'canceled' && (
        <CancelSection subscription={subscription} onUpdated={onUpdated} />
      )}
    </>
  );
}
