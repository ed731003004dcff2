import { readFileSync } from 'node:fs';
import {
  BILLING_FREQUENCIES,
  type BillingFrequency,
  CURRENCIES,
  type Currency,
  PLAN_CODES,
  type PlanCatalogue,
  type PlanCode,
  type PlanOffer,
  planTypeOfCode,
  storageGBOfCode,
  TEAM_PLAN_LICENCES,
} from '@ferry/core';
import { z } from 'zod';
import type { BillingConfig } from './config.js';

/*
 * What can be bought (spec §3 plan codes, §9 limits), at which price per frequency and currency. Prices come
 * from PRICES_FILE (docs/configuration.md shows its shape) or the built-in table below. CUSTOM is sold by
 * contract, never through checkout.
 */

/** Price per period in minor units (VAT excluded), by plan code, frequency and currency. */
export type PriceTable = Partial<
  Record<Exclude<PlanCode, 'CUSTOM'>, Partial<Record<BillingFrequency, Partial<Record<Currency, number>>>>>
>;

const SELF_SERVICE_CODES = PLAN_CODES.filter((c): c is Exclude<PlanCode, 'CUSTOM'> => c !== 'CUSTOM');

/** Monthly prices (minor units); a year costs 10 months, two years 18: annual and biannual are cheaper. */
const MONTHLY: Record<Exclude<PlanCode, 'CUSTOM'>, Record<Currency, number>> = {
  PREMIUM: { EUR: 1200, USD: 1300, GBP: 1000 },
  PREMIUM_2TB: { EUR: 2000, USD: 2200, GBP: 1700 },
  PREMIUM_5TB: { EUR: 4000, USD: 4400, GBP: 3400 },
  PREMIUM_10TB: { EUR: 7000, USD: 7700, GBP: 6000 },
  TEAM: { EUR: 5000, USD: 5500, GBP: 4300 },
  TEAM10: { EUR: 9000, USD: 9900, GBP: 7700 },
  TEAM25: { EUR: 20000, USD: 22000, GBP: 17000 },
};
const MONTHS_CHARGED: Record<BillingFrequency, number> = { MONTHLY: 1, ANNUAL: 10, BIANNUAL: 18 };

export const DEFAULT_PRICES: PriceTable = Object.fromEntries(
  SELF_SERVICE_CODES.map((code) => [
    code,
    Object.fromEntries(
      BILLING_FREQUENCIES.map((f) => [
        f,
        Object.fromEntries(CURRENCIES.map((c) => [c, MONTHLY[code][c] * MONTHS_CHARGED[f]])),
      ]),
    ),
  ]),
);

const Amount = z.number().int().nonnegative();
const PerCurrency = z.object(Object.fromEntries(CURRENCIES.map((c) => [c, Amount.optional()]))).strict();
const PerFrequency = z
  .object(Object.fromEntries(BILLING_FREQUENCIES.map((f) => [f, PerCurrency.optional()])))
  .strict();
/** The shape of PRICES_FILE. */
export const PricesFile = z
  .object({
    plans: z.object(Object.fromEntries(SELF_SERVICE_CODES.map((c) => [c, PerFrequency.optional()]))).strict(),
  })
  .strict();

/** Reads and checks PRICES_FILE; the error names the file and each bad entry. */
export function loadPrices(file: string | null): PriceTable {
  if (!file) return DEFAULT_PRICES;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`PRICES_FILE ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parsePrices(json, file);
}

/** Checks the JSON of a prices file; `file` names it in the error. */
export function parsePrices(json: unknown, file: string): PriceTable {
  const parsed = PricesFile.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(file)'}: ${i.message}`);
    throw new Error(`PRICES_FILE ${file} has bad entries:\n${lines.join('\n')}`);
  }
  return parsed.data.plans as PriceTable;
}

export class Catalogue {
  constructor(
    private readonly prices: PriceTable,
    private readonly billing: Pick<BillingConfig, 'trialDays' | 'providers' | 'stripe' | 'paypal'>,
  ) {}

  /** The price per period, or null when that plan is not sold at that frequency and currency. */
  price(code: PlanCode, frequency: BillingFrequency, currency: Currency): number | null {
    if (code === 'CUSTOM') return null;
    return this.prices[code]?.[frequency]?.[currency] ?? null;
  }

  /** Currencies with at least one price, in the order of CURRENCIES (EUR first). */
  currencies(): Currency[] {
    return CURRENCIES.filter((c) =>
      Object.values(this.prices).some((byFrequency) =>
        Object.values(byFrequency ?? {}).some((byCurrency) => byCurrency?.[c] !== undefined),
      ),
    );
  }

  get trialDays(): number {
    return this.billing.trialDays;
  }

  offers(): PlanCatalogue {
    const plans: PlanOffer[] = PLAN_CODES.map((code) => ({
      planCode: code,
      planType: planTypeOfCode(code),
      storageGB: storageGBOfCode(code),
      licences: TEAM_PLAN_LICENCES[code] ?? null,
      prices:
        code === 'CUSTOM'
          ? []
          : BILLING_FREQUENCIES.flatMap((frequency) =>
              CURRENCIES.flatMap((currency) => {
                const amount = this.price(code, frequency, currency);
                return amount === null ? [] : [{ frequency, currency, amount }];
              }),
            ),
      selfService: code !== 'CUSTOM',
    })).filter((offer) => !offer.selfService || offer.prices.length > 0);
    const providers = this.billing.providers;
    return {
      plans,
      currencies: this.currencies(),
      trialDays: this.billing.trialDays,
      providers,
      stripePublishableKey: providers.includes('STRIPE')
        ? (this.billing.stripe?.publishableKey ?? null)
        : null,
      paypalClientId: providers.includes('PAYPAL') ? (this.billing.paypal?.clientId ?? null) : null,
      stripeJsUrl: providers.includes('STRIPE') ? (this.billing.stripe?.jsUrl ?? null) : null,
    };
  }
}
