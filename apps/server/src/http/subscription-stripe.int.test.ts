import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { StripeStandin, TEST_CARDS } from '../test/stripe-standin.js';

/**
 * Subscriptions paid by card, end to end: Ferry's checkout API, the official Stripe SDK against the stand-in,
 * the page's card confirmation (as Stripe.js does it), and the stand-in's signed webhooks back to Ferry. What the
 * buyer sees is the session's plan, the limits, the subscription and its paid invoices.
 */
const DAY = 86_400_000;
let clock = new Date();
let sink: SmtpSink;
let standin: StripeStandin;
let ferry: TestFerry;
let n = 0;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let buyer: Account;

beforeAll(async () => {
  sink = await startSmtpSink();
  standin = await StripeStandin.start();
  ferry = await startTestFerry({
    env: {
      ...standin.env(),
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
    },
    now: () => clock,
  });
  standin.webhookUrl = `${ferry.baseUrl}/api/pay/webhooks/stripe`;
});
beforeEach(async () => {
  clock = new Date();
  buyer = await signedInAccount(ferry.baseUrl, `stripe-${process.pid}-${++n}@subs.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
});
afterAll(async () => {
  await standin?.close();
  await ferry?.close();
  await sink?.close();
});

const get = (path: string) => api(ferry.baseUrl, path, { headers: buyer.bearer });
const plan = async () => (await get('/api/auth/me')).body.planType;
const current = async () => (await get('/api/pay/subscriptions/current')).body.subscription;
const start = (json: Record<string, unknown>) =>
  api(ferry.baseUrl, '/api/pay/subscriptions', {
    method: 'POST',
    headers: buyer.bearer,
    json: { planCode: 'PREMIUM', frequency: 'MONTHLY', provider: 'STRIPE', countryCode: 'FR', ...json },
  });
const paidInvoices = () =>
  query<{ total: string | number; status: string }>(
    ferry,
    `SELECT total, status FROM invoices WHERE user_id = $1 AND status = 'paid' ORDER BY issued_at`,
    [buyer.uid],
  );
const providerRef = async () =>
  (
    await query<{ provider_ref: string }>(
      ferry,
      'SELECT provider_ref FROM subscriptions WHERE user_id = $1',
      [buyer.uid],
    )
  )[0]!.provider_ref;

describe('card subscriptions through the Stripe stand-in', () => {
  it('SCA: the card asks for authentication; once it passes, the plan is PREMIUM with a paid invoice', async () => {
    const res = await start({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'incomplete', invoice: null });
    const pending = await standin.confirmAsPage(res.body.clientSecret, TEST_CARDS.requiresAuthentication);
    expect(pending.status).toBe('requires_action');
    await standin.settle();
    expect(await plan()).toBe('NONE');

    expect((await standin.authenticateAsPage(res.body.clientSecret, true)).status).toBe('succeeded');
    await standin.settle();
    expect(await plan()).toBe('PREMIUM');
    expect((await get(`/api/transfer/limits/${buyer.uid}`)).body.storage).toBe(1000e9);
    expect(await current()).toMatchObject({
      status: 'active',
      provider: 'STRIPE',
      intentStatus: 'succeeded',
    });
    // 12.00 and French VAT.
    expect((await paidInvoices()).map((i) => Number(i.total))).toEqual([1440]);
    const infos = (await get(`/api/pay/customers/${buyer.uid}/payment-infos`)).body;
    expect(infos.defaultPaymentMethod.card).toMatchObject({ last4: '3155' });
  });

  it('trial → paid: the plan holds from the start; the saved card pays when the trial ends', async () => {
    const res = await start({ trial: true });
    expect(res.body.status).toBe('trialing');
    expect(await plan()).toBe('PREMIUM');
    expect((await standin.confirmAsPage(res.body.clientSecret, TEST_CARDS.succeeds)).status).toBe(
      'succeeded',
    );
    await standin.settle();
    expect(await paidInvoices()).toEqual([]);

    standin.advanceClock(15 * 86_400);
    await standin.settle();
    expect(await current()).toMatchObject({ status: 'active', intentStatus: 'succeeded' });
    expect((await paidInvoices()).map((i) => Number(i.total))).toEqual([1440]);
    expect(await plan()).toBe('PREMIUM');
  });

  it('a failed renewal is past due and mailed on day 0; the day-3 retry charges the card and ends dunning', async () => {
    const res = await start({});
    await standin.confirmAsPage(res.body.clientSecret, TEST_CARDS.succeeds);
    await standin.settle();
    const ref = await providerRef();
    standin.failNextRenewal();
    standin.renewNow(ref);
    await standin.settle();
    expect(await current()).toMatchObject({ status: 'past_due', intentStatus: 'requires_payment_method' });
    await sink.waitFor(
      (m) => m.to.includes(buyer.email) && /did not go through/.test(m.parsed.subject ?? ''),
    );
    expect(await plan()).toBe('PREMIUM');

    clock = new Date(clock.getTime() + 3 * DAY + 60_000);
    expect((await ferry.billing.dunning.tick()).dunned).toBe(1);
    await standin.settle();
    expect(await current()).toMatchObject({ status: 'active', intentStatus: 'succeeded' });
    expect(await plan()).toBe('PREMIUM');
    expect(await paidInvoices()).toHaveLength(2);
    // Paid at the retry: no reminder.
    expect(
      sink.messages.filter((m) => m.to.includes(buyer.email) && /still due/.test(m.parsed.subject ?? '')),
    ).toEqual([]);
  });
});
