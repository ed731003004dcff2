import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { InvoiceRecord } from '../db/invoice.repository.js';
import { invoiceLanguage, renderInvoicePdf, winAnsi } from './invoice-pdf.js';

const base: InvoiceRecord = {
  id: 'inv1',
  number: 'FRY-2026-000042',
  userId: 'u1',
  status: 'paid',
  currency: 'USD',
  lines: [{ description: 'Ferry TEAM, monthly', quantity: 3, unitAmount: 1500, amount: 4500 }],
  subtotal: 4500,
  taxRate: 0,
  tax: 0,
  total: 4500,
  amountDue: 0,
  reverseCharge: false,
  countryCode: 'US',
  vatNumber: null,
  vatNumberValid: null,
  vatCheck: 'none',
  viesUnavailable: null,
  buyer: { name: 'Łukasz Żółć 王', email: 'lz@example.com', countryCode: 'US' },
  seller: { name: 'Ferry SAS', country: 'FR', vatId: 'FR40303265045', bankDetails: null },
  locale: 'pl',
  provider: 'STRIPE',
  subscriptionId: null,
  purchaseId: null,
  paymentRef: 'in_1',
  issuedAt: new Date('2026-03-01T10:00:00Z'),
  dueAt: null,
  paidAt: new Date('2026-03-01T10:00:00Z'),
  paidBy: null,
  voidedAt: null,
  voidedBy: null,
};

async function textOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('invoice PDF', () => {
  it('keeps Windows-1252 text and reduces the rest to Latin letters or "?"', () => {
    expect(winAnsi('Chloé « 12,50 € » — £3')).toBe('Chloé « 12,50 € » — £3');
    expect(winAnsi('Łukasz Żółć 王')).toBe('Lukasz Zólc ?');
    expect(winAnsi('12\u202f345,00\u00a0€')).toBe('12 345,00\u00a0€');
  });

  it('speaks French to French buyers and English to everyone else', () => {
    expect(invoiceLanguage('fr-CA')).toBe('fr');
    expect(invoiceLanguage('pl')).toBe('en');
    expect(invoiceLanguage(null)).toBe('en');
  });

  it('prints a paid card invoice outside the EU in English, with no VAT', async () => {
    const text = await textOf(await renderInvoicePdf(base, { productName: 'Ferry' }));
    for (const expected of [
      'Invoice',
      'FRY-2026-000042',
      'Paid on',
      '1 March 2026',
      'card (Stripe)',
      'Ferry SAS',
      'Lukasz Zólc ?',
      'United States',
      'Ferry TEAM, monthly',
      'US$15.00',
      'US$45.00',
      'VAT not applicable (buyer outside the EU)',
      "Buyer's VAT number checked: no VAT number given",
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Due date');
  });

  it('says when VIES was unavailable, and marks a void invoice', async () => {
    const text = await textOf(
      await renderInvoicePdf(
        {
          ...base,
          status: 'void',
          countryCode: 'DE',
          reverseCharge: true,
          vatNumber: 'DE123456789',
          vatNumberValid: true,
          vatCheck: 'format',
          viesUnavailable: 'MS_UNAVAILABLE',
        },
        { productName: 'Ferry' },
      ),
    );
    expect(text).toContain('VOID');
    expect(text).toContain('by its format (VIES was unavailable)');
    expect(text).toContain('Reverse charge — article 196 of Council Directive 2006/112/EC');
  });
});
