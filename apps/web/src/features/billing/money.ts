import { type BillingFrequency, FREQUENCY_MONTHS, type PlanOffer } from '@ferry/core';
import { intlLocale } from '../../lib/format';

/** Minor units of a currency (cents) in the user's language: 1250 EUR → "€12.50" / "12,50 €". */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** The price of a plan for a frequency and currency, VAT excluded (minor units), or null when not sold so. */
export function priceOf(plan: PlanOffer, frequency: BillingFrequency, currency: string): number | null {
  return plan.prices.find((p) => p.frequency === frequency && p.currency === currency)?.amount ?? null;
}

/** VAT on an amount at `rate` percent, rounded to the minor unit. */
export function vatOf(amount: number, rate: number): number {
  return Math.round((amount * rate) / 100);
}

/**
 * What a longer frequency saves against paying monthly for as many months, in whole percent (0 when nothing,
 * or when a price is missing).
 */
export function savingPercent(plan: PlanOffer, frequency: BillingFrequency, currency: string): number {
  const monthly = priceOf(plan, 'MONTHLY', currency);
  const price = priceOf(plan, frequency, currency);
  if (monthly === null || price === null || monthly === 0) return 0;
  const full = monthly * FREQUENCY_MONTHS[frequency];
  return Math.max(0, Math.round(((full - price) / full) * 100));
}

/** The best saving of a frequency over the plans of a catalogue (shown on the frequency switch). */
export function bestSaving(
  plans: readonly PlanOffer[],
  frequency: BillingFrequency,
  currency: string,
): number {
  return Math.max(0, ...plans.map((plan) => savingPercent(plan, frequency, currency)));
}
