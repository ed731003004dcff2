import type {
  InvoicePaid,
  Invoices,
  IssuedInvoice,
  IssueInvoice,
  TaxDecision,
  Taxes,
} from '../services/billing-ports.js';

/*
 * Stand-ins for the Taxes and Invoices ports while the taxes and invoices services (tax.service.ts,
 * invoice.service.ts) are built beside this: no VAT, invoices numbered in memory. main.ts replaces them with the
 * real services when those are merged; nothing else refers to this file.
 */

export class InterimTaxes implements Taxes {
  async decide(countryCode: string, vatNumber?: string | null): Promise<TaxDecision> {
    return {
      countryCode: countryCode.toUpperCase(),
      rate: 0,
      reverseCharge: false,
      vatNumber: vatNumber ?? null,
      vatNumberValid: vatNumber ? true : null,
      vatCheck: vatNumber ? 'format' : 'none',
    };
  }
}

export class InterimInvoices implements Invoices {
  private readonly invoices = new Map<string, IssuedInvoice>();
  private readonly listeners: Array<(paid: InvoicePaid) => Promise<void>> = [];
  private counter = 0;

  constructor(private readonly prefix: string) {}

  async issue(input: IssueInvoice): Promise<IssuedInvoice> {
    const subtotal = input.lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
    const tax = Math.round((subtotal * input.tax.rate) / 100);
    const now = new Date();
    const number = `${this.prefix}-${now.getUTCFullYear()}-${String(++this.counter).padStart(6, '0')}`;
    const invoice: IssuedInvoice = {
      id: number,
      number,
      userId: input.buyer.userId,
      status: input.status,
      currency: input.currency,
      subtotal,
      tax,
      total: subtotal + tax,
      amountDue: input.status === 'paid' ? 0 : subtotal + tax,
      provider: input.provider,
      subscriptionId: input.subscriptionId ?? null,
      purchaseId: input.purchaseId ?? null,
      issuedAt: now,
      paidAt: input.status === 'paid' ? now : null,
      pdfUrl: `/api/pay/invoices/${number}/pdf`,
    };
    this.invoices.set(number, invoice);
    return invoice;
  }

  async markPaid(number: string, operatorId: string | null): Promise<IssuedInvoice> {
    const invoice = this.invoices.get(number);
    if (!invoice) throw new Error(`no invoice ${number}`);
    if (invoice.status !== 'open') return invoice;
    const paid = { ...invoice, status: 'paid' as const, amountDue: 0, paidAt: new Date() };
    this.invoices.set(number, paid);
    for (const listener of this.listeners) await listener({ invoice: paid, operatorId });
    return paid;
  }

  async void(number: string): Promise<IssuedInvoice> {
    const invoice = this.invoices.get(number);
    if (!invoice) throw new Error(`no invoice ${number}`);
    const voided = { ...invoice, status: 'void' as const, amountDue: 0 };
    this.invoices.set(number, voided);
    return voided;
  }

  async openAmount(userId: string): Promise<number> {
    let sum = 0;
    for (const i of this.invoices.values())
      if (i.userId === userId && i.status === 'open') sum += i.amountDue;
    return sum;
  }

  /** The invoices of an account, newest first (what the tests read until the real service is merged). */
  list(userId: string): IssuedInvoice[] {
    return [...this.invoices.values()].filter((i) => i.userId === userId).reverse();
  }

  onPaid(listener: (paid: InvoicePaid) => Promise<void>): void {
    this.listeners.push(listener);
  }
}
