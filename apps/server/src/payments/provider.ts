import type {
  BillingFrequency,
  CardDetails,
  Currency,
  PaymentIntentStatus,
  PaymentProviderName,
  PlanCode,
  SubscriptionStatus,
} from '@ferry/core';

/*
 * The one port every payment provider sits behind (MANUAL, STRIPE, PAYPAL), chosen by PAYMENT_PROVIDERS.
 * Ferry keeps its own subscriptions, invoices (numbered, with VAT) and purchases; a provider only moves money and
 * tells what happened through verified webhook events, each processed once (by its provider event id).
 * Amounts are minor units.
 */

export interface ProviderCustomerInput {
  /** Ferry's paying account (a team's manager, or the user). */
  userId: string;
  email: string;
  name: string | null;
  countryCode: string | null;
}

export interface ProviderSubscriptionInput {
  /** Ferry's subscription id, carried as metadata so events find their way back. */
  subscriptionId: string;
  customerRef: string;
  planCode: PlanCode;
  frequency: BillingFrequency;
  currency: Currency;
  /** Per period, VAT excluded. */
  amount: number;
  /** VAT in percent to add (0 for reverse charge and outside the EU). */
  taxRate: number;
  /** 0: no trial. */
  trialDays: number;
  /** Shown on the provider's side ("Ferry PREMIUM, annual"). */
  description: string;
}

export interface ProviderSubscriptionResult {
  /** The provider's subscription id (MANUAL: Ferry's own id). */
  ref: string;
  status: SubscriptionStatus;
  intentStatus: PaymentIntentStatus | null;
  /** What the page confirms with the provider's script (payment or setup intent), when it must. */
  clientSecret: string | null;
  /** PayPal: where the buyer approves. */
  approveUrl: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  trialEndsAt: Date | null;
}

export interface ProviderChange {
  planCode?: PlanCode;
  frequency?: BillingFrequency;
  amount?: number;
  /** Charge the difference now (an upgrade), or from the next period (a downgrade). */
  prorate: boolean;
}

/** A one-time payment: a file sale. */
export interface ProviderPaymentInput {
  /** Ferry's purchase id (metadata). */
  purchaseId: string;
  email: string;
  /** VAT included. */
  total: number;
  currency: Currency;
  description: string;
  /** Where a provider that sends the buyer away (PayPal) brings them back: a path of the public origin. */
  returnPath?: string;
}

export interface ProviderPaymentResult {
  ref: string;
  status: PaymentIntentStatus;
  clientSecret: string | null;
  approveUrl: string | null;
}

/** What a verified webhook says, in Ferry's words. `eventId` is the provider's: each is processed once. */
export type ProviderEvent =
  | {
      kind: 'subscription.paid';
      eventId: string;
      subscriptionRef: string;
      /** VAT included, as charged. */
      amountPaid: number;
      currency: Currency;
      periodStart: Date;
      periodEnd: Date;
      /** The provider's invoice or capture id. */
      paymentRef: string;
    }
  | {
      kind: 'subscription.payment_failed';
      eventId: string;
      subscriptionRef: string;
      intentStatus: PaymentIntentStatus;
      /** Set when the user can fix it in the page (requires_action / requires_confirmation). */
      clientSecret: string | null;
    }
  | {
      kind: 'subscription.updated';
      eventId: string;
      subscriptionRef: string;
      status: SubscriptionStatus;
      currentPeriodEnd: Date | null;
      cancelAtPeriodEnd: boolean;
    }
  | { kind: 'subscription.canceled'; eventId: string; subscriptionRef: string }
  | { kind: 'payment.succeeded'; eventId: string; paymentRef: string }
  | { kind: 'payment.failed'; eventId: string; paymentRef: string; intentStatus: PaymentIntentStatus }
  /** Verified, but nothing Ferry acts on. */
  | { kind: 'ignored'; eventId: string; type: string };

export class WebhookSignatureError extends Error {}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** MANUAL collects by bank transfer against an invoice; card providers charge themselves. */
  readonly collects: 'invoice' | 'card';
  /** The provider's customer id for this account (created once, then reused). */
  ensureCustomer(input: ProviderCustomerInput, existingRef: string | null): Promise<string>;
  startSubscription(input: ProviderSubscriptionInput): Promise<ProviderSubscriptionResult>;
  changeSubscription(ref: string, change: ProviderChange): Promise<ProviderSubscriptionResult>;
  setCancelAtPeriodEnd(ref: string, cancel: boolean): Promise<void>;
  cancelNow(ref: string): Promise<void>;
  /** Dunning: ask the provider to charge the failed renewal again. */
  retryRenewal(ref: string): Promise<{ status: PaymentIntentStatus; clientSecret: string | null }>;
  defaultCard(customerRef: string): Promise<CardDetails | null>;
  startPayment(input: ProviderPaymentInput): Promise<ProviderPaymentResult>;
  paymentStatus(ref: string): Promise<PaymentIntentStatus>;
  /** Checks the signature over the raw body exactly as the provider signs it; throws WebhookSignatureError. */
  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<ProviderEvent>;
}
