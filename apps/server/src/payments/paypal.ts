import type { CardDetails, Currency, PaymentIntentStatus } from '@ferry/core';
import type { Logger } from 'pino';
import { PayPalCatalog, parsePlanName } from './paypal-catalog.js';
import {
  linkOf,
  minorUnits,
  PayPalApiError,
  PayPalClient,
  type PayPalSettings,
  paypalAmount,
} from './paypal-client.js';
import {
  CANCEL_AT_PERIOD_END_NOTE,
  mapPayPalEvent,
  type PayPalEventLookups,
  type PayPalPlan,
  type PayPalSubscription,
  subscriptionStatusOf,
} from './paypal-events.js';
import { PayPalSignatures } from './paypal-webhooks.js';
import type {
  PaymentProvider,
  ProviderChange,
  ProviderCustomerInput,
  ProviderEvent,
  ProviderPaymentInput,
  ProviderPaymentResult,
  ProviderSubscriptionInput,
  ProviderSubscriptionResult,
} from './provider.js';

interface PayPalOrder {
  id: string;
  status: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
  links?: { href: string; rel: string }[];
  purchase_units?: { payments?: { captures?: { id: string; status: string }[] } }[];
}

export function orderStatusOf(order: Pick<PayPalOrder, 'status'>): PaymentIntentStatus {
  switch (order.status) {
    case 'COMPLETED':
      return 'succeeded';
    case 'APPROVED':
      return 'processing';
    case 'VOIDED':
      return 'requires_payment_method';
    default:
      return 'requires_action';
  }
}

export interface PayPalProviderOptions {
  /** Where PayPal sends the buyer back after approving or cancelling (Ferry's public origin). */
  publicOrigin?: string | null;
  brandName?: string;
}

/**
 * PAYPAL: PayPal subscriptions and orders over its REST API with plain fetch (the official server SDK covers
 * orders and payments, not catalog products, billing plans and subscriptions, nor the local webhook check). The
 * buyer approves on PayPal (approveUrl) — there is no card entry in Ferry's pages, so no default card either.
 *
 * - One catalog product per plan code (id `FERRY-<PLAN>`), one billing plan per plan code, frequency, currency and
 *   trial length (found again by name, so a restart makes no new ones). The price and the VAT (PayPal's plan
 *   `taxes`, exclusive) are set per subscription as a plan override.
 * - A change of plan is a revision (the buyer approves a higher price on PayPal); PayPal does not prorate: the new
 *   price applies from the next billing cycle.
 * - PayPal cannot end a subscription at the period's end: Ferry suspends it (nothing more is charged) with a note,
 *   reactivates it to resume, and cancels it when the period is over.
 * - One-time payments are checkout orders (intent CAPTURE). They are captured when the buyer is back
 *   (`paymentStatus` captures an approved order), or when PayPal's CHECKOUT.ORDER.APPROVED event arrives first.
 */
export class PayPalProvider implements PaymentProvider {
  readonly name = 'PAYPAL' as const;
  readonly collects = 'card' as const;
  private readonly client: PayPalClient;
  private readonly signatures: PayPalSignatures;
  private readonly catalog: PayPalCatalog;
  private readonly origin: string | null;
  private readonly brandName: string;

  constructor(
    settings: PayPalSettings,
    private readonly logger: Logger,
    options: PayPalProviderOptions = {},
  ) {
    this.client = new PayPalClient(settings);
    this.signatures = new PayPalSignatures(settings.webhookId, settings.certUrlPrefix);
    this.origin = options.publicOrigin ?? null;
    this.brandName = options.brandName ?? 'Ferry';
    this.catalog = new PayPalCatalog(this.client, this.brandName);
  }

  /** PayPal has no customers to keep: the buyer signs in on PayPal. Ferry's account id stands for one. */
  async ensureCustomer(input: ProviderCustomerInput, existingRef: string | null): Promise<string> {
    return existingRef ?? `ferry:${input.userId}`;
  }

  async startSubscription(input: ProviderSubscriptionInput): Promise<ProviderSubscriptionResult> {
    const planId = await this.catalog.plan(input.planCode, input.frequency, input.currency, input.trialDays);
    const subscription = await this.client.request<PayPalSubscription>(
      'POST',
      '/v1/billing/subscriptions',
      {
        plan_id: planId,
        custom_id: input.subscriptionId,
        plan: this.planOverride(input.amount, input.currency, input.taxRate, input.trialDays > 0 ? 2 : 1),
        application_context: {
          brand_name: this.brandName,
          user_action: 'SUBSCRIBE_NOW',
          shipping_preference: 'NO_SHIPPING',
          ...this.returnUrls('subscription'),
        },
      },
      { requestId: `ferry-subscription-${input.subscriptionId}` },
    );
    const approveUrl = linkOf(subscription, 'approve');
    return {
      ref: subscription.id,
      status: subscriptionStatusOf(subscription),
      intentStatus: approveUrl ? 'requires_action' : 'succeeded',
      clientSecret: null,
      approveUrl,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      trialEndsAt: input.trialDays > 0 ? new Date(Date.now() + input.trialDays * 86_400_000) : null,
    };
  }

  async changeSubscription(ref: string, change: ProviderChange): Promise<ProviderSubscriptionResult> {
    // With its plan as overridden for it: its own price and VAT.
    const current = await this.client.request<PayPalSubscription & { plan?: PlanOverride }>(
      'GET',
      `/v1/billing/subscriptions/${encodeURIComponent(ref)}?fields=plan`,
    );
    const plan = await this.client.request<PayPalPlan>(
      'GET',
      `/v1/billing/plans/${encodeURIComponent(current.plan_id)}`,
    );
    const price = current.plan?.billing_cycles?.find((c) => c.pricing_scheme?.fixed_price)?.pricing_scheme
      ?.fixed_price;
    const currency = (price?.currency_code ?? 'EUR') as Currency;
    const parsed = parsePlanName(plan.name);
    const planCode = change.planCode ?? parsed?.planCode ?? 'PREMIUM';
    const frequency = change.frequency ?? parsed?.frequency ?? 'MONTHLY';
    const amount = change.amount ?? minorUnits(price?.value);
    const taxRate = Number(current.plan?.taxes?.percentage ?? 0);
    const planId = await this.catalog.plan(planCode, frequency, currency, 0);
    const revised = await this.client.request<{ links?: { href: string; rel: string }[] }>(
      'POST',
      `/v1/billing/subscriptions/${encodeURIComponent(ref)}/revise`,
      {
        plan_id: planId,
        plan: this.planOverride(amount, currency, taxRate, 1),
        application_context: { brand_name: this.brandName, ...this.returnUrls('subscription') },
      },
    );
    const approveUrl = linkOf(revised, 'approve');
    const next = current.billing_info?.next_billing_time;
    return {
      ref,
      status: subscriptionStatusOf(current),
      intentStatus: approveUrl ? 'requires_action' : 'succeeded',
      clientSecret: null,
      approveUrl,
      currentPeriodStart: current.billing_info?.last_payment
        ? new Date(current.billing_info.last_payment.time)
        : null,
      currentPeriodEnd: next ? new Date(next) : null,
      trialEndsAt: null,
    };
  }

  async setCancelAtPeriodEnd(ref: string, cancel: boolean): Promise<void> {
    const path = `/v1/billing/subscriptions/${encodeURIComponent(ref)}/${cancel ? 'suspend' : 'activate'}`;
    await this.client.request('POST', path, {
      reason: cancel ? CANCEL_AT_PERIOD_END_NOTE : 'Resumed by the customer',
    });
  }

  async cancelNow(ref: string): Promise<void> {
    try {
      await this.client.request('POST', `/v1/billing/subscriptions/${encodeURIComponent(ref)}/cancel`, {
        reason: 'Cancelled by the customer',
      });
    } catch (error) {
      // Already cancelled or expired: what was asked is so.
      if (!(error instanceof PayPalApiError && error.issue === 'SUBSCRIPTION_STATUS_INVALID')) throw error;
    }
  }

  async retryRenewal(ref: string): Promise<{ status: PaymentIntentStatus; clientSecret: string | null }> {
    const subscription = await this.subscription(ref);
    const balance = subscription.billing_info?.outstanding_balance;
    if (!balance || minorUnits(balance.value) === 0) return { status: 'succeeded', clientSecret: null };
    try {
      const capture = await this.client.request<{ status?: string }>(
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(ref)}/capture`,
        { note: 'Renewal retried', capture_type: 'OUTSTANDING_BALANCE', amount: balance },
      );
      return { status: capture.status === 'COMPLETED' ? 'succeeded' : 'processing', clientSecret: null };
    } catch (error) {
      if (!(error instanceof PayPalApiError) || error.status !== 422) throw error;
      this.logger.info({ ref, issue: error.issue }, 'PayPal renewal retry declined');
      return { status: 'requires_payment_method', clientSecret: null };
    }
  }

  async defaultCard(): Promise<CardDetails | null> {
    return null;
  }

  async startPayment(input: ProviderPaymentInput): Promise<ProviderPaymentResult> {
    const order = await this.client.request<PayPalOrder>(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            custom_id: input.purchaseId,
            description: input.description.slice(0, 127),
            amount: { currency_code: input.currency, value: paypalAmount(input.total) },
          },
        ],
        payment_source: {
          paypal: {
            email_address: input.email,
            experience_context: {
              brand_name: this.brandName,
              user_action: 'PAY_NOW',
              shipping_preference: 'NO_SHIPPING',
              ...this.returnUrls('payment', input.returnPath),
            },
          },
        },
      },
      { requestId: `ferry-purchase-${input.purchaseId}` },
    );
    return {
      ref: order.id,
      status: orderStatusOf(order),
      clientSecret: null,
      approveUrl: linkOf(order, 'payer-action', 'approve'),
    };
  }

  /** Where an order stands; an order the buyer approved is captured now (once: PayPal-Request-Id). */
  async paymentStatus(ref: string): Promise<PaymentIntentStatus> {
    const order = await this.client.request<PayPalOrder>(
      'GET',
      `/v2/checkout/orders/${encodeURIComponent(ref)}`,
    );
    if (order.status !== 'APPROVED') return orderStatusOf(order);
    return this.capture(ref);
  }

  /** Captures an approved order; what the page calls when the buyer comes back from PayPal. */
  async capture(ref: string): Promise<PaymentIntentStatus> {
    try {
      const captured = await this.client.request<PayPalOrder>(
        'POST',
        `/v2/checkout/orders/${encodeURIComponent(ref)}/capture`,
        {},
        { requestId: `ferry-capture-${ref}` },
      );
      const capture = captured.purchase_units?.[0]?.payments?.captures?.[0];
      if (captured.status === 'COMPLETED' && capture?.status === 'COMPLETED') return 'succeeded';
      return capture?.status === 'DECLINED' ? 'requires_payment_method' : 'processing';
    } catch (error) {
      if (!(error instanceof PayPalApiError)) throw error;
      if (error.issue === 'ORDER_ALREADY_CAPTURED') return 'succeeded';
      if (error.issue === 'INSTRUMENT_DECLINED' || error.issue === 'PAYER_ACTION_REQUIRED')
        return 'requires_action';
      throw error;
    }
  }

  async verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<ProviderEvent> {
    await this.signatures.verify(rawBody, headers);
    const lookups: PayPalEventLookups = {
      subscription: (id) => this.subscription(id),
      plan: (id) => this.client.request<PayPalPlan>('GET', `/v1/billing/plans/${encodeURIComponent(id)}`),
      capture: (orderId) => this.capture(orderId),
    };
    return mapPayPalEvent(rawBody, lookups);
  }

  private subscription(ref: string): Promise<PayPalSubscription> {
    return this.client.request<PayPalSubscription>(
      'GET',
      `/v1/billing/subscriptions/${encodeURIComponent(ref)}`,
    );
  }

  private returnUrls(
    kind: 'subscription' | 'payment',
    returnPath?: string,
  ): { return_url?: string; cancel_url?: string } {
    if (!this.origin) return {};
    // A buyer of files goes back to the transfer's page, which picks up the payment it started.
    if (returnPath?.startsWith('/'))
      return { return_url: `${this.origin}${returnPath}`, cancel_url: `${this.origin}${returnPath}` };
    const back = `${this.origin}/account/subscriptions?provider=PAYPAL&${kind}=`;
    return { return_url: `${back}approved`, cancel_url: `${back}cancelled` };
  }

  private planOverride(amount: number, currency: Currency, taxRate: number, regularSequence: number) {
    return {
      billing_cycles: [
        {
          sequence: regularSequence,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { value: paypalAmount(amount), currency_code: currency } },
        },
      ],
      taxes: { percentage: String(taxRate), inclusive: false },
    };
  }
}

interface PlanOverride {
  billing_cycles?: {
    sequence: number;
    pricing_scheme?: { fixed_price?: { value: string; currency_code: string } };
  }[];
  taxes?: { percentage: string; inclusive?: boolean };
}
