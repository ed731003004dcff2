import type { Currency, PaymentIntentStatus, SubscriptionStatus } from '@ferry/core';
import Stripe from 'stripe';
import { type ProviderEvent, WebhookSignatureError } from './provider.js';

type InvoiceIntent = (
  invoiceId: string,
) => Promise<{ status: PaymentIntentStatus; clientSecret: string | null }>;

export const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Stripe's statuses in Ferry's words. */
export function subscriptionStatusOf(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'canceled':
      return 'canceled';
    case 'incomplete':
      return 'incomplete';
    case 'incomplete_expired':
      return 'canceled';
    default:
      // unpaid, paused: not charged any more until the customer acts.
      return 'past_due';
  }
}

export function intentStatusOf(
  status: Stripe.PaymentIntent.Status | Stripe.SetupIntent.Status,
): PaymentIntentStatus {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'requires_action':
      return 'requires_action';
    case 'requires_confirmation':
      return 'requires_confirmation';
    case 'processing':
      return 'processing';
    case 'requires_capture':
      return 'processing';
    default:
      return 'requires_payment_method';
  }
}

const date = (seconds: number) => new Date(seconds * 1000);

/**
 * Checks a Stripe webhook (the Stripe-Signature header: t=<unix>,v1=<HMAC-SHA256 of "t.body">, five minutes of
 * tolerance) with the SDK, and says what it means for Ferry.
 */
export async function mapStripeEvent(
  stripe: Stripe,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  invoiceIntent: InvoiceIntent,
): Promise<ProviderEvent> {
  const signature = headers['stripe-signature'];
  if (typeof signature !== 'string' || !signature)
    throw new WebhookSignatureError('no Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw new WebhookSignatureError(error.message);
    throw new WebhookSignatureError('not a Stripe event');
  }
  const eventId = event.id;
  const ignored: ProviderEvent = { kind: 'ignored', eventId, type: event.type };
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const invoice = event.data.object;
      const subscriptionRef = idOf(invoice.parent?.subscription_details?.subscription);
      const lines = invoice.lines?.data ?? [];
      if (!subscriptionRef || !invoice.id) return ignored;
      const starts = lines.map((l) => l.period.start);
      const ends = lines.map((l) => l.period.end);
      return {
        kind: 'subscription.paid',
        eventId,
        subscriptionRef,
        amountPaid: invoice.amount_paid,
        currency: invoice.currency.toUpperCase() as Currency,
        periodStart: date(starts.length ? Math.min(...starts) : invoice.period_start),
        periodEnd: date(ends.length ? Math.max(...ends) : invoice.period_end),
        // The same for invoice.paid and invoice.payment_succeeded of one invoice: a handler counts it once.
        paymentRef: invoice.id,
      };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const subscriptionRef = idOf(invoice.parent?.subscription_details?.subscription);
      if (!subscriptionRef || !invoice.id) return ignored;
      const intent = await invoiceIntent(invoice.id);
      return {
        kind: 'subscription.payment_failed',
        eventId,
        subscriptionRef,
        intentStatus: intent.status,
        clientSecret:
          intent.status === 'requires_action' || intent.status === 'requires_confirmation'
            ? intent.clientSecret
            : null,
      };
    }
    case 'customer.subscription.updated': {
      const subscription = event.data.object;
      const end = subscription.items.data[0]?.current_period_end;
      return {
        kind: 'subscription.updated',
        eventId,
        subscriptionRef: subscription.id,
        status: subscriptionStatusOf(subscription.status),
        currentPeriodEnd: end ? date(end) : null,
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
      };
    }
    case 'customer.subscription.deleted':
      return { kind: 'subscription.canceled', eventId, subscriptionRef: event.data.object.id };
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      // Only Ferry's own one-time payments (file sales); invoices' intents come as invoice events.
      if (!intent.metadata?.ferryPurchaseId) return ignored;
      return event.type === 'payment_intent.succeeded'
        ? { kind: 'payment.succeeded', eventId, paymentRef: intent.id }
        : {
            kind: 'payment.failed',
            eventId,
            paymentRef: intent.id,
            intentStatus: intentStatusOf(intent.status),
          };
    }
    default:
      return ignored;
  }
}
