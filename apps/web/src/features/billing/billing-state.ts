import type { AuthState, CardDetails, PaymentInfos, PlanType } from '@ferry/core';

/*
 * Spec §4 "Billing state" as pure functions (for a user with the BILLING permission); the hook and the banner
 * only wire them to the API and to React.
 */

/** Who may see subscription and payment status (spec §6): the paying account itself, or a BILLING member. */
export function hasBilling(state: AuthState): boolean {
  if (!state.user) return false;
  return state.managerId === null || state.authorization.permissions.includes('BILLING');
}

/** The paying account of the customer calls: the team's manager, or the user themself. */
export function billingManagerId(state: AuthState): string | null {
  return state.managerId ?? state.user?.uid ?? null;
}

export type CardState = 'valid' | 'about_to_expire' | 'expired';

/**
 * Spec §4: a card is expired once its expiry month has passed, and about to expire once the month before it has
 * passed (so during its last month), checked against the user's calendar date `now`.
 */
export function cardState(card: Pick<CardDetails, 'exp_month' | 'exp_year'>, now: Date): CardState {
  const current = now.getFullYear() * 12 + now.getMonth();
  const last = card.exp_year * 12 + (card.exp_month - 1);
  if (current > last) return 'expired';
  if (current > last - 1) return 'about_to_expire';
  return 'valid';
}

export type BillingAlert =
  | { kind: 'none' }
  | { kind: 'card_expired'; card: CardDetails }
  | { kind: 'card_about_to_expire'; card: CardDetails }
  /** A payment waits for the user (3-D Secure…): confirm it with this client secret. */
  | { kind: 'action_required'; clientSecret: string }
  | { kind: 'payment_method_required' };

export interface BillingState {
  alert: BillingAlert;
  /** Open invoices above 0 force the due-amount dialog (spec §4). */
  due: { amount: number; currency: string } | null;
}

/** Subscriptions that give the plan now; `incomplete` (not paid yet) and `canceled` give none. */
const LIVE = new Set(['trialing', 'active', 'past_due']);

/**
 * Spec §4: intent succeeded or processing → the card checks; requires_action or requires_confirmation with a
 * failed client secret → user action required; any other status → a payment method is required. A MANUAL
 * subscription has no card and no intent (invoices paid by transfer): only its open invoices count; an intent
 * not known yet (null) is checked like a succeeded one.
 */
export function billingStateOf(infos: PaymentInfos | null | undefined, now: Date): BillingState {
  const subscription = infos?.subscription ?? null;
  if (!subscription) return { alert: { kind: 'none' }, due: null };
  const due =
    subscription.openedInvoicesAmount > 0
      ? { amount: subscription.openedInvoicesAmount, currency: subscription.currency }
      : null;
  if (subscription.provider === 'MANUAL' || subscription.status === 'canceled') {
    return { alert: { kind: 'none' }, due };
  }
  const status = subscription.intentStatus;
  if (status === null || status === 'succeeded' || status === 'processing') {
    const card = infos?.defaultPaymentMethod?.card ?? null;
    if (!card) return { alert: { kind: 'none' }, due };
    const state = cardState(card, now);
    if (state === 'expired') return { alert: { kind: 'card_expired', card }, due };
    if (state === 'about_to_expire') return { alert: { kind: 'card_about_to_expire', card }, due };
    return { alert: { kind: 'none' }, due };
  }
  if (
    (status === 'requires_action' || status === 'requires_confirmation') &&
    subscription.failedIntentClientSecret
  ) {
    return { alert: { kind: 'action_required', clientSecret: subscription.failedIntentClientSecret }, due };
  }
  return { alert: { kind: 'payment_method_required' }, due };
}

export type PlanCheck =
  /** The session's plan is the subscription's (or both are none). */
  | { kind: 'match' }
  /** Spec §4: refresh the session up to 5 times, waiting 1 s × the attempt number. */
  | { kind: 'retry'; expected: PlanType }
  /** Spec §4: no subscription but a paying session plan: refresh the session once. */
  | { kind: 'refresh_once' };

/**
 * Spec §4 plan mismatch: compares the subscription's plan type with the session's. Only a live subscription
 * gives a plan (an unpaid MANUAL one does not yet). A session plan given by an operator without any subscription
 * is left alone after its one refresh.
 */
export function planCheck(infos: PaymentInfos | null | undefined, sessionPlan: PlanType): PlanCheck {
  const subscription = infos?.subscription ?? null;
  if (subscription && LIVE.has(subscription.status)) {
    return subscription.planType === sessionPlan
      ? { kind: 'match' }
      : { kind: 'retry', expected: subscription.planType };
  }
  return sessionPlan === 'NONE' ? { kind: 'match' } : { kind: 'refresh_once' };
}

/** Wait before the mismatch retry number `attempt` (1-based): 1 s × attempt (spec §9). */
export function mismatchRetryDelay(attempt: number): number {
  return 1000 * attempt;
}
