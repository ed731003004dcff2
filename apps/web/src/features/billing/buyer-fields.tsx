import type { Currency, PlanCode, PlanOffer } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../components/labelled-field';
import { getTaxRate, getVisitorCountry } from '../../lib/billing-api';
import { countryOptions } from './countries';
import { formatStorage } from './plan-labels';

/*
 * What every page that shows a price with its VAT asks of the buyer — the prices page, checkout, buying a transfer
 * on sale: the country (the visitor's by default), and the VAT that country and an optional VAT number give.
 */

/** The buyer's country: the visitor's (GET /api/user/locations/country) until they choose one; null while unknown. */
export function useBuyerCountry(): [string | null, (country: string) => void] {
  const [country, setCountry] = useState<string | null>(null);
  const visitor = useQuery({
    queryKey: ['billing', 'visitor-country'],
    queryFn: ({ signal }) => getVisitorCountry(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (country === null && visitor.data) setCountry(visitor.data);
  }, [country, visitor.data]);
  return [country, setCountry];
}

/** The VAT for a country and an optional VAT number (GET /api/pay/subscriptions/tax-rates). */
export function useTaxRate(country: string | null, vatNumber?: string) {
  return useQuery({
    queryKey: ['billing', 'tax-rate', country, vatNumber ?? null],
    queryFn: ({ signal }) => getTaxRate(country as string, vatNumber, signal),
    enabled: country !== null,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

/** The country list, in the user's language, as a labelled select. */
export function CountrySelect({
  value,
  onChange,
  testId,
  hint,
}: {
  value: string | null;
  onChange(country: string): void;
  testId: string;
  hint?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  return (
    <LabelledField label={t('billing:country_label')} hint={hint}>
      {(props) => (
        <select
          {...props}
          value={value ?? ''}
          autoComplete="country"
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        >
          {value === null && <option value="">{t('billing:country_loading')}</option>}
          {countries.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/** The instance's currencies as a labelled select. */
export function CurrencySelect({
  currencies,
  value,
  onChange,
  testId,
}: {
  currencies: readonly Currency[];
  value: Currency;
  onChange(currency: Currency): void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <LabelledField label={t('billing:currency_label')}>
      {(props) => (
        <select
          {...props}
          value={value}
          onChange={(event) => onChange(event.target.value as Currency)}
          data-testid={testId}
        >
          {currencies.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/** The plans a buyer may choose (name and storage), as a labelled select: checkout and a subscription's change. */
export function PlanSelect({
  plans,
  value,
  onChange,
  testId,
  hint,
}: {
  plans: readonly PlanOffer[];
  value: PlanCode;
  onChange(plan: PlanCode): void;
  testId: string;
  hint?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  return (
    <LabelledField label={t('billing:plan_label')} hint={hint}>
      {(props) => (
        <select
          {...props}
          value={value}
          onChange={(event) => onChange(event.target.value as PlanCode)}
          data-testid={testId}
        >
          {plans.map((p) => (
            <option key={p.planCode} value={p.planCode}>
              {t('billing:plan_option', {
                plan: t(`billing:plan_name_${p.planCode}`),
                storage: formatStorage(p.storageGB, i18n.language),
              })}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}
