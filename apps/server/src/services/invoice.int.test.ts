import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import type { Buyer, InvoicePaid, IssueInvoice, TaxDecision } from './billing-ports.js';

/** The Invoices port against a real database: numbering under concurrency, totals, paid, void, open amounts. */
let ferry: TestFerry;
const year = new Date().getUTCFullYear();

beforeAll(async () => {
  ferry = await startTestFerry({ env: { INVOICE_PREFIX: 'TST', SELLER_BANK_DETAILS: 'IBAN FR76 0000' } });
});
afterAll(async () => {
  await ferry?.close();
});

async function newUser(): Promise<Buyer> {
  const id = randomBytes(8).toString('hex');
  const email = `buyer-${id}@customer.example`;
  await query(ferry, 'INSERT INTO users (id, email, email_verified_at) VALUES ($1, $2, now())', [id, email]);
  return {
    userId: id,
    email,
    name: 'Chloé Martin',
    companyName: null,
    address: '1 rue de Rivoli',
    locale: 'fr',
  };
}

const FR_CONSUMER: TaxDecision = {
  countryCode: 'FR',
  rate: 20,
  reverseCharge: false,
  vatNumber: null,
  vatNumberValid: null,
  vatCheck: 'none',
};

const manual = (buyer: Buyer, extra: Partial<IssueInvoice> = {}): IssueInvoice => ({
  buyer,
  currency: 'EUR',
  lines: [{ description: 'Ferry PREMIUM, annual', quantity: 1, unitAmount: 9999 }],
  tax: FR_CONSUMER,
  provider: 'MANUAL',
  status: 'open',
  subscriptionId: 'sub_1',
  ...extra,
});

const sequenceOf = (number: string) => Number(number.split('-')[2]);

describe('invoice numbers', () => {
  it('gives 20 invoices issued at once 20 consecutive numbers, and a failed issue gives its number back', async () => {
    const buyer = await newUser();
    const first = await ferry.invoices.issue(manual(buyer));
    expect(first.number).toMatch(new RegExp(`^TST-${year}-\\d{6}$`));
    const ghost: Buyer = { ...buyer, userId: 'no-such-user' };
    const results = await Promise.allSettled(
      Array.from({ length: 21 }, (_, i) => ferry.invoices.issue(manual(i === 10 ? ghost : buyer))),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    const numbers = results
      .flatMap((r) => (r.status === 'fulfilled' ? [sequenceOf(r.value.number)] : []))
      .sort((a, b) => a - b);
    expect(numbers).toHaveLength(20);
    const start = sequenceOf(first.number) + 1;
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => start + i));
    // The next one follows on: the failed issue left no gap.
    const next = await ferry.invoices.issue(manual(buyer));
    expect(sequenceOf(next.number)).toBe(start + 20);
    const [counter] = await query<{ last: number }>(
      ferry,
      'SELECT last FROM invoice_counters WHERE prefix = $1 AND year = $2',
      ['TST', year],
    );
    expect(counter?.last).toBe(start + 20);
  });
});

describe('totals', () => {
  it('adds VAT rounded half up once per invoice, and stores buyer, seller and the tax decision', async () => {
    const buyer = await newUser();
    const issued = await ferry.invoices.issue(
      manual(buyer, {
        lines: [
          { description: 'A', quantity: 3, unitAmount: 333 },
          { description: 'B', quantity: 1, unitAmount: 1 },
        ],
        tax: { ...FR_CONSUMER, countryCode: 'FI', rate: 25.5 },
      }),
    );
    // 1000 × 25.5 % = 255; lines: 999 + 1.
    expect(issued).toMatchObject({ subtotal: 1000, tax: 255, total: 1255, amountDue: 1255, status: 'open' });
    expect(issued.pdfUrl).toBe(`/api/pay/invoices/${issued.number}/pdf`);
    const [row] = await query(ferry, 'SELECT * FROM invoices WHERE number = $1', [issued.number]);
    expect(row).toMatchObject({
      user_id: buyer.userId,
      country_code: 'FI',
      vat_check: 'none',
      subscription_id: 'sub_1',
      purchase_id: null,
      locale: 'fr',
      buyer: expect.objectContaining({ email: buyer.email, address: '1 rue de Rivoli' }),
      seller: expect.objectContaining({ country: 'FR', bankDetails: 'IBAN FR76 0000' }),
    });
    expect(row?.due_at).toBeInstanceOf(Date);
    expect(row?.lines).toEqual([
      { description: 'A', quantity: 3, unitAmount: 333, amount: 999 },
      { description: 'B', quantity: 1, unitAmount: 1, amount: 1 },
    ]);
  });

  it('issues a card payment already paid: nothing due, no bank details', async () => {
    const buyer = await newUser();
    const issued = await ferry.invoices.issue(
      manual(buyer, {
        provider: 'STRIPE',
        status: 'paid',
        paymentRef: 'in_123',
        tax: {
          ...FR_CONSUMER,
          countryCode: 'DE',
          rate: 0,
          reverseCharge: true,
          vatNumber: 'DE123456789',
          vatNumberValid: true,
          vatCheck: 'format',
        },
      }),
    );
    expect(issued).toMatchObject({ status: 'paid', tax: 0, total: 9999, amountDue: 0, provider: 'STRIPE' });
    expect(issued.paidAt).toBeInstanceOf(Date);
    const [row] = await query(ferry, 'SELECT * FROM invoices WHERE number = $1', [issued.number]);
    expect(row).toMatchObject({
      reverse_charge: true,
      vat_number: 'DE123456789',
      payment_ref: 'in_123',
      due_at: null,
    });
    expect(row?.seller).toMatchObject({ bankDetails: null });
  });
});

describe('paying and voiding', () => {
  it('marks a MANUAL invoice paid once, announces it once, and sums what stays open', async () => {
    const buyer = await newUser();
    const heard: InvoicePaid[] = [];
    ferry.invoices.onPaid(async (paid) => {
      if (paid.invoice.userId === buyer.userId) heard.push(paid);
    });
    const a = await ferry.invoices.issue(manual(buyer));
    const b = await ferry.invoices.issue(manual(buyer));
    expect(await ferry.invoices.openAmount(buyer.userId)).toBe(2 * 11999);
    const paid = await ferry.invoices.markPaid(a.number, null);
    expect(paid).toMatchObject({ status: 'paid', amountDue: 0 });
    const again = await ferry.invoices.markPaid(a.number, null);
    expect(again.paidAt?.getTime()).toBe(paid.paidAt?.getTime());
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ operatorId: null, invoice: { number: a.number, status: 'paid' } });
    expect(await ferry.invoices.openAmount(buyer.userId)).toBe(11999);
    // Voided: nothing due, and it can no longer be paid.
    const voided = await ferry.invoices.void(b.number, null);
    expect(voided).toMatchObject({ status: 'void', amountDue: 0 });
    expect(await ferry.invoices.openAmount(buyer.userId)).toBe(0);
    await expect(ferry.invoices.markPaid(b.number, null)).rejects.toMatchObject({ code: 'CONFLICT' });
    // A paid invoice cannot be voided; a number that does not exist is not found.
    await expect(ferry.invoices.void(a.number, null)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(ferry.invoices.markPaid('TST-1999-000001', null)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(heard).toHaveLength(1);
  });

  it('never marks a card invoice paid by hand', async () => {
    const buyer = await newUser();
    const card = await ferry.invoices.issue(manual(buyer, { provider: 'STRIPE' }));
    await expect(ferry.invoices.markPaid(card.number, null)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('records an operator who marks an invoice paid in the journal, in the same transaction', async () => {
    const buyer = await newUser();
    const operator = await newUser();
    const invoice = await ferry.invoices.issue(manual(buyer));
    await ferry.invoices.markPaid(invoice.number, operator.userId);
    const rows = await query(ferry, 'SELECT * FROM operator_actions WHERE target = $1', [invoice.number]);
    expect(rows).toEqual([
      expect.objectContaining({
        operator_id: operator.userId,
        operator_email: operator.email,
        action: 'mark-paid',
        target_user_id: buyer.userId,
      }),
    ]);
    const [row] = await query(ferry, 'SELECT paid_by FROM invoices WHERE number = $1', [invoice.number]);
    expect(row?.paid_by).toBe(operator.userId);
  });
});
