import { z } from 'zod';
import {
  BILLING_FREQUENCIES,
  PAYMENT_INTENT_STATUSES,
  PAYMENT_METHODS,
  PLAN_CODES,
  PLAN_TYPES,
} from '../enums.js';

/*
 * Plans, subscriptions, payments and invoices (spec §3 "Subscription and payment", §4 billing state, §6 BILLING,
 * §7 /pay/* calls). Money is always an integer in the currency's minor unit (cents, pence): 1250 EUR is 12.50 €.
 * A "manager id" is the paying account: a team's manager, or the user themself.
 */

export const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
export const Currency = z.enum(CURRENCIES);
export type Currency = z.infer<typeof Currency>;

export const PlanCodeSchema = z.enum(PLAN_CODES);
export const BillingFrequency = z.enum(BILLING_FREQUENCIES);
export type BillingFrequency = z.infer<typeof BillingFrequency>;
export const PaymentProviderName = z.enum(PAYMENT_METHODS);
export type PaymentProviderName = z.infer<typeof PaymentProviderName>;
export const PaymentIntentStatus = z.enum(PAYMENT_INTENT_STATUSES);
export type PaymentIntentStatus = z.infer<typeof PaymentIntentStatus>;

/** Months a frequency bills for. */
export const FREQUENCY_MONTHS: Readonly<Record<BillingFrequency, number>> = Object.freeze({
  MONTHLY: 1,
  ANNUAL: 12,
  BIANNUAL: 24,
});

/** ISO 3166-1 alpha-2 country code, upper case. */
export const CountryCode = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code (FR, DE, US…)'));

/** A VAT number as typed: spaces, dots and dashes are dropped; the country prefix is optional. */
export const VatNumberInput = z
  .string()
  .trim()
  .max(20)
  .transform((v) => v.replace(/[\s.-]/g, '').toUpperCase());

/** One price of a plan: for a frequency, in a currency, per period (VAT excluded). */
export const PlanPrice = z.object({
  frequency: BillingFrequency,
  currency: Currency,
  /** Minor units per billing period, VAT excluded. */
  amount: z.number().int().nonnegative(),
});
export type PlanPrice = z.infer<typeof PlanPrice>;

/** GET /api/pay/plans → 200 PlanCatalogue: what can be bought on this instance (public). */
export const PlanOffer = z.object({
  planCode: PlanCodeSchema,
  planType: z.enum(PLAN_TYPES),
  /** Storage in GB (units of 1e9 bytes) the plan gives: PREMIUM_2TB raises PREMIUM's 1 000 to 2 000. */
  storageGB: z.number(),
  /** Seats for team plans; null otherwise (CUSTOM: the contract's number, set by an operator). */
  licences: z.number().int().nullable(),
  prices: z.array(PlanPrice),
  /** CUSTOM is sold by contact (/register/enterprise), never through checkout. */
  selfService: z.boolean(),
});
export type PlanOffer = z.infer<typeof PlanOffer>;

export const PlanCatalogue = z.object({
  plans: z.array(PlanOffer),
  currencies: z.array(Currency),
  /** Length of a trial in days (TRIAL_DAYS, 14 by default). */
  trialDays: z.number().int().nonnegative(),
  /** Providers a buyer may pick (PAYMENT_PROVIDERS). */
  providers: z.array(PaymentProviderName),
  /** Stripe's publishable key when STRIPE is offered (for Stripe.js); null otherwise. */
  stripePublishableKey: z.string().nullable(),
  /** PayPal's client id when PAYPAL is offered; null otherwise. */
  paypalClientId: z.string().nullable(),
  /** Where the page loads Stripe.js from (the real one unless the operator points it elsewhere). */
  stripeJsUrl: z.string().nullable(),
});
export type PlanCatalogue = z.infer<typeof PlanCatalogue>;

/** GET /api/pay/subscriptions/tax-rates?countryCode&vatNumber → 200 TaxRate (spec §7). */
export const TaxRateQuery = z.object({
  countryCode: CountryCode,
  vatNumber: VatNumberInput.optional(),
});
export const TaxRate = z.object({
  countryCode: z.string(),
  /** VAT in percent (20 for 20 %); 0 for reverse charge and outside the EU. */
  rate: z.number(),
  reverseCharge: z.boolean(),
  /** null when no VAT number was given. */
  vatNumberValid: z.boolean().nullable(),
});
export type TaxRate = z.infer<typeof TaxRate>;

/** POST /api/pay/subscriptions → 201 StartSubscriptionResponse. */
export const StartSubscriptionRequest = z.object({
  planCode: PlanCodeSchema,
  frequency: BillingFrequency,
  provider: PaymentProviderName,
  countryCode: CountryCode,
  vatNumber: VatNumberInput.optional(),
  trial: z.boolean().optional(),
  /** The currency to be billed in; the instance's first currency by default. */
  currency: Currency.optional(),
  /** Buyer details printed on invoices. */
  companyName: z.string().trim().max(200).optional(),
  address: z.string().trim().max(500).optional(),
});
export type StartSubscriptionRequest = z.input<typeof StartSubscriptionRequest>;

export const InvoiceSummary = z.object({
  number: z.string(),
  /** Minor units still to pay. */
  amountDue: z.number().int(),
  currency: Currency,
  /** Where the PDF is served (for the signed-in owner, or an operator). */
  pdfUrl: z.string(),
});
export type InvoiceSummary = z.infer<typeof InvoiceSummary>;

export const SUBSCRIPTION_STATUSES = [
  /** Waiting for the first payment (a MANUAL invoice not yet marked paid, a card needing action). */
  'incomplete',
  'trialing',
  'active',
  /** A renewal failed; dunning retries on days 0, 3 and 7. */
  'past_due',
  /** Ended: cancelled at the period's end, or fallen back to NONE after dunning. */
  'canceled',
] as const;
export const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const StartSubscriptionResponse = z.object({
  subscriptionId: z.string(),
  status: SubscriptionStatus,
  invoice: InvoiceSummary.nullable(),
  /** For a card provider: the payment (or setup) intent's client secret the page confirms with Stripe.js. */
  clientSecret: z.string().optional(),
  /** For PayPal: where the buyer approves the subscription. */
  approveUrl: z.string().optional(),
});
export type StartSubscriptionResponse = z.infer<typeof StartSubscriptionResponse>;

/** A subscription as its owner sees it (GET /api/pay/subscriptions/current → { subscription: … | null }). */
export const Subscription = z.object({
  id: z.string(),
  planCode: PlanCodeSchema,
  planType: z.enum(PLAN_TYPES),
  frequency: BillingFrequency,
  provider: PaymentProviderName,
  currency: Currency,
  status: SubscriptionStatus,
  /** Price per period, VAT excluded, minor units. */
  amount: z.number().int(),
  taxRate: z.number(),
  currentPeriodStart: z.string().datetime().nullable(),
  currentPeriodEnd: z.string().datetime().nullable(),
  trialEndsAt: z.string().datetime().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** spec §3: the latest payment intent's status (null for MANUAL before anything is paid). */
  intentStatus: PaymentIntentStatus.nullable(),
});
export type Subscription = z.infer<typeof Subscription>;

export const CurrentSubscription = z.object({ subscription: Subscription.nullable() });
export type CurrentSubscription = z.infer<typeof CurrentSubscription>;

/** PATCH /api/pay/subscriptions/{id}: change plan, frequency or payment method (upgrades prorated). */
export const ChangeSubscriptionRequest = z
  .object({
    planCode: PlanCodeSchema.optional(),
    frequency: BillingFrequency.optional(),
    provider: PaymentProviderName.optional(),
  })
  .refine(
    (v) => v.planCode || v.frequency || v.provider,
    'change at least one of planCode, frequency, provider',
  );
export type ChangeSubscriptionRequest = z.input<typeof ChangeSubscriptionRequest>;
/** → 200 ChangeSubscriptionResponse: the new state, and a prorated invoice when an upgrade charges now. */
export const ChangeSubscriptionResponse = z.object({
  subscription: Subscription,
  invoice: InvoiceSummary.nullable(),
  clientSecret: z.string().optional(),
});
export type ChangeSubscriptionResponse = z.infer<typeof ChangeSubscriptionResponse>;
/* POST /api/pay/subscriptions/{id}/cancel → 200 CurrentSubscription (cancels at the period's end);
 * POST /api/pay/subscriptions/{id}/resume → 200 CurrentSubscription. */

export const CardDetails = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
});
export type CardDetails = z.infer<typeof CardDetails>;

/** GET /api/pay/customers/{managerId}/payment-infos → 200 PaymentInfos (spec §7, §4 billing state). */
export const PaymentInfos = z.object({
  subscription: z
    .object({
      planType: z.enum(PLAN_TYPES),
      planCode: PlanCodeSchema,
      provider: PaymentProviderName,
      status: SubscriptionStatus,
      intentStatus: PaymentIntentStatus.nullable(),
      /** The client secret of a payment that needs the user (requires_action / requires_confirmation). */
      failedIntentClientSecret: z.string().nullable(),
      /** Sum of open invoices, minor units. */
      openedInvoicesAmount: z.number().int(),
      currency: Currency,
    })
    .nullable(),
  defaultPaymentMethod: z.object({ type: z.literal('card'), card: CardDetails }).nullable(),
});
export type PaymentInfos = z.infer<typeof PaymentInfos>;

/** GET /api/pay/customers/{managerId} → 200 BillingCustomer (spec §7 "billing customer"). */
export const BillingCustomer = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  companyName: z.string().nullable(),
  address: z.string().nullable(),
  countryCode: z.string().nullable(),
  vatNumber: z.string().nullable(),
  vatNumberValid: z.boolean().nullable(),
  currency: Currency.nullable(),
  provider: PaymentProviderName.nullable(),
});
export type BillingCustomer = z.infer<typeof BillingCustomer>;

export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;
export const InvoiceStatus = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

export const InvoiceLine = z.object({
  description: z.string(),
  quantity: z.number().int(),
  /** Minor units, VAT excluded. */
  unitAmount: z.number().int(),
  amount: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/** An invoice as listed at /account/invoices (GET /api/pay/invoices → { invoices: Invoice[] }). */
export const Invoice = z.object({
  number: z.string(),
  status: InvoiceStatus,
  currency: Currency,
  subtotal: z.number().int(),
  taxRate: z.number(),
  tax: z.number().int(),
  total: z.number().int(),
  amountDue: z.number().int(),
  reverseCharge: z.boolean(),
  provider: PaymentProviderName,
  issuedAt: z.string().datetime(),
  paidAt: z.string().datetime().nullable(),
  lines: z.array(InvoiceLine),
  /** GET this with the owner's credentials: application/pdf. */
  pdfUrl: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;
export const InvoiceList = z.object({ invoices: z.array(Invoice) });
export type InvoiceList = z.infer<typeof InvoiceList>;

/*
 * Selling files (spec §3 transfer form "price and currency"). A priced S2 transfer answers the link call with
 * 402 PAYMENT_REQUIRED { details: { payUrl, price, currency } } until a purchase token of that transfer is given
 * (`purchaseToken` query parameter of the info and link calls).
 */
export const TransferPrice = z.object({
  /** Minor units, VAT excluded. */
  amount: z.number().int().min(50).max(100_000_000),
  currency: Currency,
});
export type TransferPrice = z.infer<typeof TransferPrice>;

/** POST /api/pay/purchases { transferId, email, countryCode, vatNumber? } → 201 StartPurchaseResponse. */
export const StartPurchaseRequest = z.object({
  transferId: z.string().min(1).max(100),
  email: z.string().trim().email().max(254),
  countryCode: CountryCode,
  vatNumber: VatNumberInput.optional(),
  provider: PaymentProviderName.optional(),
});
export type StartPurchaseRequest = z.input<typeof StartPurchaseRequest>;
export const StartPurchaseResponse = z.object({
  purchaseId: z.string(),
  /** Price, VAT and total the buyer pays. */
  amount: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
  currency: Currency,
  clientSecret: z.string().optional(),
  approveUrl: z.string().optional(),
});
export type StartPurchaseResponse = z.infer<typeof StartPurchaseResponse>;
/** GET /api/pay/purchases/{purchaseId} → 200 PurchaseState: once paid, the token that unlocks the transfer. */
export const PurchaseState = z.object({
  purchaseId: z.string(),
  status: z.enum(['pending', 'paid', 'failed']),
  intentStatus: PaymentIntentStatus.nullable(),
  /** Present once paid: keep it; it is also mailed to the buyer as a personal link. */
  purchaseToken: z.string().nullable(),
  receiptNumber: z.string().nullable(),
});
export type PurchaseState = z.infer<typeof PurchaseState>;

/** One sale of a priced transfer, as its seller sees it in the transfer's detail. */
export const TransferSale = z.object({
  email: z.string(),
  countryCode: z.string(),
  currency: Currency,
  /** Minor units: price (VAT excluded), VAT, and what the buyer paid. */
  amount: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
  receiptNumber: z.string().nullable(),
  paidAt: z.string().datetime(),
});
export type TransferSale = z.infer<typeof TransferSale>;
