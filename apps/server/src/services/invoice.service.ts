import type { Invoice, InvoiceLine, InvoiceList, OperatorInvoice, OperatorInvoiceList } from '@ferry/core';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { InvoiceRecord, PgInvoiceRepository } from '../db/invoice.repository.js';
import type { PgOperatorLog } from '../db/operator-log.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import { type InvoiceMailInput, invoiceIssued, invoiceReceipt } from '../mail/templates/index.js';
import type { BillingConfig } from '../payments/config.js';
import { renderInvoicePdf } from '../payments/invoice-pdf.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { InvoicePaid, Invoices, IssuedInvoice, IssueInvoice } from './billing-ports.js';
import type { MailQueue } from './notification.service.js';
import type { OperatorAccess } from './operator-access.js';
import { taxOf } from './tax.service.js';
import { permissionsOf } from './user.service.js';

export interface InvoiceSettings {
  /** INVOICE_PREFIX. */
  prefix: string;
  /** INVOICE_DUE_DAYS: a MANUAL invoice is due that many days after it is issued. */
  dueDays: number;
  seller: BillingConfig['seller'];
  /** PRODUCT_NAME, printed when the seller has no name of its own. */
  productName: string;
}

/** What happens around an invoice's life besides storing it: mails (invoice issued, receipt). */
export interface InvoiceEvents {
  issued(invoice: InvoiceRecord): Promise<void>;
  paid(invoice: InvoiceRecord): Promise<void>;
}

const DAY_MS = 86_400_000;
const MAX_LIST = 500;

export const pdfUrlOf = (number: string) => `/api/pay/invoices/${encodeURIComponent(number)}/pdf`;

export function toIssued(record: InvoiceRecord): IssuedInvoice {
  return {
    id: record.id,
    number: record.number,
    userId: record.userId,
    status: record.status,
    currency: record.currency,
    subtotal: record.subtotal,
    tax: record.tax,
    total: record.total,
    amountDue: record.amountDue,
    provider: record.provider,
    subscriptionId: record.subscriptionId,
    purchaseId: record.purchaseId,
    issuedAt: record.issuedAt,
    paidAt: record.paidAt,
    pdfUrl: pdfUrlOf(record.number),
  };
}

export function toInvoice(record: InvoiceRecord): Invoice {
  return {
    number: record.number,
    status: record.status,
    currency: record.currency,
    subtotal: record.subtotal,
    taxRate: record.taxRate,
    tax: record.tax,
    total: record.total,
    amountDue: record.amountDue,
    reverseCharge: record.reverseCharge,
    provider: record.provider,
    issuedAt: record.issuedAt.toISOString(),
    paidAt: record.paidAt?.toISOString() ?? null,
    lines: record.lines,
    pdfUrl: pdfUrlOf(record.number),
  };
}

function toOperatorInvoice(record: InvoiceRecord, email: string): OperatorInvoice {
  return {
    number: record.number,
    email,
    uid: record.userId,
    amountDue: record.amountDue,
    total: record.total,
    currency: record.currency,
    status: record.status,
    provider: record.provider,
    issuedAt: record.issuedAt.toISOString(),
    paidAt: record.paidAt?.toISOString() ?? null,
    pdfUrl: pdfUrlOf(record.number),
  };
}

/** The lines with their amounts, subtotal, VAT (rounded half up once per invoice) and total, in minor units. */
export function totalsOf(lines: Omit<InvoiceLine, 'amount'>[], rate: number) {
  const priced: InvoiceLine[] = lines.map((line) => ({ ...line, amount: line.quantity * line.unitAmount }));
  const subtotal = priced.reduce((sum, line) => sum + line.amount, 0);
  const tax = taxOf(subtotal, rate);
  return { lines: priced, subtotal, tax, total: subtotal + tax };
}

/** The paying account behind a caller: themself, or for a team member with BILLING, their manager. */
export function payingAccountOf(auth: Authenticated | null): string {
  if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
  const user = auth.user;
  if (!user.managerId) return user.id;
  if (!permissionsOf(user).includes('BILLING'))
    throw new AppError('FORBIDDEN', 'Invoices need the BILLING permission.');
  return user.managerId;
}

type Operator = { id: string; email: string };

/**
 * Invoices (spec §3, §7): issued with gapless numbers, marked paid by an operator (MANUAL) or issued paid (card
 * providers), voided while open. Payments are announced to onPaid listeners (subscriptions, purchases) after
 * they are committed.
 */
export class InvoiceService implements Invoices {
  private readonly listeners: ((paid: InvoicePaid) => Promise<void>)[] = [];
  private events: InvoiceEvents | null = null;

  constructor(
    private readonly repo: PgInvoiceRepository,
    private readonly journal: PgOperatorLog,
    private readonly operators: OperatorAccess,
    private readonly settings: InvoiceSettings,
    private readonly logger: Pick<Logger, 'warn' | 'error' | 'info'>,
  ) {}

  /** Mails and other side effects of issuing and payment (set once by main.ts). */
  setEvents(events: InvoiceEvents): void {
    this.events = events;
  }

  onPaid(listener: (paid: InvoicePaid) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async issue(input: IssueInvoice): Promise<IssuedInvoice> {
    if (input.lines.length === 0) throw new AppError('VALIDATION_FAILED', 'An invoice needs a line.');
    for (const line of input.lines)
      if (!Number.isSafeInteger(line.quantity) || !Number.isSafeInteger(line.unitAmount) || !line.description)
        throw new AppError('VALIDATION_FAILED', 'Invoice lines need a description and integer amounts.');
    const { tax: decision } = input;
    const totals = totalsOf(input.lines, decision.rate);
    const now = new Date();
    const paid = input.status === 'paid';
    const seller = this.settings.seller;
    const record = await this.repo.issue(
      {
        id: randomAlphanumeric(20),
        userId: input.buyer.userId,
        status: input.status,
        currency: input.currency,
        lines: totals.lines,
        subtotal: totals.subtotal,
        taxRate: decision.rate,
        tax: totals.tax,
        total: totals.total,
        amountDue: paid ? 0 : totals.total,
        reverseCharge: decision.reverseCharge,
        countryCode: decision.countryCode,
        vatNumber: decision.vatNumber,
        vatNumberValid: decision.vatNumberValid,
        vatCheck: decision.vatCheck,
        viesUnavailable: decision.viesUnavailable ?? null,
        buyer: {
          email: input.buyer.email,
          name: input.buyer.name,
          companyName: input.buyer.companyName,
          address: input.buyer.address,
          countryCode: decision.countryCode,
          vatNumber: decision.vatNumber,
        },
        seller: {
          name: seller.name,
          address: seller.address,
          country: seller.country,
          vatId: seller.vatId,
          email: seller.email,
          bankDetails: input.provider === 'MANUAL' ? seller.bankDetails : null,
        },
        locale: input.buyer.locale,
        provider: input.provider,
        subscriptionId: input.subscriptionId ?? null,
        purchaseId: input.purchaseId ?? null,
        paymentRef: input.paymentRef ?? null,
        issuedAt: now,
        dueAt:
          !paid && input.provider === 'MANUAL'
            ? new Date(now.getTime() + this.settings.dueDays * DAY_MS)
            : null,
        paidAt: paid ? now : null,
        paidBy: null,
      },
      this.settings.prefix,
    );
    await this.tell(() => (paid ? this.events?.paid(record) : this.events?.issued(record)), record);
    return toIssued(record);
  }

  async markPaid(number: string, operatorId: string | null): Promise<IssuedInvoice> {
    return toIssued(await this.settle(number, operatorId));
  }

  async void(number: string, operatorId: string | null): Promise<IssuedInvoice> {
    return toIssued(await this.cancel(number, operatorId));
  }

  async openAmount(userId: string): Promise<number> {
    return this.repo.openAmount(userId);
  }

  /** The invoice of a number, or null. */
  async find(number: string): Promise<InvoiceRecord | null> {
    return this.repo.byNumber(number);
  }

  // --- for the signed-in owner (GET /api/pay/invoices…) ---

  async listFor(auth: Authenticated | null): Promise<InvoiceList> {
    const owner = payingAccountOf(auth);
    return { invoices: (await this.repo.listForUser(owner, MAX_LIST)).map(toInvoice) };
  }

  /** The invoice if the caller may read it (its paying account with BILLING, or an operator); 404 otherwise. */
  async readable(auth: Authenticated | null, number: string): Promise<InvoiceRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const invoice = await this.repo.byNumber(number);
    if (invoice && this.operators.isOperator(auth)) return invoice;
    let owner: string | null = null;
    try {
      owner = payingAccountOf(auth);
    } catch {
      owner = null;
    }
    if (!invoice || invoice.userId !== owner) throw new AppError('NOT_FOUND', 'No such invoice.');
    return invoice;
  }

  /** The PDF of an invoice, for its paying account (BILLING) or an operator; 404 for anyone else. */
  async pdf(auth: Authenticated | null, number: string): Promise<{ fileName: string; body: Buffer }> {
    const invoice = await this.readable(auth, number);
    return {
      fileName: `${invoice.number}.pdf`,
      body: await renderInvoicePdf(invoice, { productName: this.settings.productName }),
    };
  }

  // --- for operators (GET/POST /api/operator/invoices…) ---

  async operatorList(auth: Authenticated | null, open: boolean): Promise<OperatorInvoiceList> {
    this.operators.require(auth);
    const rows = await this.repo.listAll({ open, limit: MAX_LIST });
    return { invoices: rows.map((row) => toOperatorInvoice(row, row.email)) };
  }

  async operatorMarkPaid(auth: Authenticated | null, number: string): Promise<OperatorInvoice> {
    const operator = this.operators.require(auth).user;
    const record = await this.settle(number, operator.id, { id: operator.id, email: operator.email });
    return toOperatorInvoice(record, await this.currentEmailOf(record));
  }

  async operatorVoid(auth: Authenticated | null, number: string): Promise<OperatorInvoice> {
    const operator = this.operators.require(auth).user;
    const record = await this.cancel(number, operator.id, { id: operator.id, email: operator.email });
    return toOperatorInvoice(record, await this.currentEmailOf(record));
  }

  // --- internals ---

  /** The account's current address; a buyer without an account: the address on the invoice. */
  private async currentEmailOf(record: InvoiceRecord): Promise<string> {
    const current = record.userId ? await this.repo.emailOf(undefined, record.userId) : null;
    return current ?? (typeof record.buyer.email === 'string' ? record.buyer.email : '');
  }

  private async settle(number: string, operatorId: string | null, known?: Operator): Promise<InvoiceRecord> {
    const outcome = await this.repo.transaction(async (db) => {
      const invoice = await this.repo.byNumber(number, db, true);
      if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice.');
      if (invoice.status === 'paid') return { record: invoice, changed: false };
      if (invoice.status === 'void')
        throw new AppError('CONFLICT', 'This invoice is void: it cannot be paid.', {
          details: { status: invoice.status },
        });
      if (invoice.provider !== 'MANUAL')
        throw new AppError('CONFLICT', 'Only MANUAL invoices are marked paid by hand.', {
          details: { provider: invoice.provider },
        });
      const record = await this.repo.markPaid(db, invoice.id, new Date(), operatorId, null);
      await this.record(db, operatorId, known, 'mark-paid', record);
      return { record, changed: true };
    });
    if (!outcome.changed) return outcome.record;
    const paid: InvoicePaid = { invoice: toIssued(outcome.record), operatorId };
    for (const listener of this.listeners)
      try {
        await listener(paid);
      } catch (error) {
        this.logger.error(
          { err: error, invoice: number },
          'a listener of paid invoices failed; the invoice stays paid',
        );
      }
    await this.tell(() => this.events?.paid(outcome.record), outcome.record);
    return outcome.record;
  }

  private async cancel(number: string, operatorId: string | null, known?: Operator): Promise<InvoiceRecord> {
    return this.repo.transaction(async (db) => {
      const invoice = await this.repo.byNumber(number, db, true);
      if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice.');
      if (invoice.status === 'void') return invoice;
      if (invoice.status !== 'open')
        throw new AppError('CONFLICT', 'Only an open invoice can be voided.', {
          details: { status: invoice.status },
        });
      const record = await this.repo.markVoid(db, invoice.id, new Date(), operatorId);
      await this.record(db, operatorId, known, 'void-invoice', record);
      return record;
    });
  }

  /** The operator's journal entry, in the change's transaction. */
  private async record(
    db: Pick<pg.PoolClient, 'query'>,
    operatorId: string | null,
    known: Operator | undefined,
    action: string,
    invoice: InvoiceRecord,
  ): Promise<void> {
    if (!operatorId) return;
    const email = known?.email ?? (await this.repo.emailOf(db, operatorId)) ?? operatorId;
    await this.journal.record(
      {
        operatorId,
        operatorEmail: email,
        action,
        target: invoice.number,
        targetUserId: invoice.userId,
        details: { total: invoice.total, currency: invoice.currency, provider: invoice.provider },
      },
      db,
    );
  }

  /** Side effects after a commit: they never undo it; a failure is logged. */
  private async tell(effect: () => Promise<void> | undefined, record: InvoiceRecord): Promise<void> {
    try {
      await effect();
    } catch (error) {
      this.logger.error({ err: error, invoice: record.number }, 'an invoice mail could not be queued');
    }
  }
}

/** The buyer's mails: the invoice when a MANUAL one is issued, a receipt when one is paid. */
export class InvoiceMails implements InvoiceEvents {
  constructor(
    private readonly mail: MailQueue,
    private readonly productName: string,
    private readonly publicOrigin: () => string,
  ) {}

  private input(invoice: InvoiceRecord): InvoiceMailInput {
    const origin = this.publicOrigin();
    return {
      number: invoice.number,
      total: invoice.total,
      amountDue: invoice.amountDue,
      currency: invoice.currency,
      dueAt: invoice.dueAt,
      paidAt: invoice.paidAt,
      bankDetails: typeof invoice.seller.bankDetails === 'string' ? invoice.seller.bankDetails : null,
      pdfUrl: `${origin}${pdfUrlOf(invoice.number)}`,
      invoicesUrl: `${origin}/account/invoices`,
    };
  }

  private recipient(invoice: InvoiceRecord): string | null {
    return typeof invoice.buyer.email === 'string' && invoice.buyer.email ? invoice.buyer.email : null;
  }

  async issued(invoice: InvoiceRecord): Promise<void> {
    const to = this.recipient(invoice);
    // Card invoices are paid at once: their buyer gets the receipt instead.
    if (!to || invoice.provider !== 'MANUAL' || invoice.status !== 'open') return;
    const rendered = await invoiceIssued(
      { locale: invoice.locale, productName: this.productName },
      this.input(invoice),
    );
    await this.mail.enqueue({ to: [to], ...rendered, idempotencyKey: `invoice-issued-${invoice.number}` });
  }

  async paid(invoice: InvoiceRecord): Promise<void> {
    const to = this.recipient(invoice);
    // A purchase's receipt goes out with the buyer's personal link (PurchaseService), in one mail.
    if (!to || invoice.purchaseId) return;
    const rendered = await invoiceReceipt(
      { locale: invoice.locale, productName: this.productName },
      this.input(invoice),
    );
    await this.mail.enqueue({ to: [to], ...rendered, idempotencyKey: `invoice-receipt-${invoice.number}` });
  }
}
