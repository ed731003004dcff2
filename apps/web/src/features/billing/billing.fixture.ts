import type { Invoice, PaymentInfos, PlanCatalogue, PlanCode, PlanOffer, Subscription } from '@ferry/core';
import { act } from 'react';
import { vi } from 'vitest';
import type { StripeChangeEvent, StripeLike, StripeResult } from './stripe';

function offer(planCode: PlanCode, storageGB: number, licences: number | null, monthly: number): PlanOffer {
  const planType = planCode === 'CUSTOM' ? 'ENTERPRISE' : planCode.startsWith('TEAM') ? 'TEAM' : 'PREMIUM';
  const prices =
    planCode === 'CUSTOM'
      ? []
      : (['EUR', 'USD'] as const).flatMap((currency) => {
          const base = currency === 'EUR' ? monthly : monthly + 100;
          return [
            { frequency: 'MONTHLY' as const, currency, amount: base },
            { frequency: 'ANNUAL' as const, currency, amount: base * 10 },
            { frequency: 'BIANNUAL' as const, currency, amount: base * 18 },
          ];
        });
  return { planCode, planType, storageGB, licences, prices, selfService: planCode !== 'CUSTOM' };
}

/** A catalogue: PREMIUM 10 €/month (annual = 10 months, biannual = 18 months), EUR and USD. */
export function catalogue(overrides: Partial<PlanCatalogue> = {}): PlanCatalogue {
  return {
    plans: [
      offer('PREMIUM', 1000, null, 1000),
      offer('PREMIUM_2TB', 2000, null, 1500),
      offer('PREMIUM_5TB', 5000, null, 2500),
      offer('PREMIUM_10TB', 10000, null, 4000),
      offer('TEAM', 2000, 5, 3000),
      offer('TEAM10', 2000, 10, 5000),
      offer('TEAM25', 2000, 25, 10000),
      offer('CUSTOM', 2000, null, 0),
    ],
    currencies: ['EUR', 'USD'],
    trialDays: 14,
    providers: ['MANUAL'],
    stripePublishableKey: null,
    paypalClientId: null,
    stripeJsUrl: null,
    ...overrides,
  };
}

export const STRIPE_JS_URL = 'https://js.stripe.test/v3/';

export function stripeCatalogue(overrides: Partial<PlanCatalogue> = {}): PlanCatalogue {
  return catalogue({
    providers: ['STRIPE', 'MANUAL'],
    stripePublishableKey: 'pk_test_123',
    stripeJsUrl: STRIPE_JS_URL,
    ...overrides,
  });
}

export function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub_1',
    planCode: 'PREMIUM',
    planType: 'PREMIUM',
    frequency: 'ANNUAL',
    provider: 'STRIPE',
    currency: 'EUR',
    status: 'active',
    amount: 10000,
    taxRate: 20,
    currentPeriodStart: '2030-01-01T00:00:00.000Z',
    currentPeriodEnd: '2031-01-01T00:00:00.000Z',
    trialEndsAt: null,
    cancelAtPeriodEnd: false,
    intentStatus: 'succeeded',
    ...overrides,
  };
}

export function paymentInfos(
  sub: Partial<NonNullable<PaymentInfos['subscription']>> | null = {},
  card: { exp_month: number; exp_year: number } | null = { exp_month: 12, exp_year: 2040 },
): PaymentInfos {
  return {
    subscription:
      sub === null
        ? null
        : {
            planType: 'PREMIUM',
            planCode: 'PREMIUM',
            provider: 'STRIPE',
            status: 'active',
            intentStatus: 'succeeded',
            failedIntentClientSecret: null,
            openedInvoicesAmount: 0,
            currency: 'EUR',
            ...sub,
          },
    defaultPaymentMethod: card ? { type: 'card', card: { brand: 'visa', last4: '4242', ...card } } : null,
  };
}

export function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    number: 'FRY-2030-000001',
    status: 'open',
    currency: 'EUR',
    subtotal: 10000,
    taxRate: 20,
    tax: 2000,
    total: 12000,
    amountDue: 12000,
    reverseCharge: false,
    provider: 'MANUAL',
    issuedAt: '2030-01-01T10:00:00.000Z',
    paidAt: null,
    lines: [{ description: 'Premium, yearly', quantity: 1, unitAmount: 10000, amount: 10000 }],
    pdfUrl: '/api/pay/invoices/FRY-2030-000001/pdf',
    ...overrides,
  };
}

/**
 * A stand-in for the Stripe.js subset the pages use (the browser library, not our code), set as window.Stripe.
 * `result` is what the confirm calls answer.
 */
export function fakeStripe(result: StripeResult = { paymentIntent: { status: 'succeeded' } }) {
  let onChange: ((event: StripeChangeEvent) => void) | null = null;
  const card = {
    mount: vi.fn(),
    on: vi.fn((_event: 'change', handler: (event: StripeChangeEvent) => void) => {
      onChange = handler;
    }),
    destroy: vi.fn(),
  };
  const stripe = {
    elements: vi.fn(() => ({ create: vi.fn(() => card) })),
    confirmCardPayment: vi.fn(async () => result),
    confirmCardSetup: vi.fn(async () => ({ setupIntent: { status: 'succeeded' }, ...result })),
  } satisfies StripeLike;
  const factory = vi.fn(() => stripe);
  window.Stripe = factory;
  return {
    factory,
    stripe,
    card,
    /** What Stripe's card element says when the user typed (or not) a full card. */
    async change(event: StripeChangeEvent) {
      await act(async () => onChange?.(event));
    },
  };
}

/** Picks an option of a <select> the way React sees it. */
export async function choose(element: HTMLSelectElement, value: string): Promise<void> {
  await act(async () => {
    element.value = value;
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** With fake timers: moves the clock on and lets promises and React settle. */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Text with the narrow and non-breaking spaces of Intl's formats made plain. */
export function plain(text: string | null | undefined): string {
  return (text ?? '').replace(/\u00a0|\u202f/g, ' ');
}
