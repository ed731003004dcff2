import type { Currency, InvoiceLine, InvoiceStatus, PaymentProviderName, PlanCode } from '@ferry/core';

/*
 * How the billing parts hear of each other without importing in a circle: taxes and invoices
 * (tax.service.ts, invoice.service.ts), subscriptions (subscription.service.ts), purchases of priced transfers,
 * plan assignment, and the operator console. Invoices announce payments; subscriptions and purchases listen.
 */

/** The VAT that applies to a buyer (spec §7 tax-rates). */
export interface TaxDecision {
  countryCode: string;
  /** Percent. */
  rate: number;
  reverseCharge: boolean;
  vatNumber: string | null;
  /** null when no number was given. */
  vatNumberValid: boolean | null;
  /** How the number was checked: its country's format, or VIES online as well. */
  vatCheck: 'none' | 'format' | 'vies';
  /** VIES_CHECK was on but VIES could not answer (why): the format decided. */
  viesUnavailable?: string;
}

export interface Taxes {
  /** Throws AppError INVALID_VAT_NUMBER only when `strict` and a number is given that fails. */
  decide(
    countryCode: string,
    vatNumber?: string | null,
    options?: { strict?: boolean },
  ): Promise<TaxDecision>;
}

export interface Buyer {
  /** null for a buyer without an account (a priced transfer's buyer). */
  userId: string | null;
  email: string;
  name: string | null;
  companyName: string | null;
  address: string | null;
  /** Language of the PDF and mails (the account's locale). */
  locale: string | null;
}

export interface IssueInvoice {
  buyer: Buyer;
  currency: Currency;
  /** Amounts VAT excluded; the invoice adds the tax of `tax`. */
  lines: Omit<InvoiceLine, 'amount'>[];
  tax: TaxDecision;
  provider: PaymentProviderName;
  /** What the invoice is for: one of them. */
  subscriptionId?: string | null;
  purchaseId?: string | null;
  /** 'paid' for a payment a card provider already took (paymentRef says which). */
  status: Extract<InvoiceStatus, 'open' | 'paid'>;
  paymentRef?: string | null;
}

export interface IssuedInvoice {
  id: string;
  number: string;
  userId: string | null;
  status: InvoiceStatus;
  currency: Currency;
  subtotal: number;
  tax: number;
  total: number;
  amountDue: number;
  provider: PaymentProviderName;
  subscriptionId: string | null;
  purchaseId: string | null;
  issuedAt: Date;
  paidAt: Date | null;
  /** Path of the PDF under /api (owner or operator). */
  pdfUrl: string;
}

export interface InvoicePaid {
  invoice: IssuedInvoice;
  /** Who marked it paid: an operator's uid, or null for a provider's payment. */
  operatorId: string | null;
}

export interface Invoices {
  /** Numbers are sequential without gaps under concurrency (one counter row per prefix and year, locked). */
  issue(input: IssueInvoice): Promise<IssuedInvoice>;
  /** MANUAL invoices only; a second call changes nothing. Announces InvoicePaid. */
  markPaid(number: string, operatorId: string | null): Promise<IssuedInvoice>;
  void(number: string, operatorId: string | null): Promise<IssuedInvoice>;
  /** Sum of the open invoices of an account (payment-infos' openedInvoicesAmount). */
  openAmount(userId: string): Promise<number>;
  onPaid(listener: (paid: InvoicePaid) => Promise<void>): void;
}

/** Who holds which plan (users.plan_type / plan_code / plan_ends_at, and a CUSTOM contract's seats). */
export interface PlanAssignment {
  planCode: PlanCode | null;
  /** The plan ends then (NONE after); null: no end. */
  until: Date | null;
  seats?: number | null;
  reason: 'operator' | 'subscription' | 'dunning' | 'expiry' | 'cancel';
}

export interface Plans {
  assign(userId: string, assignment: PlanAssignment): Promise<void>;
}
