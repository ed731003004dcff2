import type { BillingFrequency, PlanCode, PlanOffer } from '@ferry/core';
import { intlLocale } from '../../lib/format';

/** The PREMIUM family: one card with a storage choice (spec §3 codes, §9 storage). */
export const PREMIUM_FAMILY: readonly PlanCode[] = ['PREMIUM', 'PREMIUM_2TB', 'PREMIUM_5TB', 'PREMIUM_10TB'];
/** The team plans, each its own card. */
export const TEAM_FAMILY: readonly PlanCode[] = ['TEAM', 'TEAM10', 'TEAM25'];

/** Storage in the user's language: 1000 GB → "1 TB", 500 GB → "500 GB". */
export function formatStorage(storageGB: number, locale: string): string {
  const [value, unit] = storageGB >= 1000 ? [storageGB / 1000, 'terabyte'] : [storageGB, 'gigabyte'];
  return new Intl.NumberFormat(intlLocale(locale), { style: 'unit', unit, maximumFractionDigits: 1 }).format(
    value,
  );
}

/** The self-service plans of a catalogue, in the order of the spec's codes. */
export function selfServicePlans(plans: readonly PlanOffer[]): PlanOffer[] {
  return plans.filter((plan) => plan.selfService);
}

/** Where "choose" leads: sign-up with the plan (signed out), or checkout (signed in). */
export function choosePath(
  signedIn: boolean,
  plan: { code: PlanCode; frequency: BillingFrequency; trial: boolean; currency: string },
): string {
  if (!signedIn) {
    const query = new URLSearchParams({
      type: plan.code,
      frequency: plan.frequency,
      trial: String(plan.trial),
    });
    return `/register?${query}`;
  }
  return checkoutPath(plan);
}

/** The checkout inside /account/subscriptions, with a plan chosen beforehand. */
export function checkoutPath(plan: {
  code: PlanCode;
  frequency?: BillingFrequency | undefined;
  trial?: boolean | undefined;
  currency?: string | undefined;
}): string {
  const query = new URLSearchParams({ plan: plan.code });
  if (plan.frequency) query.set('frequency', plan.frequency);
  if (plan.trial !== undefined) query.set('trial', String(plan.trial));
  if (plan.currency) query.set('currency', plan.currency);
  return `/account/subscriptions?${query}`;
}

/**
 * Where signing in (or confirming the address) leads when no page was asked for: to checkout with the plan
 * chosen at sign-up while the account has no plan yet, else `next`.
 */
export function afterSignInPath(
  next: string,
  state: {
    planType: string;
    chosenPlan: {
      type: PlanCode;
      frequency?: BillingFrequency | undefined;
      trial?: boolean | undefined;
    } | null;
  },
): string {
  if (next !== '/' || state.planType !== 'NONE' || !state.chosenPlan) return next;
  const { type, frequency, trial } = state.chosenPlan;
  return checkoutPath({ code: type, frequency, trial });
}
