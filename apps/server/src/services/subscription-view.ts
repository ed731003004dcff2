import {
  type BillingFrequency,
  FREQUENCY_MONTHS,
  type InvoiceSummary,
  planTypeOfCode,
  type Subscription,
} from '@ferry/core';
import type { SubscriptionRecord } from '../db/subscription.repository.js';
import type { IssuedInvoice } from './billing-ports.js';

const DAY_MS = 86_400_000;

export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

/** The same day of the month `months` later (UTC), or the month's last day when it has fewer days. */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export const periodEnd = (start: Date, frequency: BillingFrequency) =>
  addMonths(start, FREQUENCY_MONTHS[frequency]);

/** Price per month, to tell an upgrade (more per month: charged now, prorated) from a downgrade. */
export const monthly = (amount: number, frequency: BillingFrequency) => amount / FREQUENCY_MONTHS[frequency];

/**
 * What is left of the current period, credited against a new price: the unused share of what was paid for it
 * (minor units, rounded down).
 */
export function unusedCredit(sub: SubscriptionRecord, now: Date): number {
  const start = sub.currentPeriodStart?.getTime();
  const end = sub.currentPeriodEnd?.getTime();
  if (sub.status !== 'active' && sub.status !== 'past_due') return 0;
  if (start === undefined || end === undefined || end <= start) return 0;
  const left = Math.min(1, Math.max(0, (end - now.getTime()) / (end - start)));
  return Math.floor(sub.amount * left);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function subscriptionView(sub: SubscriptionRecord): Subscription {
  return {
    id: sub.id,
    planCode: sub.planCode,
    planType: planTypeOfCode(sub.planCode),
    frequency: sub.frequency,
    provider: sub.provider,
    currency: sub.currency,
    status: sub.status,
    amount: sub.amount,
    taxRate: sub.taxRate,
    currentPeriodStart: iso(sub.currentPeriodStart),
    currentPeriodEnd: iso(sub.currentPeriodEnd),
    trialEndsAt: iso(sub.trialEndsAt),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    intentStatus: sub.intentStatus,
  };
}

export const invoiceSummary = (invoice: IssuedInvoice): InvoiceSummary => ({
  number: invoice.number,
  amountDue: invoice.amountDue,
  currency: invoice.currency,
  pdfUrl: invoice.pdfUrl,
});

/** An invoice line and a provider's description: "Ferry PREMIUM, annual". */
export function subscriptionLine(productName: string, planCode: string, frequency: BillingFrequency): string {
  const label = { MONTHLY: 'monthly', ANNUAL: 'annual', BIANNUAL: 'two years' }[frequency];
  return `${productName} ${planCode}, ${label}`;
}
