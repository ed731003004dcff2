import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoicePaid, IssueInvoice, TaxDecision } from '../services/billing-ports.js';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/** Tax rates, the owner's invoices and PDFs, the operators' list, mark-paid and void, and the buyer's mails. */
let sink: SmtpSink;
let ferry: TestFerry;
let n = 0;
const fresh = (label: string) => `${label}-${process.pid}-${++n}@invoices.example`;
const OPERATOR = `operator-${process.pid}@invoices.example`;

type Account = { email: string; uid: string; bearer: { authorization: string } };
let operator: Account;

const account = (email: string) =>
  signedInAccount(ferry.baseUrl, email, (to) => sink.waitFor((m) => m.to.includes(to)));

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      TRUST_PROXY: '1',
      OPERATOR_EMAILS: OPERATOR,
      SELLER_NAME: 'Ferry Transfers SAS',
      SELLER_ADDRESS: '10 rue de la Paix, 75002 Paris',
      SELLER_VAT_ID: 'FR40303265045',
      SELLER_BANK_DETAILS: 'IBAN FR76 3000 6000 0112 3456 7890 189\\nBIC AGRIFRPP',
      INVOICE_PREFIX: 'FRY',
    },
  });
  operator = await account(OPERATOR);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const FR: TaxDecision = {
  countryCode: 'FR',
  rate: 20,
  reverseCharge: false,
  vatNumber: null,
  vatNumberValid: null,
  vatCheck: 'none',
};

const issue = (who: Account, extra: Partial<IssueInvoice> & { locale?: string } = {}) => {
  const { locale, ...rest } = extra;
  return ferry.invoices.issue({
    buyer: {
      userId: who.uid,
      email: who.email,
      name: 'Chloé Dupré',
      companyName: 'Ateliers Façon SARL',
      address: '3 quai des Brumes, 69001 Lyon',
      locale: locale ?? 'fr',
    },
    currency: 'EUR',
    lines: [{ description: 'Ferry PREMIUM, annuel', quantity: 1, unitAmount: 12_000 }],
    tax: FR,
    provider: 'MANUAL',
    status: 'open',
    ...rest,
  });
};

async function pdfText(res: Response): Promise<string> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('GET /api/pay/subscriptions/tax-rates', () => {
  const rates = (qs: string, client = '198.51.100.7') =>
    api(ferry.baseUrl, `/api/pay/subscriptions/tax-rates?${qs}`, { headers: { 'x-forwarded-for': client } });

  it('answers the spec TaxRate for consumers, businesses and outside the EU', async () => {
    expect((await rates('countryCode=FR')).body).toEqual({
      countryCode: 'FR',
      rate: 20,
      reverseCharge: false,
      vatNumberValid: null,
    });
    expect((await rates('countryCode=de')).body).toMatchObject({ countryCode: 'DE', rate: 19 });
    expect((await rates('countryCode=IE')).body).toMatchObject({ rate: 23 });
    expect((await rates('countryCode=DE&vatNumber=DE%20123%20456%20789')).body).toEqual({
      countryCode: 'DE',
      rate: 0,
      reverseCharge: true,
      vatNumberValid: true,
    });
    expect((await rates('countryCode=FR&vatNumber=FR40303265045')).body).toMatchObject({
      rate: 20,
      reverseCharge: false,
      vatNumberValid: true,
    });
    expect((await rates('countryCode=DE&vatNumber=123')).body).toMatchObject({
      rate: 19,
      vatNumberValid: false,
    });
    expect((await rates('countryCode=US')).body).toEqual({
      countryCode: 'US',
      rate: 0,
      reverseCharge: false,
      vatNumberValid: null,
    });
  });

  it('refuses what is not a country with 400 VALIDATION_FAILED', async () => {
    for (const qs of ['countryCode=ZZ', 'countryCode=FRA', '']) {
      const res = await rates(qs);
      expect([qs, res.status, res.body.codes]).toEqual([qs, 400, ['VALIDATION_FAILED']]);
    }
  });

  it('is limited per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await rates('countryCode=FR', '198.51.100.99')).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await rates('countryCode=FR', '198.51.100.100')).status).toBe(200);
  });
});

describe("the buyer's invoices", () => {
  it('mails a MANUAL invoice, lists it, and serves its PDF in French to a French buyer', async () => {
    const buyer = await account(fresh('chloe'));
    const invoice = await issue(buyer);
    expect(invoice.number).toMatch(/^FRY-\d{4}-\d{6}$/);

    const mail = await sink.waitFor(
      (m) => m.to.includes(buyer.email) && /facture/i.test(m.parsed.subject ?? ''),
    );
    expect(mail.parsed.subject).toBe(`Votre facture Ferry ${invoice.number}`);
    expect(mail.parsed.text).toContain('144,00');
    expect(mail.parsed.text).toContain('IBAN FR76 3000 6000 0112 3456 7890 189');
    expect(mail.parsed.text).toContain(`/api/pay/invoices/${invoice.number}/pdf`);

    const list = await api(ferry.baseUrl, '/api/pay/invoices', { headers: buyer.bearer });
    expect(list.status).toBe(200);
    expect(list.body.invoices).toEqual([
      {
        number: invoice.number,
        status: 'open',
        currency: 'EUR',
        subtotal: 12_000,
        taxRate: 20,
        tax: 2400,
        total: 14_400,
        amountDue: 14_400,
        reverseCharge: false,
        provider: 'MANUAL',
        issuedAt: expect.any(String),
        paidAt: null,
        lines: [{ description: 'Ferry PREMIUM, annuel', quantity: 1, unitAmount: 12_000, amount: 12_000 }],
        pdfUrl: `/api/pay/invoices/${invoice.number}/pdf`,
      },
    ]);

    const res = await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`, { headers: buyer.bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`attachment; filename="${invoice.number}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await pdfText(res);
    for (const expected of [
      'Facture',
      invoice.number,
      'Ferry Transfers SAS',
      '10 rue de la Paix, 75002 Paris',
      'FR40303265045',
      'Ateliers Façon SARL',
      'Chloé Dupré',
      '3 quai des Brumes, 69001 Lyon',
      'France',
      'Ferry PREMIUM, annuel',
      'Total HT',
      '120,00 €',
      'TVA 20 %',
      '24,00 €',
      'Total TTC',
      '144,00 €',
      'Montant dû',
      "Date d'échéance",
      'IBAN FR76 3000 6000 0112 3456 7890 189',
      'BIC AGRIFRPP',
      "Numéro de TVA de l'acheteur vérifié : aucun numéro de TVA donné",
    ])
      expect(text).toContain(expected);
  });

  it('writes an English invoice with the reverse charge mention for a German business', async () => {
    const buyer = await account(fresh('dieter'));
    const invoice = await issue(buyer, {
      locale: 'de',
      tax: {
        countryCode: 'DE',
        rate: 0,
        reverseCharge: true,
        vatNumber: 'DE123456789',
        vatNumberValid: true,
        vatCheck: 'vies',
      },
      currency: 'GBP',
    });
    const res = await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`, { headers: buyer.bearer });
    const text = await pdfText(res);
    for (const expected of [
      'Invoice',
      invoice.number,
      'Germany',
      'VAT number: DE123456789',
      'Reverse charge — article 196 of Council Directive 2006/112/EC',
      '£120.00',
      'Amount due',
      "Buyer's VAT number checked: online against VIES",
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('TVA');
  });

  it('lets a team member with BILLING see the manager’s invoices, and no one else', async () => {
    const manager = await account(fresh('manager'));
    const member = await account(fresh('member'));
    const stranger = await account(fresh('stranger'));
    const invoice = await issue(manager);
    await query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
      member.uid,
      manager.uid,
      ['TRANSFER_MANAGER'],
    ]);
    const refused = await api(ferry.baseUrl, '/api/pay/invoices', { headers: member.bearer });
    expect([refused.status, refused.body.codes]).toEqual([403, ['FORBIDDEN']]);
    expect((await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`, { headers: member.bearer })).status).toBe(404);

    await query(ferry, 'UPDATE users SET permissions = $2 WHERE id = $1', [member.uid, ['BILLING']]);
    const list = await api(ferry.baseUrl, '/api/pay/invoices', { headers: member.bearer });
    expect(list.body.invoices.map((i: { number: string }) => i.number)).toEqual([invoice.number]);
    expect((await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`, { headers: member.bearer })).status).toBe(200);

    const theirs = await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`, { headers: stranger.bearer });
    expect(theirs.status).toBe(404);
    expect((await api(ferry.baseUrl, '/api/pay/invoices', { headers: stranger.bearer })).body).toEqual({
      invoices: [],
    });
    expect((await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`)).status).toBe(401);
    expect(
      (await fetch(`${ferry.baseUrl}/api/pay/invoices/FRY-1999-000001/pdf`, { headers: manager.bearer }))
        .status,
    ).toBe(404);
    // An operator reads any invoice.
    expect((await fetch(`${ferry.baseUrl}${invoice.pdfUrl}`, { headers: operator.bearer })).status).toBe(200);
  });
});

describe('operators and invoices', () => {
  it('lists open invoices, marks a MANUAL one paid once (listener called once, receipt mailed, journal)', async () => {
    const buyer = await account(fresh('payer'));
    const heard: InvoicePaid[] = [];
    ferry.invoices.onPaid(async (paid) => {
      if (paid.invoice.userId === buyer.uid) heard.push(paid);
    });
    const invoice = await issue(buyer, { locale: 'en' });

    const open = await api(ferry.baseUrl, '/api/operator/invoices?open=true', { headers: operator.bearer });
    expect(open.status).toBe(200);
    expect(open.body.invoices).toContainEqual({
      number: invoice.number,
      email: buyer.email,
      uid: buyer.uid,
      amountDue: 14_400,
      total: 14_400,
      currency: 'EUR',
      status: 'open',
      provider: 'MANUAL',
      issuedAt: expect.any(String),
      paidAt: null,
      pdfUrl: invoice.pdfUrl,
    });
    expect(open.body.invoices.every((i: { status: string }) => i.status === 'open')).toBe(true);

    // Nobody else reaches the operator routes.
    for (const headers of [buyer.bearer, {}]) {
      const path = `/api/operator/invoices/${invoice.number}/mark-paid`;
      const res = await api(ferry.baseUrl, path, { method: 'POST', headers });
      expect([res.status, res.body.codes]).toEqual([404, ['NOT_FOUND']]);
      expect((await api(ferry.baseUrl, '/api/operator/invoices', { headers })).status).toBe(404);
    }
    expect(heard).toHaveLength(0);

    const paid = await api(ferry.baseUrl, `/api/operator/invoices/${invoice.number}/mark-paid`, {
      method: 'POST',
      headers: operator.bearer,
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ number: invoice.number, status: 'paid', amountDue: 0 });
    const again = await api(ferry.baseUrl, `/api/operator/invoices/${invoice.number}/mark-paid`, {
      method: 'POST',
      headers: operator.bearer,
    });
    expect([again.status, again.body.paidAt]).toEqual([200, paid.body.paidAt]);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ operatorId: operator.uid, invoice: { number: invoice.number } });

    const receipt = await sink.waitFor(
      (m) => m.to.includes(buyer.email) && /receipt/i.test(m.parsed.subject ?? ''),
    );
    expect(receipt.parsed.subject).toBe(`Receipt for your Ferry invoice ${invoice.number}`);
    expect(receipt.parsed.text).toContain('€144.00');

    const journal = await query(ferry, 'SELECT * FROM operator_actions WHERE target = $1', [invoice.number]);
    expect(journal).toEqual([
      expect.objectContaining({
        operator_id: operator.uid,
        operator_email: OPERATOR,
        action: 'mark-paid',
        target_user_id: buyer.uid,
      }),
    ]);
    const after = await api(ferry.baseUrl, '/api/operator/invoices?open=true', { headers: operator.bearer });
    expect(after.body.invoices.map((i: { number: string }) => i.number)).not.toContain(invoice.number);
    const all = await api(ferry.baseUrl, '/api/operator/invoices', { headers: operator.bearer });
    expect(all.body.invoices.map((i: { number: string }) => i.number)).toContain(invoice.number);
  });

  it('voids an open invoice, then refuses to mark it paid (409); a card invoice is not marked paid by hand', async () => {
    const buyer = await account(fresh('voided'));
    const invoice = await issue(buyer);
    const voided = await api(ferry.baseUrl, `/api/operator/invoices/${invoice.number}/void`, {
      method: 'POST',
      headers: operator.bearer,
    });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'void', amountDue: 0 });
    const pay = await api(ferry.baseUrl, `/api/operator/invoices/${invoice.number}/mark-paid`, {
      method: 'POST',
      headers: operator.bearer,
    });
    expect([pay.status, pay.body.codes]).toEqual([409, ['CONFLICT']]);
    const [row] = await query(ferry, 'SELECT action FROM operator_actions WHERE target = $1', [
      invoice.number,
    ]);
    expect(row).toEqual({ action: 'void-invoice' });
    expect(await ferry.invoices.openAmount(buyer.uid)).toBe(0);

    const card = await issue(buyer, { provider: 'STRIPE' });
    const refused = await api(ferry.baseUrl, `/api/operator/invoices/${card.number}/mark-paid`, {
      method: 'POST',
      headers: operator.bearer,
    });
    expect([refused.status, refused.body.codes]).toEqual([409, ['CONFLICT']]);
    const missing = await api(ferry.baseUrl, '/api/operator/invoices/FRY-1999-000001/void', {
      method: 'POST',
      headers: operator.bearer,
    });
    expect(missing.status).toBe(404);
  });
});
