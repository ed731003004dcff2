import type { BillingFrequency, Currency, PlanCode } from '@ferry/core';
import { PayPalApiError, type PayPalClient } from './paypal-client.js';
import type { PayPalPlan } from './paypal-events.js';

const CYCLE: Readonly<Record<BillingFrequency, { interval_unit: 'MONTH' | 'YEAR'; interval_count: number }>> =
  {
    MONTHLY: { interval_unit: 'MONTH', interval_count: 1 },
    ANNUAL: { interval_unit: 'YEAR', interval_count: 1 },
    BIANNUAL: { interval_unit: 'YEAR', interval_count: 2 },
  };

/**
 * PayPal's catalog as Ferry uses it: one product per plan code (id `FERRY-<PLAN-CODE>`) and one billing plan per
 * plan code, frequency, currency and trial length, named so that a restart finds it again instead of making
 * another. The plan's price is a placeholder: each subscription sets its own price and VAT.
 */
export class PayPalCatalog {
  private readonly products = new Map<PlanCode, Promise<string>>();
  private readonly plans = new Map<string, Promise<string>>();

  constructor(
    private readonly client: PayPalClient,
    private readonly brandName: string,
  ) {}

  product(planCode: PlanCode): Promise<string> {
    let product = this.products.get(planCode);
    if (!product) {
      const id = `FERRY-${planCode}`.replace(/_/g, '-');
      product = this.client
        .request<{ id: string }>('GET', `/v1/catalogs/products/${id}`)
        .then((p) => p.id)
        .catch(async (error: unknown) => {
          if (!(error instanceof PayPalApiError) || error.status !== 404) throw error;
          const created = await this.client.request<{ id: string }>(
            'POST',
            '/v1/catalogs/products',
            { id, name: `${this.brandName} ${planCode}`, type: 'SERVICE', category: 'SOFTWARE' },
            { requestId: `ferry-product-${id}` },
          );
          return created.id;
        });
      product.catch(() => this.products.delete(planCode));
      this.products.set(planCode, product);
    }
    return product;
  }

  /** The billing plan of a plan code, frequency, currency and trial: found by its name, else made. */
  plan(
    planCode: PlanCode,
    frequency: BillingFrequency,
    currency: Currency,
    trialDays: number,
  ): Promise<string> {
    const name = planName(planCode, frequency, currency, trialDays);
    let plan = this.plans.get(name);
    if (!plan) {
      plan = (async () => {
        const productId = await this.product(planCode);
        const existing = await this.client.request<{ plans?: PayPalPlan[] }>(
          'GET',
          `/v1/billing/plans?product_id=${encodeURIComponent(productId)}&page_size=20&total_required=false`,
        );
        const found = existing.plans?.find((p) => p.name === name && p.status === 'ACTIVE');
        if (found) return found.id;
        const cycles = [
          ...(trialDays > 0
            ? [
                {
                  tenure_type: 'TRIAL',
                  sequence: 1,
                  total_cycles: 1,
                  frequency: { interval_unit: 'DAY', interval_count: trialDays },
                },
              ]
            : []),
          {
            tenure_type: 'REGULAR',
            sequence: trialDays > 0 ? 2 : 1,
            total_cycles: 0,
            frequency: CYCLE[frequency],
            // The plan's own price is a placeholder: each subscription sets its price and VAT.
            pricing_scheme: { fixed_price: { value: '1.00', currency_code: currency } },
          },
        ];
        const created = await this.client.request<{ id: string }>(
          'POST',
          '/v1/billing/plans',
          {
            product_id: productId,
            name,
            status: 'ACTIVE',
            billing_cycles: cycles,
            payment_preferences: {
              auto_bill_outstanding: true,
              setup_fee_failure_action: 'CANCEL',
              payment_failure_threshold: 3,
            },
            taxes: { percentage: '0', inclusive: false },
          },
          { requestId: `ferry-plan-${name.replace(/\s+/g, '-')}` },
        );
        return created.id;
      })();
      plan.catch(() => this.plans.delete(name));
      this.plans.set(name, plan);
    }
    return plan;
  }
}

export const planName = (
  planCode: PlanCode,
  frequency: BillingFrequency,
  currency: Currency,
  trialDays: number,
) => `Ferry ${planCode} ${frequency} ${currency}${trialDays > 0 ? ` trial ${trialDays}d` : ''}`;

export function parsePlanName(name: string): { planCode: PlanCode; frequency: BillingFrequency } | null {
  const match = name.match(/^Ferry (\S+) (MONTHLY|ANNUAL|BIANNUAL) /);
  return match ? { planCode: match[1] as PlanCode, frequency: match[2] as BillingFrequency } : null;
}
