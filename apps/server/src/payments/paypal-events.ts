import type { Currency, PaymentIntentStatus, SubscriptionStatus } from '@ferry/core';
import { minorUnits } from './paypal-client.js';
import { type ProviderEvent, WebhookSignatureError } from './provider.js';

/** The note PayPal keeps on a subscription Ferry suspended to end it at the period's end. */
export const CANCEL_AT_PERIOD_END_NOTE = 'Cancelled at the end of the paid period';

export interface PayPalSubscription {
  id: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  plan_id: string;
  custom_id?: string;
  start_time?: string;
  status_change_note?: string;
  billing_info?: {
    next_billing_time?: string;
    last_payment?: { amount: { value: string; currency_code: string }; time: string };
    outstanding_balance?: { value: string; currency_code: string };
    failed_payments_count?: number;
  };
  links?: { href: string; rel: string }[];
}

export interface PayPalPlan {
  id: string;
  name: string;
  status: string;
  product_id: string;
  billing_cycles: {
    tenure_type: 'TRIAL' | 'REGULAR';
    sequence: number;
    pricing_scheme?: { fixed_price?: { value: string; currency_code: string } };
  }[];
}

export function subscriptionStatusOf(subscription: PayPalSubscription): SubscriptionStatus {
  switch (subscription.status) {
    case 'ACTIVE':
      return 'active';
    case 'SUSPENDED':
      return subscription.status_change_note === CANCEL_AT_PERIOD_END_NOTE ? 'active' : 'past_due';
    case 'CANCELLED':
    case 'EXPIRED':
      return 'canceled';
    default:
      return 'incomplete';
  }
}

/** What mapping an event may need to ask PayPal (the event carries only the resource that changed). */
export interface PayPalEventLookups {
  subscription(id: string): Promise<PayPalSubscription>;
  plan(id: string): Promise<PayPalPlan>;
  /** Captures an approved order (idempotent) and says where it stands. */
  capture(orderId: string): Promise<PaymentIntentStatus>;
}

interface PayPalEvent {
  id: string;
  event_type: string;
  // biome-ignore lint/suspicious/noExplicitAny: each event type has its own resource shape.
  resource: any;
}

const date = (value: string | undefined | null) => (value ? new Date(value) : null);

/**
 * A verified PayPal event in Ferry's words:
 *   BILLING.SUBSCRIPTION.ACTIVATED → subscription.paid for a trial (amount 0, the trial as its period; the first
 *   payment of a subscription without a trial comes as PAYMENT.SALE.COMPLETED), subscription.updated otherwise;
 *   PAYMENT.SALE.COMPLETED → subscription.paid; BILLING.SUBSCRIPTION.PAYMENT.FAILED → payment_failed;
 *   BILLING.SUBSCRIPTION.CANCELLED / EXPIRED → canceled; SUSPENDED / RE-ACTIVATED / UPDATED → updated;
 *   CHECKOUT.ORDER.APPROVED (captured here) and PAYMENT.CAPTURE.COMPLETED → payment.succeeded (the order's id);
 *   PAYMENT.CAPTURE.DENIED → payment.failed. Anything else: ignored.
 */
export async function mapPayPalEvent(rawBody: Buffer, lookups: PayPalEventLookups): Promise<ProviderEvent> {
  let event: PayPalEvent;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('not JSON');
  }
  if (typeof event?.id !== 'string' || typeof event.event_type !== 'string')
    throw new WebhookSignatureError('not a PayPal event');
  const eventId = event.id;
  const resource = event.resource ?? {};
  const ignored: ProviderEvent = { kind: 'ignored', eventId, type: event.event_type };
  switch (event.event_type) {
    case 'BILLING.SUBSCRIPTION.ACTIVATED': {
      const subscription = await lookups.subscription(resource.id);
      const plan = await lookups.plan(subscription.plan_id);
      const next = date(subscription.billing_info?.next_billing_time);
      const start = date(subscription.start_time) ?? new Date();
      if (plan.billing_cycles.some((c) => c.tenure_type === 'TRIAL') && next)
        return {
          kind: 'subscription.paid',
          eventId,
          subscriptionRef: subscription.id,
          amountPaid: 0,
          currency: (plan.billing_cycles.find((c) => c.pricing_scheme?.fixed_price)?.pricing_scheme
            ?.fixed_price?.currency_code ?? 'EUR') as Currency,
          periodStart: start,
          periodEnd: next,
          paymentRef: `${subscription.id}:trial`,
        };
      return updated(eventId, subscription);
    }
    case 'BILLING.SUBSCRIPTION.SUSPENDED':
    case 'BILLING.SUBSCRIPTION.RE-ACTIVATED':
    case 'BILLING.SUBSCRIPTION.UPDATED':
      return updated(eventId, resource as PayPalSubscription);
    case 'BILLING.SUBSCRIPTION.CANCELLED':
    case 'BILLING.SUBSCRIPTION.EXPIRED':
      return { kind: 'subscription.canceled', eventId, subscriptionRef: resource.id };
    case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED':
      return {
        kind: 'subscription.payment_failed',
        eventId,
        subscriptionRef: resource.id,
        intentStatus: 'requires_payment_method',
        clientSecret: null,
      };
    case 'PAYMENT.SALE.COMPLETED': {
      const subscriptionRef: string | undefined = resource.billing_agreement_id;
      if (!subscriptionRef) return ignored;
      const subscription = await lookups.subscription(subscriptionRef);
      const paidAt = date(resource.create_time) ?? new Date();
      return {
        kind: 'subscription.paid',
        eventId,
        subscriptionRef,
        amountPaid: minorUnits(resource.amount?.total),
        currency: String(resource.amount?.currency).toUpperCase() as Currency,
        periodStart: paidAt,
        periodEnd: date(subscription.billing_info?.next_billing_time) ?? paidAt,
        paymentRef: resource.id,
      };
    }
    case 'CHECKOUT.ORDER.APPROVED': {
      const status = await lookups.capture(resource.id);
      if (status === 'succeeded') return { kind: 'payment.succeeded', eventId, paymentRef: resource.id };
      if (status === 'processing') return ignored;
      return { kind: 'payment.failed', eventId, paymentRef: resource.id, intentStatus: status };
    }
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.DENIED': {
      const orderId: string | undefined = resource.supplementary_data?.related_ids?.order_id;
      if (!orderId) return ignored;
      return event.event_type === 'PAYMENT.CAPTURE.COMPLETED'
        ? { kind: 'payment.succeeded', eventId, paymentRef: orderId }
        : { kind: 'payment.failed', eventId, paymentRef: orderId, intentStatus: 'requires_payment_method' };
    }
    default:
      return ignored;
  }
}

function updated(eventId: string, subscription: PayPalSubscription): ProviderEvent {
  return {
    kind: 'subscription.updated',
    eventId,
    subscriptionRef: subscription.id,
    status: subscriptionStatusOf(subscription),
    currentPeriodEnd: date(subscription.billing_info?.next_billing_time),
    cancelAtPeriodEnd:
      subscription.status === 'SUSPENDED' && subscription.status_change_note === CANCEL_AT_PERIOD_END_NOTE,
  };
}
