import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fetchBytes, randomFile, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { StripeStandin, TEST_CARDS } from '../test/stripe-standin.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Selling files (spec §3 price and currency, issue 19 item 6) against a real Ferry, the Stripe stand-in with the
 * official SDK pointed at it, and a real SMTP server: a priced S2 transfer answers 402 until bought; a purchase paid
 * with a card unlocks that transfer and nothing else; the receipt carries the buyer's VAT; the seller sees the sale.
 */
let standin: StripeStandin;
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let seller: Account;
let n = 0;

const waitFor = (to: string) => sink.waitFor((m) => m.to.includes(to));
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@sell.example`, waitFor);
const as = (who: Account | null, path: string, init: Parameters<typeof api>[2] = {}) =>
  api(ferry.baseUrl, path, { ...init, headers: { ...(who?.bearer ?? {}), ...(init.headers ?? {}) } });

/** A transfer made by `who`, uploaded and completed; `price` in minor units. */
async function upload(who: Account | null, data: Buffer, extra: Record<string, unknown> = {}) {
  const created = await as(who, '/api/transfer/transfers', {
    method: 'POST',
    json: { type: 'S2', name: 'Mix stems', files: [{ name: 'stems.wav', size: data.length }], ...extra },
  });
  if (created.status !== 201) return created;
  const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
  await tus.upload(created.body.transferId, created.body.files[0].id, data);
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: [{ id: created.body.files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  return created;
}

const link = (transferId: string, extra: Record<string, string> = {}) =>
  api(ferry.baseUrl, `/api/transfer/downloads/link?${new URLSearchParams({ transferId, ...extra })}`);
const info = (transferId: string, extra: Record<string, string> = {}) =>
  api(ferry.baseUrl, `/api/transfer/downloads/info?${new URLSearchParams({ transferId, ...extra })}`);

async function paidPurchase(purchaseId: string) {
  for (let i = 0; i < 100; i++) {
    const state = await api(ferry.baseUrl, `/api/pay/purchases/${purchaseId}`);
    if (state.body.status === 'paid') return state.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('purchase never paid');
}

beforeAll(async () => {
  standin = await StripeStandin.start();
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      ...standin.env(),
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      PUBLIC_URL: 'https://ferry.example',
    },
  });
  standin.webhookUrl = `${ferry.baseUrl}/api/pay/webhooks/stripe`;
  seller = await account('seller');
  await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
    seller.uid,
  ]);
});

afterAll(async () => {
  await standin?.close();
  await ferry?.close();
  await sink?.close();
});

describe('selling files', () => {
  it('answers 402 with the page to pay at until bought; the purchase unlocks that transfer only, with a receipt', async () => {
    const data = randomFile(40_000);
    const sold = await upload(seller, data, { price: { amount: 1250, currency: 'EUR' } });
    const other = await upload(seller, randomFile(1000), { price: { amount: 900, currency: 'EUR' } });
    const id = sold.body.transferId as string;

    // Anyone sees what is for sale and its price; nothing is counted by a refused link call.
    const before = await info(id);
    expect(before.body).toMatchObject({ price: { amount: 1250, currency: 'EUR' }, purchased: false });
    expect(before.body.files).toHaveLength(1);
    const refused = await link(id);
    expect(refused.status).toBe(402);
    expect(refused.body.codes).toEqual(['PAYMENT_REQUIRED']);
    expect(refused.body.details).toEqual({
      payUrl: `https://ferry.example/dl/${id}#buy`,
      price: { amount: 1250, currency: 'EUR' },
    });
    const [counted] = await query<{ n: number }>(
      ferry,
      'SELECT download_count AS n FROM transfers WHERE id = $1',
      [id],
    );
    expect(counted?.n).toBe(0);

    // A consumer in Germany pays German VAT (19 %) on top.
    const buyer = `buyer-${process.pid}@sell.example`;
    const started = await api(ferry.baseUrl, '/api/pay/purchases', {
      method: 'POST',
      json: { transferId: id, email: buyer, countryCode: 'DE' },
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ amount: 1250, tax: 238, total: 1488, currency: 'EUR' });
    expect(started.body.clientSecret).toMatch(/_secret_/);
    const pending = await api(ferry.baseUrl, `/api/pay/purchases/${started.body.purchaseId}`);
    expect(pending.body).toMatchObject({ status: 'pending', purchaseToken: null });

    const confirmed = await standin.confirmAsPage(started.body.clientSecret, TEST_CARDS.succeeds);
    expect(confirmed.status).toBe('succeeded');
    // Several pages ask at once while the provider's webhook arrives: one completion, one receipt (checked below).
    await Promise.all(
      Array.from({ length: 6 }, () => api(ferry.baseUrl, `/api/pay/purchases/${started.body.purchaseId}`)),
    );
    const paid = await paidPurchase(started.body.purchaseId);
    expect(paid.receiptNumber).toMatch(/^FRY-\d{4}-\d{6}$/);
    const token = paid.purchaseToken as string;

    expect((await info(id, { purchaseToken: token })).body.purchased).toBe(true);
    const granted = await link(id, { purchaseToken: token, fileId: sold.body.files[0].id });
    expect(granted.status).toBe(200);
    // PUBLIC_URL is not this test's address: the path is fetched from the instance itself.
    const blob = `${ferry.baseUrl}${new URL(granted.body.url).pathname}`;
    expect(sha256((await fetchBytes(blob)).data)).toBe(sha256(data));
    // That token unlocks nothing else, and a forged one nothing at all.
    expect((await link(other.body.transferId, { purchaseToken: token })).status).toBe(402);
    const forged = `${token.split('.')[0]}.${'A'.repeat(32)}`;
    expect((await link(id, { purchaseToken: forged })).status).toBe(402);

    // The provider's webhook arrives as well: the purchase is completed once, with one receipt.
    await standin.settle();
    const invoices = await query<{ user_id: string | null; total: number; status: string; tax: number }>(
      ferry,
      'SELECT user_id, total::float8 AS total, status, tax::float8 AS tax FROM invoices WHERE purchase_id = $1',
      [started.body.purchaseId],
    );
    expect(invoices).toEqual([{ user_id: null, total: 1488, status: 'paid', tax: 238 }]);

    // The buyer's mail: the receipt with the VAT, and the personal link that downloads.
    const mail = await waitFor(buyer);
    expect(mail.parsed.subject).toContain('Your purchase');
    const text = String(mail.parsed.text);
    expect(text).toContain(paid.receiptNumber);
    expect(text).toContain('VAT 19 %');
    expect(text).toContain(`https://ferry.example/dl/${id}?purchase=${encodeURIComponent(token)}`);
    expect(sink.messages.filter((m) => m.to.includes(buyer))).toHaveLength(1);

    // The seller sees the sale.
    const detail = await as(seller, `/api/transfer/transfers/${id}/detail`);
    expect(detail.body.price).toEqual({ amount: 1250, currency: 'EUR' });
    expect(detail.body.sales).toEqual([
      expect.objectContaining({ email: buyer, countryCode: 'DE', amount: 1250, tax: 238, total: 1488 }),
    ]);
    // …and downloads freely, as its owner.
    expect((await as(seller, `/api/transfer/downloads/link?transferId=${id}`)).status).toBe(200);
  });

  it('asks for the password before the payment; a card that needs authentication pays once confirmed', async () => {
    const sold = await upload(seller, randomFile(2000), {
      password: 'open sesame',
      price: { amount: 500, currency: 'EUR' },
    });
    const id = sold.body.transferId as string;
    expect((await link(id)).body.codes).toEqual(['PASSWORD_REQUIRED']);
    expect((await link(id, { password: 'wrong' })).body.codes).toEqual(['WRONG_PASSWORD']);
    expect((await link(id, { password: 'open sesame' })).status).toBe(402);

    const started = await api(ferry.baseUrl, '/api/pay/purchases', {
      method: 'POST',
      json: { transferId: id, email: `sca-${process.pid}@sell.example`, countryCode: 'US' },
    });
    expect(started.body).toMatchObject({ amount: 500, tax: 0, total: 500 });
    const needs = await standin.confirmAsPage(started.body.clientSecret, TEST_CARDS.requiresAuthentication);
    expect(needs.status).toBe('requires_action');
    expect((await api(ferry.baseUrl, `/api/pay/purchases/${started.body.purchaseId}`)).body).toMatchObject({
      status: 'pending',
      intentStatus: 'requires_action',
    });
    await standin.authenticateAsPage(started.body.clientSecret, true);
    const paid = await paidPurchase(started.body.purchaseId);
    expect((await link(id, { password: 'open sesame', purchaseToken: paid.purchaseToken })).status).toBe(200);
  });

  it('sells only link transfers of paying accounts', async () => {
    const price = { amount: 1000, currency: 'EUR' };
    const byEmail = await as(seller, '/api/transfer/transfers', {
      method: 'POST',
      json: { type: 'S1', recipients: ['x@sell.example'], files: [{ name: 'a.txt', size: 3 }], price },
    });
    expect(byEmail.status).toBe(400);
    const free = await account('free');
    const fromFree = await upload(free, randomFile(10), { price });
    expect(fromFree.status).toBe(403);
    const anonymous = await upload(null, randomFile(10), { price });
    expect(anonymous.status).toBe(403);
    // A free transfer has nothing to buy.
    const gift = await upload(seller, randomFile(10));
    const buy = await api(ferry.baseUrl, '/api/pay/purchases', {
      method: 'POST',
      json: { transferId: gift.body.transferId, email: 'x@sell.example', countryCode: 'FR' },
    });
    expect(buy.status).toBe(400);
  });

  it('refuses a price where no card provider is configured', async () => {
    const manualOnly = await startTestFerry({ env: { SMTP_URL: sink.url } });
    try {
      const owner = await signedInAccount(manualOnly.baseUrl, `manual-${process.pid}@sell.example`, waitFor);
      await query(manualOnly, `UPDATE users SET plan_type = 'PREMIUM' WHERE id = $1`, [owner.uid]);
      const res = await api(manualOnly.baseUrl, '/api/transfer/transfers', {
        method: 'POST',
        headers: owner.bearer,
        json: { type: 'S2', files: [{ name: 'a.txt', size: 3 }], price: { amount: 1000, currency: 'EUR' } },
      });
      expect(res.status).toBe(400);
      expect(res.body.codes).toEqual(['PAYMENT_PROVIDER_NOT_AVAILABLE']);
    } finally {
      await manualOnly.close();
    }
  });
});
