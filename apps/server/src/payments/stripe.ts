import type { BillingFrequency, CardDetails, Currency, PaymentIntentStatus, PlanCode } from '@ferry/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import type { BillingConfig } from './config.js';
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
import { idOf, intentStatusOf, mapStripeEvent, subscriptionStatusOf } from './stripe-events.js';

export type StripeSettings = NonNullable<BillingConfig['stripe']>;

const RECURRING: Readonly<Record<BillingFrequency, { interval: 'month' | 'year'; interval_count: number }>> =
  {
    MONTHLY: { interval: 'month', interval_count: 1 },
    ANNUAL: { interval: 'year', interval_count: 1 },
    BIANNUAL: { interval: 'year', interval_count: 2 },
  };

/** The page can finish these itself with Stripe.js and the client secret. */
const PAGE_CAN_FINISH: ReadonlySet<PaymentIntentStatus> = new Set([
  'requires_action',
  'requires_confirmation',
  'requires_payment_method',
]);

/** The SDK's options: Stripe itself, or the stand-in at STRIPE_API_BASE (host, port and protocol). */
export function stripeClientOptions(apiBase: string | null): Stripe.StripeConfig {
  const options: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 30_000, appInfo: { name: 'Ferry' } };
  if (!apiBase) return options;
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    ...options,
    // An IPv6 literal is bracketed in a URL, not in a host name.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/**
 * STRIPE: Stripe Billing through the official SDK, at the API version the SDK is pinned to.
 *
 * - Prices are made inline (price_data) on one product per plan code (`ferry_<PLAN>`, created once). The VAT is
 *   added to the unit amount rather than kept as Stripe tax-rate objects: Ferry issues the invoices that carry the
 *   VAT itself, Stripe only collects the total. The subscription's metadata keeps the net amount and the rate, so
 *   a change of plan charges the same rate.
 * - A subscription starts `default_incomplete`: the page confirms its first invoice's payment intent (or, for a
 *   trial, its pending setup intent) with Stripe.js, SCA included. The card becomes the subscription's default.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'STRIPE' as const;
  readonly collects = 'card' as const;
  private readonly stripe: Stripe;
  private readonly products = new Map<PlanCode, Promise<string>>();

  constructor(
    private readonly settings: StripeSettings,
    private readonly logger: Logger,
  ) {
    this.stripe = new Stripe(settings.secretKey, stripeClientOptions(settings.apiBase));
  }

  async ensureCustomer(input: ProviderCustomerInput, existingRef: string | null): Promise<string> {
    if (existingRef) return existingRef;
    const customer = await this.stripe.customers.create(
      {
        email: input.email,
        ...(input.name ? { name: input.name } : {}),
        ...(input.countryCode ? { address: { country: input.countryCode } } : {}),
        metadata: { ferryUserId: input.userId },
      },
      // Two requests at once for the same account make one customer.
      { idempotencyKey: `ferry-customer-${input.userId}` },
    );
    return customer.id;
  }

  async startSubscription(input: ProviderSubscriptionInput): Promise<ProviderSubscriptionResult> {
    const product = await this.product(input.planCode);
    const subscription = await this.stripe.subscriptions.create({
      customer: input.customerRef,
      description: input.description,
      items: [
        {
          price_data: this.priceData(product, input.frequency, input.currency, input.amount, input.taxRate),
        },
      ],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
      ...(input.trialDays > 0 ? { trial_period_days: input.trialDays } : {}),
      metadata: {
        ferrySubscriptionId: input.subscriptionId,
        planCode: input.planCode,
        frequency: input.frequency,
        amount: String(input.amount),
        taxRate: String(input.taxRate),
      },
      expand: ['latest_invoice.payments', 'latest_invoice.confirmation_secret', 'pending_setup_intent'],
    });
    return this.result(subscription);
  }

  async changeSubscription(ref: string, change: ProviderChange): Promise<ProviderSubscriptionResult> {
    const current = await this.stripe.subscriptions.retrieve(ref);
    const item = current.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${ref} has no item`);
    const planCode = (change.planCode ?? current.metadata.planCode) as PlanCode;
    const frequency = (change.frequency ?? current.metadata.frequency) as BillingFrequency;
    const amount = change.amount ?? Number(current.metadata.amount);
    const taxRate = Number(current.metadata.taxRate ?? 0);
    const currency = item.price.currency.toUpperCase() as Currency;
    const product = await this.product(planCode);
    const updated = await this.stripe.subscriptions.update(ref, {
      items: [{ id: item.id, price_data: this.priceData(product, frequency, currency, amount, taxRate) }],
      // An upgrade is charged now for the rest of the period; a downgrade takes effect at the next renewal.
      proration_behavior: change.prorate ? 'always_invoice' : 'none',
      metadata: { planCode, frequency, amount: String(amount) },
      expand: ['latest_invoice.payments', 'latest_invoice.confirmation_secret', 'pending_setup_intent'],
    });
    return this.result(updated);
  }

  async setCancelAtPeriodEnd(ref: string, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(ref, { cancel_at_period_end: cancel });
  }

  async cancelNow(ref: string): Promise<void> {
    await this.stripe.subscriptions.cancel(ref);
  }

  async retryRenewal(ref: string): Promise<{ status: PaymentIntentStatus; clientSecret: string | null }> {
    const subscription = await this.stripe.subscriptions.retrieve(ref, { expand: ['latest_invoice'] });
    const invoice = subscription.latest_invoice;
    if (!invoice || typeof invoice === 'string') return { status: 'succeeded', clientSecret: null };
    if (invoice.status === 'open' && invoice.id) {
      try {
        await this.stripe.invoices.pay(invoice.id);
      } catch (error) {
        // A declined card or one that needs the customer: the intent below says which.
        if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
        this.logger.info({ ref, code: error.code }, 'Stripe renewal retry declined');
      }
    }
    const fresh = await this.stripe.invoices.retrieve(invoice.id as string, {
      expand: ['payments', 'confirmation_secret'],
    });
    return this.invoiceIntent(fresh);
  }

  async defaultCard(customerRef: string): Promise<CardDetails | null> {
    const customer = await this.stripe.customers.retrieve(customerRef, {
      expand: ['invoice_settings.default_payment_method'],
    });
    if (customer.deleted) return null;
    let method = customer.invoice_settings?.default_payment_method ?? null;
    if (!method) {
      // Cards confirmed on a subscription's page become that subscription's default, not the customer's.
      const subscriptions = await this.stripe.subscriptions.list({
        customer: customerRef,
        status: 'all',
        limit: 1,
        expand: ['data.default_payment_method'],
      });
      method = subscriptions.data[0]?.default_payment_method ?? null;
    }
    if (typeof method === 'string') method = await this.stripe.paymentMethods.retrieve(method);
    const card = method?.card;
    if (!card) return null;
    return { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year };
  }

  async startPayment(input: ProviderPaymentInput): Promise<ProviderPaymentResult> {
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: input.total,
        currency: input.currency.toLowerCase(),
        description: input.description,
        receipt_email: input.email,
        allowed_payment_method_types: ['card'],
        confirmation_method: 'automatic',
        metadata: { ferryPurchaseId: input.purchaseId },
      },
      { idempotencyKey: `ferry-purchase-${input.purchaseId}` },
    );
    return {
      ref: intent.id,
      status: intentStatusOf(intent.status),
      clientSecret: intent.client_secret,
      approveUrl: null,
    };
  }

  async paymentStatus(ref: string): Promise<PaymentIntentStatus> {
    return intentStatusOf((await this.stripe.paymentIntents.retrieve(ref)).status);
  }

  async verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<ProviderEvent> {
    return mapStripeEvent(this.stripe, rawBody, headers, this.settings.webhookSecret, (invoiceId) =>
      this.stripe.invoices
        .retrieve(invoiceId, { expand: ['payments', 'confirmation_secret'] })
        .then((invoice) => this.invoiceIntent(invoice)),
    );
  }

  private priceData(
    product: string,
    frequency: BillingFrequency,
    currency: Currency,
    amount: number,
    taxRate: number,
  ): Stripe.SubscriptionCreateParams.Item.PriceData {
    return {
      currency: currency.toLowerCase(),
      product,
      unit_amount: amount + Math.round((amount * taxRate) / 100),
      recurring: RECURRING[frequency],
    };
  }

  /** One product per plan code, with a stable id: made on first use, found again afterwards. */
  private product(planCode: PlanCode): Promise<string> {
    let product = this.products.get(planCode);
    if (!product) {
      const id = `ferry_${planCode}`;
      product = this.stripe.products
        .retrieve(id)
        .then((p) => p.id)
        .catch(async (error: unknown) => {
          if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 404)
            throw error;
          return (await this.stripe.products.create({ id, name: `Ferry ${planCode}` })).id;
        });
      product.catch(() => this.products.delete(planCode));
      this.products.set(planCode, product);
    }
    return product;
  }

  private async result(subscription: Stripe.Subscription): Promise<ProviderSubscriptionResult> {
    const item = subscription.items.data[0];
    const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
    let intent: { status: PaymentIntentStatus; clientSecret: string | null } = {
      status: 'succeeded',
      clientSecret: null,
    };
    const setup = subscription.pending_setup_intent;
    if (setup && typeof setup !== 'string') {
      intent = { status: intentStatusOf(setup.status), clientSecret: setup.client_secret };
    } else if (subscription.latest_invoice && typeof subscription.latest_invoice !== 'string') {
      intent = await this.invoiceIntent(subscription.latest_invoice);
    }
    return {
      ref: subscription.id,
      status: subscriptionStatusOf(subscription.status),
      intentStatus: intent.status,
      clientSecret: intent.clientSecret,
      approveUrl: null,
      currentPeriodStart: toDate(item?.current_period_start),
      currentPeriodEnd: toDate(item?.current_period_end),
      trialEndsAt: toDate(subscription.trial_end),
    };
  }

  /** Where an invoice's payment stands, and the client secret when the page can finish it. */
  private async invoiceIntent(
    invoice: Stripe.Invoice,
  ): Promise<{ status: PaymentIntentStatus; clientSecret: string | null }> {
    if (invoice.status === 'paid' || invoice.amount_due === 0)
      return { status: 'succeeded', clientSecret: null };
    const payment = invoice.payments?.data.find((p) => p.payment.type === 'payment_intent');
    const intentRef = payment?.payment.payment_intent;
    const intent =
      typeof intentRef === 'object' && intentRef
        ? intentRef
        : idOf(intentRef)
          ? await this.stripe.paymentIntents.retrieve(idOf(intentRef) as string)
          : null;
    if (!intent)
      return {
        status: 'requires_payment_method',
        clientSecret: invoice.confirmation_secret?.client_secret ?? null,
      };
    const status = intentStatusOf(intent.status);
    return { status, clientSecret: PAGE_CAN_FINISH.has(status) ? intent.client_secret : null };
  }
}
