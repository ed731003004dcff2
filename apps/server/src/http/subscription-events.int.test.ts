import type { CardDetails, PaymentIntentStatus } from '@ferry/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  PaymentProvider,
  ProviderEvent,
  ProviderSubscriptionInput,
  ProviderSubscriptionResult,
} from '../payments/provider.js';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * A card provider's side of subscriptions (spec §3 intent statuses, §4 billing state): what its verified webhook
 * events do to Ferry's subscription, plan, invoices and dunning. The provider here is a scripted stand-in behind
 * the PaymentProvider port (the real Stripe and PayPal adapters have their own suites against their APIs'
 * stand-ins); the events are the ones those adapters hand to `handleProviderEvent`.
 */
const DAY = 86_400_000;

class ScriptedCardProvider implements PaymentProvider {
  readonly name = 'STRIPE' as const;
  readonly collects = 'card' as const;
  next: Partial<ProviderSubscriptionResult> = {};
  started: ProviderSubscriptionInput[] = [];
  retries = 0;
  canceled: string[] = [];
  card: CardDetails | null = { brand: 'visa', last4: '4242', exp_month: 3, exp_year: 2027 };

  async ensureCustomer(input: { userId: string }, existing: string | null) {
    return existing ?? `cus_${input.userId}`;
  }
  async startSubscription(input: ProviderSubscriptionInput): Promise<ProviderSubscriptionResult> {
    this.started.push(input);
    return {
      ref: `sub_${this.started.length}_${input.subscriptionId}`,
      status: input.trialDays > 0 ? 'trialing' : 'incomplete',
      intentStatus: null,
      clientSecret: null,
      approveUrl: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      trialEndsAt: null,
      ...this.next,
    };
  }
  async changeSubscription(ref: string): Promise<ProviderSubscriptionResult> {
    return { ...(await this.startSubscription({} as ProviderSubscriptionInput)), ref, status: 'active' };
  }
  async setCancelAtPeriodEnd() {}
  async cancelNow(ref: string) {
    this.canceled.push(ref);
  }
  async retryRenewal(): Promise<{ status: PaymentIntentStatus; clientSecret: string | null }> {
    this.retries++;
    return { status: 'requires_payment_method', clientSecret: null };
  }
  async defaultCard() {
    return this.card;
  }
  async startPayment(): Promise<never> {
    throw new Error('not in these tests');
  }
  async paymentStatus(): Promise<PaymentIntentStatus> {
    return 'succeeded';
  }
  async verifyWebhook(): Promise<ProviderEvent> {
    throw new Error('not in these tests');
  }
}

let clock = new Date();
let sink: SmtpSink;
let ferry: TestFerry;
let provider: ScriptedCardProvider;
let buyer: Awaited<ReturnType<typeof signedInAccount>>;
let events = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  provider = new ScriptedCardProvider();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      PAYMENT_PROVIDERS: 'MANUAL,STRIPE',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    },
    now: () => clock,
    cardProviders: [provider],
  });
  buyer = await signedInAccount(ferry.baseUrl, `card-${process.pid}@events.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
});
beforeEach(async () => {
  clock = new Date();
  provider.next = {};
  provider.retries = 0;
  await query(ferry, 'DELETE FROM subscriptions');
  await query(ferry, 'DELETE FROM billing_customers');
  await query(ferry, 'DELETE FROM invoices');
  await query(ferry, `UPDATE users SET plan_type = 'NONE', plan_code = NULL, plan_ends_at = NULL`);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

/** Dunning mails (day 0, day 3, ended) the buyer received; receipts are others. */
const dunningMails = () =>
  sink.messages.filter(
    (m) =>
      m.to.includes(buyer.email) && /did not go through|still due|has ended/.test(m.parsed.subject ?? ''),
  ).length;
const get = (path: string) => api(ferry.baseUrl, path, { headers: buyer.bearer });
const plan = async () => (await get('/api/auth/me')).body.planType;
const infos = async () => (await get(`/api/pay/customers/${buyer.uid}/payment-infos`)).body;
const start = (json: Record<string, unknown>) =>
  api(ferry.baseUrl, '/api/pay/subscriptions', {
    method: 'POST',
    headers: buyer.bearer,
    json: { planCode: 'PREMIUM', frequency: 'MONTHLY', provider: 'STRIPE', countryCode: 'DE', ...json },
  });
const ref = () => `sub_${provider.started.length}_${provider.started.at(-1)!.subscriptionId}`;
const send = (event: Record<string, unknown>) =>
  ferry.billing.subscriptions.handleProviderEvent('STRIPE', {
    eventId: `evt_${++events}`,
    subscriptionRef: ref(),
    ...event,
  } as ProviderEvent);
const paid = (from: Date, amountPaid: number) =>
  send({
    kind: 'subscription.paid',
    amountPaid,
    currency: 'EUR',
    periodStart: from,
    periodEnd: new Date(from.getTime() + 30 * DAY),
    paymentRef: `in_for_${from.getTime()}`,
  });

describe('card subscriptions', () => {
  it('trial → paid: the plan holds during the trial; the payment event makes it active with a paid invoice', async () => {
    const res = await start({ trial: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'trialing', invoice: null });
    expect(provider.started.at(-1)).toMatchObject({
      trialDays: 14,
      amount: 1200,
      taxRate: 19,
      currency: 'EUR',
    });
    expect(await plan()).toBe('PREMIUM');

    clock = new Date(clock.getTime() + 14 * DAY);
    await paid(clock, 1428);
    const current = (await get('/api/pay/subscriptions/current')).body.subscription;
    expect(current).toMatchObject({ status: 'active', intentStatus: 'succeeded' });
    expect(current.currentPeriodStart).toBe(clock.toISOString());
    const invoices = await query(
      ferry,
      'SELECT status, total, payment_ref FROM invoices WHERE user_id = $1',
      [buyer.uid],
    );
    // 12.00 + 19 % German VAT, as charged.
    expect(invoices).toEqual([{ status: 'paid', total: 1428, payment_ref: `in_for_${clock.getTime()}` }]);
    expect((await infos()).defaultPaymentMethod).toEqual({ type: 'card', card: provider.card });
  });

  it('SCA: a payment that requires action is shown to the user, then the confirmed payment starts the plan', async () => {
    provider.next = { intentStatus: 'requires_action', clientSecret: 'pi_123_secret_abc' };
    const res = await start({});
    expect(res.body).toMatchObject({ status: 'incomplete', clientSecret: 'pi_123_secret_abc' });
    expect((await infos()).subscription).toMatchObject({
      status: 'incomplete',
      intentStatus: 'requires_action',
      failedIntentClientSecret: 'pi_123_secret_abc',
    });
    expect(await plan()).toBe('NONE');
    await paid(clock, 1428);
    expect(await plan()).toBe('PREMIUM');
    expect((await infos()).subscription).toMatchObject({
      status: 'active',
      intentStatus: 'succeeded',
      failedIntentClientSecret: null,
    });
  });

  it('a failed renewal is retried and mailed on days 0, 3 and 7, then the plan is NONE', async () => {
    await start({});
    await paid(clock, 1428);
    const before = dunningMails();
    clock = new Date(clock.getTime() + 30 * DAY);
    await send({
      kind: 'subscription.payment_failed',
      intentStatus: 'requires_payment_method',
      clientSecret: null,
    });
    expect((await infos()).subscription).toMatchObject({
      status: 'past_due',
      intentStatus: 'requires_payment_method',
    });
    await sink.waitFor(
      (m) => m.to.includes(buyer.email) && /did not go through/.test(m.parsed.subject ?? ''),
    );
    // The same event again (a retry of the webhook) starts nothing twice.
    await send({
      kind: 'subscription.payment_failed',
      intentStatus: 'requires_payment_method',
      clientSecret: null,
    });

    clock = new Date(clock.getTime() + 3 * DAY + 60_000);
    await ferry.billing.dunning.tick();
    expect(provider.retries).toBe(1);
    await sink.waitFor((m) => m.to.includes(buyer.email) && /still due/.test(m.parsed.subject ?? ''));
    expect(await plan()).toBe('PREMIUM');

    clock = new Date(clock.getTime() + 4 * DAY);
    await ferry.billing.dunning.tick();
    expect(provider.retries).toBe(2);
    await sink.waitFor((m) => m.to.includes(buyer.email) && /has ended/.test(m.parsed.subject ?? ''));
    expect(dunningMails() - before).toBe(3);
    expect(await plan()).toBe('NONE');
    expect(provider.canceled).toContain(ref());
    expect((await get('/api/pay/subscriptions/current')).body.subscription).toBeNull();
  });

  it('MANUAL → card: the card takes over from the end of the paid period; the waiting invoice is voided', async () => {
    const manual = await start({ provider: 'MANUAL', frequency: 'ANNUAL', countryCode: 'FR' });
    await ferry.billing.invoices.markPaid(manual.body.invoice.number, null);
    const id = manual.body.subscriptionId;
    const sub = (await get('/api/pay/subscriptions/current')).body.subscription;
    const end = new Date(sub.currentPeriodEnd).getTime();
    clock = new Date(end - 5 * DAY);
    await ferry.billing.dunning.tick();
    expect((await infos()).subscription.openedInvoicesAmount).toBe(14400);

    provider.next = { clientSecret: 'seti_123_secret' };
    const changed = await api(ferry.baseUrl, `/api/pay/subscriptions/${id}`, {
      method: 'PATCH',
      headers: buyer.bearer,
      json: { provider: 'STRIPE' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      subscription: { provider: 'STRIPE' },
      clientSecret: 'seti_123_secret',
    });
    expect(provider.started.at(-1)).toMatchObject({ subscriptionId: id, trialDays: 5, amount: 12000 });
    expect((await infos()).subscription.openedInvoicesAmount).toBe(0);
    // The card's first charge renews it where the paid year ends.
    clock = new Date(end + 60_000);
    await ferry.billing.dunning.tick();
    expect((await get('/api/pay/subscriptions/current')).body.subscription.status).toBe('active');
    await paid(new Date(end), 14400);
    expect(await plan()).toBe('PREMIUM');
    expect((await get('/api/pay/subscriptions/current')).body.subscription.currentPeriodStart).toBe(
      new Date(end).toISOString(),
    );
  });

  it('mirrors the provider: a cancel at period end is visible, a cancel event ends the plan', async () => {
    await start({});
    await paid(clock, 1428);
    const end = new Date(clock.getTime() + 30 * DAY);
    await send({
      kind: 'subscription.updated',
      status: 'active',
      currentPeriodEnd: end,
      cancelAtPeriodEnd: true,
    });
    expect((await get('/api/pay/subscriptions/current')).body.subscription.cancelAtPeriodEnd).toBe(true);
    expect(await plan()).toBe('PREMIUM');
    await send({ kind: 'subscription.canceled' });
    expect(await plan()).toBe('NONE');
    // An event of a subscription Ferry does not know (yet) is refused, to be sent again.
    await expect(
      ferry.billing.subscriptions.handleProviderEvent('STRIPE', {
        kind: 'subscription.canceled',
        eventId: 'evt_unknown',
        subscriptionRef: 'sub_unknown',
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
