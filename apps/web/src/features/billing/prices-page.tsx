import {
  BILLING_FREQUENCIES,
  type BillingFrequency,
  type Currency,
  type PlanCatalogue,
  type PlanCode,
  type PlanOffer,
  type TaxRate,
} from '@ferry/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { PRODUCT_NAME } from '../../lib/config';
import { useAuth } from '../auth/auth-context';
import { CountrySelect, CurrencySelect, useBuyerCountry, useTaxRate } from './buyer-fields';
import { bestSaving, formatMoney, priceOf, savingPercent, vatOf } from './money';
import { choosePath, formatStorage, PREMIUM_FAMILY, TEAM_FAMILY } from './plan-labels';
import { useCatalogue } from './use-billing';
import './billing.css';

/** A price with and without the VAT the visitor would pay. */
export function PriceLines({
  amount,
  currency,
  frequency,
  tax,
  testId,
}: {
  amount: number;
  currency: string;
  frequency: BillingFrequency;
  tax: TaxRate | undefined;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  return (
    <div className="plan-price" data-testid={testId}>
      <p className="plan-price-main">
        <span data-testid={`${testId}-excl`}>{money(amount)}</span>{' '}
        <span className="muted">{t(`billing:per_${frequency}`)}</span>
      </p>
      <p className="muted plan-price-vat">
        {t('billing:excl_vat')}
        {tax && (
          <>
            {' · '}
            <span data-testid={`${testId}-incl`}>
              {t('billing:incl_vat', { amount: money(amount + vatOf(amount, tax.rate)), rate: tax.rate })}
            </span>
          </>
        )}
      </p>
    </div>
  );
}

interface Choice {
  frequency: BillingFrequency;
  currency: Currency;
  tax: TaxRate | undefined;
  trialDays: number;
  signedIn: boolean;
}

function PlanCard({
  plan,
  title,
  choice,
  extra,
}: {
  plan: PlanOffer;
  title: string;
  choice: Choice;
  extra?: React.ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const amount = priceOf(plan, choice.frequency, choice.currency);
  const saving = savingPercent(plan, choice.frequency, choice.currency);
  const to = (trial: boolean) =>
    choosePath(choice.signedIn, {
      code: plan.planCode,
      frequency: choice.frequency,
      trial,
      currency: choice.currency,
    });
  const cardId = `plan-${plan.planCode}`;
  return (
    <article
      className="plan-card"
      aria-labelledby={`${cardId}-title`}
      data-testid={`plan-card-${plan.planCode}`}
    >
      <h2 id={`${cardId}-title`} className="plan-card-title">
        {title}
      </h2>
      <ul className="plan-facts">
        <li>{t('billing:storage', { storage: formatStorage(plan.storageGB, i18n.language) })}</li>
        {plan.licences !== null && <li>{t('billing:licences', { count: plan.licences })}</li>}
      </ul>
      {extra}
      {amount === null ? (
        <p className="muted">{t('billing:not_sold_so')}</p>
      ) : (
        <PriceLines
          amount={amount}
          currency={choice.currency}
          frequency={choice.frequency}
          tax={choice.tax}
          testId={`price-${plan.planCode}`}
        />
      )}
      <p className="plan-saving" data-testid={`saving-${plan.planCode}`}>
        {saving > 0 ? t('billing:saving', { percent: saving }) : '\u00a0'}
      </p>
      {amount !== null && (
        <div className="plan-actions">
          <Link to={to(false)} className="button button-primary" data-testid={`choose-${plan.planCode}`}>
            {t('billing:choose', { plan: title })}
          </Link>
          {choice.trialDays > 0 && (
            <Link to={to(true)} className="button button-secondary" data-testid={`trial-${plan.planCode}`}>
              {t('billing:try_free', { count: choice.trialDays })}
            </Link>
          )}
        </div>
      )}
    </article>
  );
}

function PremiumCard({ plans, choice }: { plans: PlanOffer[]; choice: Choice }) {
  const { t, i18n } = useTranslation();
  const [code, setCode] = useState<PlanCode>(plans[0]?.planCode ?? 'PREMIUM');
  const plan = plans.find((p) => p.planCode === code) ?? plans[0];
  if (!plan) return null;
  return (
    <PlanCard
      plan={plan}
      title={t('billing:plan_family_PREMIUM')}
      choice={choice}
      extra={
        plans.length > 1 && (
          <LabelledField label={t('billing:storage_label')}>
            {(props) => (
              <select
                {...props}
                value={plan.planCode}
                onChange={(event) => setCode(event.target.value as PlanCode)}
                data-testid="premium-storage"
              >
                {plans.map((p) => (
                  <option key={p.planCode} value={p.planCode}>
                    {formatStorage(p.storageGB, i18n.language)}
                  </option>
                ))}
              </select>
            )}
          </LabelledField>
        )
      }
    />
  );
}

/** The frequency switch (a radio group), with what each longer frequency saves. */
export function FrequencySwitch({
  value,
  onChange,
  plans,
  currency,
  name,
}: {
  value: BillingFrequency;
  onChange(frequency: BillingFrequency): void;
  plans: readonly PlanOffer[];
  currency: string;
  name: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="frequency-switch" data-testid="frequency-switch">
      <legend>{t('billing:frequency_label')}</legend>
      {BILLING_FREQUENCIES.map((frequency) => {
        const saving = bestSaving(plans, frequency, currency);
        return (
          <label key={frequency} className="frequency-option">
            <input
              type="radio"
              name={name}
              value={frequency}
              checked={value === frequency}
              onChange={() => onChange(frequency)}
              data-testid={`frequency-${frequency}`}
            />
            <span>{t(`billing:frequency_${frequency}`)}</span>
            {saving > 0 && (
              <span className="badge badge-success">{t('billing:saving_up_to', { percent: saving })}</span>
            )}
          </label>
        );
      })}
    </fieldset>
  );
}

function Catalogue({ catalogue }: { catalogue: PlanCatalogue }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const id = useId();
  const [frequency, setFrequency] = useState<BillingFrequency>('MONTHLY');
  const [currency, setCurrency] = useState<Currency>(catalogue.currencies[0] ?? 'EUR');
  const [country, setCountry] = useBuyerCountry();
  const tax = useTaxRate(country);
  const byCode = (code: PlanCode) => catalogue.plans.find((plan) => plan.planCode === code);
  const premium = PREMIUM_FAMILY.map(byCode).filter((p): p is PlanOffer => Boolean(p?.selfService));
  const teams = TEAM_FAMILY.map(byCode).filter((p): p is PlanOffer => Boolean(p?.selfService));
  const custom = byCode('CUSTOM');
  const choice: Choice = {
    frequency,
    currency,
    tax: tax.data,
    trialDays: catalogue.trialDays,
    signedIn: user !== null,
  };
  return (
    <>
      <div className="prices-controls">
        <FrequencySwitch
          value={frequency}
          onChange={setFrequency}
          plans={catalogue.plans}
          currency={currency}
          name={`${id}-frequency`}
        />
        <CurrencySelect
          currencies={catalogue.currencies}
          value={currency}
          onChange={setCurrency}
          testId="prices-currency"
        />
        <CountrySelect
          value={country}
          onChange={setCountry}
          testId="prices-country"
          hint={
            tax.data
              ? tax.data.rate > 0
                ? t('billing:country_vat_hint', { rate: tax.data.rate })
                : t('billing:country_no_vat_hint')
              : null
          }
        />
      </div>
      {catalogue.trialDays > 0 && (
        <p className="notice" data-testid="prices-trial">
          {t('billing:trial_offer', { count: catalogue.trialDays })}
        </p>
      )}
      <div className="plan-grid">
        {premium.length > 0 && <PremiumCard plans={premium} choice={choice} />}
        {teams.map((plan) => (
          <PlanCard
            key={plan.planCode}
            plan={plan}
            title={t(`billing:plan_name_${plan.planCode}`)}
            choice={choice}
          />
        ))}
        {custom && (
          <article className="plan-card" aria-labelledby={`${id}-custom`} data-testid="plan-card-CUSTOM">
            <h2 id={`${id}-custom`} className="plan-card-title">
              {t('billing:plan_name_CUSTOM')}
            </h2>
            <p>{t('billing:custom_text')}</p>
            <div className="plan-actions">
              <Link to="/register/enterprise" className="button button-secondary" data-testid="choose-CUSTOM">
                {t('billing:contact_sales')}
              </Link>
            </div>
          </article>
        )}
      </div>
    </>
  );
}

/** `/prices` (spec §2): the plans of this instance, their prices with and without the visitor's VAT. */
export function PricesPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const catalogue = useCatalogue();
  return (
    <div className="prices-page" data-testid="page-prices">
      <title>{`${t('billing:prices_title')} · ${PRODUCT_NAME}`}</title>
      <h1 className="prices-title">{t('billing:prices_title')}</h1>
      <p className="muted">{t('billing:prices_intro', { product: PRODUCT_NAME })}</p>
      {catalogue.isPending && (
        <p className="muted" role="status" aria-busy="true">
          {t('billing:loading')}
        </p>
      )}
      {catalogue.isError && (
        <p className="notice notice-error" role="alert" data-testid="prices-error">
          {describe(catalogue.error)}
        </p>
      )}
      {catalogue.data && <Catalogue catalogue={catalogue.data} />}
    </div>
  );
}
