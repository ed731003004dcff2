import {
  type BillingFrequency,
  type Currency,
  type PaymentProviderName,
  type PlanCatalogue,
  type PlanCode,
  type StartSubscriptionResponse,
  type TaxRate,
  VatNumberInput,
} from '@ferry/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { startSubscription } from '../../lib/billing-api';
import { useAuth } from '../auth/auth-context';
import { CountrySelect, CurrencySelect, PlanSelect, useBuyerCountry, useTaxRate } from './buyer-fields';
import { CardField, type CardReady } from './card-field';
import { formatMoney, priceOf, vatOf } from './money';
import { FrequencySwitch } from './prices-page';
import type { StripeResult } from './stripe';
import { usePlanPolling } from './use-billing';

/** What the checkout starts from (the query of /account/subscriptions, or the plan chosen at sign-up). */
export interface CheckoutStart {
  planCode?: PlanCode | undefined;
  frequency?: BillingFrequency | undefined;
  trial?: boolean | undefined;
  currency?: Currency | undefined;
}

/** A value that follows `value` once it stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The VAT number as the API reads it, or undefined when empty. */
function vatNumberOf(typed: string): string | undefined {
  const parsed = VatNumberInput.safeParse(typed);
  return parsed.success && parsed.data !== '' ? parsed.data : undefined;
}

/** The amount line of the summary: price, VAT (rate, or reverse charge), total. */
function Summary({
  amount,
  currency,
  tax,
  trialDays,
}: {
  amount: number;
  currency: string;
  tax: TaxRate | undefined;
  trialDays: number;
}) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const vat = tax ? vatOf(amount, tax.rate) : null;
  return (
    <dl className="item-facts checkout-summary" data-testid="checkout-summary">
      <dt>{t('billing:summary_price')}</dt>
      <dd data-testid="summary-price">{money(amount)}</dd>
      <dt>{t('billing:summary_vat')}</dt>
      <dd data-testid="summary-vat">
        {tax === undefined
          ? '…'
          : tax.reverseCharge
            ? t('billing:reverse_charge')
            : t('billing:vat_line', { amount: money(vat ?? 0), rate: tax.rate })}
      </dd>
      <dt>{t('billing:summary_total')}</dt>
      <dd data-testid="summary-total">{vat === null ? '…' : money(amount + vat)}</dd>
      {trialDays > 0 && (
        <>
          <dt>{t('billing:summary_today')}</dt>
          <dd data-testid="summary-trial">{t('billing:trial_then', { count: trialDays })}</dd>
        </>
      )}
    </dl>
  );
}

/** After the start: the MANUAL invoice, the plan being switched on, or it being on. */
export function CheckoutResult({
  result,
  waiting,
}: {
  result: StartSubscriptionResponse;
  waiting: 'idle' | 'waiting' | 'done';
}) {
  const { t, i18n } = useTranslation();
  const { invoice } = result;
  if (result.status === 'incomplete' && invoice) {
    return (
      <div className="checkout-result" data-testid="checkout-invoice">
        <h2 className="section-title">{t('billing:invoice_title', { number: invoice.number })}</h2>
        <p>
          {t('billing:invoice_amount_due', {
            amount: formatMoney(invoice.amountDue, invoice.currency, i18n.language),
          })}
        </p>
        <p className="muted">{t('billing:invoice_bank_details')}</p>
        <p className="notice" role="status" data-testid="checkout-starts-when-paid">
          {t('billing:plan_starts_when_paid')}
        </p>
        <a
          href={invoice.pdfUrl}
          className="button button-primary"
          download
          data-testid="checkout-invoice-pdf"
        >
          {t('billing:download_invoice', { number: invoice.number })}
        </a>
      </div>
    );
  }
  return (
    <div className="checkout-result" data-testid="checkout-done" data-state={waiting}>
      {waiting === 'done' ? (
        <p className="notice notice-success" role="status" data-testid="checkout-success">
          {t('billing:plan_active')}
        </p>
      ) : (
        <p className="muted" role="status" aria-busy="true" data-testid="checkout-activating">
          {t('billing:plan_activating')}
        </p>
      )}
    </div>
  );
}

/**
 * Checkout (inside /account/subscriptions when there is no live subscription): plan, frequency, currency,
 * country, company and VAT number with the live tax answer, the payment provider, then POST
 * /pay/subscriptions. MANUAL shows the invoice; STRIPE confirms the card with Stripe.js (a setup for a trial);
 * PAYPAL goes to PayPal's approval page. Once paid, spec §4's plan polling switches the session's plan.
 */
export function Checkout({
  catalogue,
  start,
  onStarted,
}: {
  catalogue: PlanCatalogue;
  start: CheckoutStart;
  onStarted?(result: StartSubscriptionResponse): void;
}) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { user } = useAuth();
  const id = useId();
  const sellable = catalogue.plans.filter((plan) => plan.selfService);
  const [planCode, setPlanCode] = useState<PlanCode>(
    sellable.some((p) => p.planCode === start.planCode)
      ? (start.planCode as PlanCode)
      : (sellable[0]?.planCode ?? 'PREMIUM'),
  );
  const [frequency, setFrequency] = useState<BillingFrequency>(start.frequency ?? 'MONTHLY');
  const [currency, setCurrency] = useState<Currency>(
    start.currency && catalogue.currencies.includes(start.currency)
      ? start.currency
      : (catalogue.currencies[0] ?? 'EUR'),
  );
  const [trial, setTrial] = useState(start.trial === true && catalogue.trialDays > 0);
  const [country, setCountry] = useBuyerCountry();
  const [companyName, setCompanyName] = useState('');
  const [address, setAddress] = useState('');
  const [vatTyped, setVatTyped] = useState('');
  const [provider, setProvider] = useState<PaymentProviderName>(catalogue.providers[0] ?? 'MANUAL');
  const [card, setCard] = useState<CardReady | null>(null);
  const [cardComplete, setCardComplete] = useState(false);
  const [cardProblem, setCardProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<StartSubscriptionResponse | null>(null);
  /** A card subscription started whose payment was refused: trying again confirms it, never starts another. */
  const [unconfirmed, setUnconfirmed] = useState<StartSubscriptionResponse | null>(null);
  const polling = usePlanPolling();

  const vatNumber = useSettled(vatNumberOf(vatTyped), 400);
  const tax = useTaxRate(country, vatNumber);
  const plan = sellable.find((p) => p.planCode === planCode);
  const amount = plan ? priceOf(plan, frequency, currency) : null;
  const stripeOffered =
    catalogue.providers.includes('STRIPE') &&
    catalogue.stripeJsUrl !== null &&
    catalogue.stripePublishableKey !== null;
  const vatInvalid = vatNumber !== undefined && tax.data?.vatNumberValid === false;

  if (result) return <CheckoutResult result={result} waiting={polling.status} />;

  const confirmCard = async (answer: StartSubscriptionResponse): Promise<boolean> => {
    if (!answer.clientSecret) return true;
    if (!card) {
      setCardProblem(t('billing:stripe_unavailable'));
      return false;
    }
    const outcome: StripeResult = trial
      ? await card.stripe.confirmCardSetup(answer.clientSecret, { payment_method: { card: card.card } })
      : await card.stripe.confirmCardPayment(answer.clientSecret, {
          payment_method: {
            card: card.card,
            billing_details: {
              ...(companyName.trim() || user?.displayName
                ? { name: companyName.trim() || (user?.displayName ?? '') }
                : {}),
              ...(user ? { email: user.email } : {}),
            },
          },
        });
    if (outcome.error) {
      setCardProblem(outcome.error.message ?? t('billing:payment_failed'));
      return false;
    }
    return true;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !plan || amount === null || country === null) return;
    setProblem(null);
    setCardProblem(null);
    if (vatInvalid) {
      setProblem(t('billing:vat_invalid'));
      return;
    }
    if (provider === 'STRIPE' && !cardComplete) {
      setCardProblem(t('billing:card_incomplete'));
      return;
    }
    setBusy(true);
    try {
      const answer =
        provider === 'STRIPE' && unconfirmed
          ? unconfirmed
          : await startSubscription({
              planCode,
              frequency,
              provider,
              countryCode: country,
              currency,
              ...(vatNumberOf(vatTyped) ? { vatNumber: vatNumberOf(vatTyped) } : {}),
              ...(trial ? { trial: true } : {}),
              ...(companyName.trim() ? { companyName: companyName.trim() } : {}),
              ...(address.trim() ? { address: address.trim() } : {}),
            });
      if (provider === 'PAYPAL' && answer.approveUrl) {
        window.location.assign(answer.approveUrl);
        return;
      }
      if (provider === 'STRIPE' && !(await confirmCard(answer))) {
        setUnconfirmed(answer);
        return;
      }
      if (answer.status !== 'incomplete' || provider !== 'MANUAL') polling.start(planCode);
      setResult(answer);
      onStarted?.(answer);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="auth-form checkout"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      data-testid="checkout"
    >
      <h2 className="section-title">{t('billing:checkout_title')}</h2>
      <PlanSelect plans={sellable} value={planCode} onChange={setPlanCode} testId="checkout-plan" />
      <FrequencySwitch
        value={frequency}
        onChange={setFrequency}
        plans={plan ? [plan] : []}
        currency={currency}
        name={`${id}-frequency`}
      />
      {catalogue.currencies.length > 1 && (
        <CurrencySelect
          currencies={catalogue.currencies}
          value={currency}
          onChange={setCurrency}
          testId="checkout-currency"
        />
      )}
      {catalogue.trialDays > 0 && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={trial}
            onChange={(e) => setTrial(e.target.checked)}
            data-testid="checkout-trial"
          />
          <span>{t('billing:trial_checkbox', { count: catalogue.trialDays })}</span>
        </label>
      )}
      <CountrySelect value={country} onChange={setCountry} testId="checkout-country" />
      <LabelledField label={t('billing:company_label')} hint={t('billing:optional')}>
        {(props) => (
          <input
            {...props}
            type="text"
            autoComplete="organization"
            maxLength={200}
            value={companyName}
            onChange={(e) => setCompanyName(e.target.value)}
            data-testid="checkout-company"
          />
        )}
      </LabelledField>
      <LabelledField
        label={t('billing:vat_number_label')}
        hint={
          tax.data?.reverseCharge
            ? t('billing:reverse_charge_hint')
            : tax.data?.vatNumberValid === true
              ? t('billing:vat_valid')
              : t('billing:vat_number_hint')
        }
        error={vatInvalid ? t('billing:vat_invalid') : null}
      >
        {(props) => (
          <input
            {...props}
            type="text"
            maxLength={20}
            autoCapitalize="characters"
            spellCheck={false}
            value={vatTyped}
            onChange={(e) => setVatTyped(e.target.value)}
            data-testid="checkout-vat-number"
          />
        )}
      </LabelledField>
      <LabelledField label={t('billing:address_label')} hint={t('billing:optional')}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            maxLength={500}
            autoComplete="street-address"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            data-testid="checkout-address"
          />
        )}
      </LabelledField>
      {catalogue.providers.length > 1 && (
        <fieldset className="provider-choice" data-testid="checkout-providers">
          <legend>{t('billing:provider_label')}</legend>
          {catalogue.providers.map((name) => (
            <label key={name} className="frequency-option">
              <input
                type="radio"
                name={`${id}-provider`}
                value={name}
                checked={provider === name}
                onChange={() => setProvider(name)}
                data-testid={`provider-${name}`}
              />
              <span>{t(`billing:provider_${name}`)}</span>
            </label>
          ))}
        </fieldset>
      )}
      {provider === 'MANUAL' && <p className="muted">{t('billing:manual_explained')}</p>}
      {provider === 'PAYPAL' && <p className="muted">{t('billing:paypal_explained')}</p>}
      {provider === 'STRIPE' && stripeOffered && (
        <CardField
          stripeJsUrl={catalogue.stripeJsUrl as string}
          publishableKey={catalogue.stripePublishableKey as string}
          onReady={setCard}
          onComplete={setCardComplete}
          error={cardProblem}
        />
      )}
      {amount !== null && (
        <Summary
          amount={amount}
          currency={currency}
          tax={tax.data}
          trialDays={trial ? catalogue.trialDays : 0}
        />
      )}
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="checkout-error">
          {problem}
        </p>
      )}
      <button
        type="submit"
        className="button button-primary button-block"
        disabled={busy || amount === null || country === null}
        aria-busy={busy || undefined}
        data-testid="checkout-submit"
      >
        {t(
          busy ? 'billing:checkout_busy' : trial ? 'billing:checkout_start_trial' : 'billing:checkout_submit',
        )}
      </button>
    </form>
  );
}
