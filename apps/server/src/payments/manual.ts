import type { PaymentIntentStatus } from '@ferry/core';
import type {
  PaymentProvider,
  ProviderChange,
  ProviderEvent,
  ProviderPaymentResult,
  ProviderSubscriptionInput,
  ProviderSubscriptionResult,
} from './provider.js';
import { WebhookSignatureError } from './provider.js';

/**
 * MANUAL: the buyer pays an invoice by bank transfer and an operator marks it paid. No money moves through
 * Ferry and nothing calls out: Ferry's own subscription is the whole record (its ref is Ferry's id). The
 * subscription service issues the invoices and starts the plan when one is paid (Invoices.onPaid).
 */
export class ManualProvider implements PaymentProvider {
  readonly name = 'MANUAL' as const;
  readonly collects = 'invoice' as const;

  async ensureCustomer(input: { userId: string }, existingRef: string | null): Promise<string> {
    return existingRef ?? input.userId;
  }

  async startSubscription(input: ProviderSubscriptionInput): Promise<ProviderSubscriptionResult> {
    return {
      ref: input.subscriptionId,
      status: 'incomplete',
      intentStatus: null,
      clientSecret: null,
      approveUrl: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      trialEndsAt: null,
    };
  }

  async changeSubscription(ref: string, _change: ProviderChange): Promise<ProviderSubscriptionResult> {
    return {
      ref,
      status: 'active',
      intentStatus: null,
      clientSecret: null,
      approveUrl: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      trialEndsAt: null,
    };
  }

  async setCancelAtPeriodEnd(): Promise<void> {}

  async cancelNow(): Promise<void> {}

  /** A MANUAL renewal is not charged again: dunning reminds the buyer of the open invoice instead. */
  async retryRenewal(): Promise<{ status: PaymentIntentStatus; clientSecret: string | null }> {
    return { status: 'requires_payment_method', clientSecret: null };
  }

  async defaultCard(): Promise<null> {
    return null;
  }

  async startPayment(): Promise<ProviderPaymentResult> {
    throw new Error('MANUAL does not take one-time payments (selling files needs a card provider)');
  }

  async paymentStatus(): Promise<PaymentIntentStatus> {
    return 'requires_payment_method';
  }

  async verifyWebhook(): Promise<ProviderEvent> {
    throw new WebhookSignatureError('MANUAL has no webhooks');
  }
}
