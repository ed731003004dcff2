import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventTransaction } from '../db/provider-events.repository.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { StripeStandin, stripeSignature, TEST_CARDS } from '../test/stripe-standin.js';
import { createCardProviders } from './card-providers.js';
import type { PaymentProvider, ProviderEvent, ProviderSubscriptionInput } from './provider.js';
import type { CardProviderName, ProviderEventHandler } from './provider-events.js';

/**
 * Records what reaches Ferry's handler, and writes a row through the event's transaction (as a real handler
 * would); it can be told to fail after writing, as a handler that breaks half-way.
 */
class RecordingHandler implements ProviderEventHandler {
  events: { provider: CardProviderName; event: ProviderEvent }[] = [];
  failing = false;
  async handle(provider: CardProviderName, event: ProviderEvent, tx: EventTransaction): Promise<void> {
    await tx.query(
      `INSERT INTO operator_actions (operator_id, operator_email, action, target)
       VALUES ('test', 'test@example.com', 'provider-event', $1)`,
      [event.eventId],
    );
    if (this.failing) throw new Error('handler down');
    this.events.push({ provider, event });
  }
  of<K extends ProviderEvent['kind']>(kind: K, ref?: string): Extract<ProviderEvent, { kind: K }>[] {
    return this.events
      .map((e) => e.event)
      .filter((e): e is Extract<ProviderEvent, { kind: K }> => e.kind === kind)
      .filter(
        (e) =>
          !ref ||
          ('subscriptionRef' in e ? e.subscriptionRef === ref : 'paymentRef' in e && e.paymentRef === ref),
      );
  }
}

let standin: StripeStandin;
let ferry: TestFerry;
let stripe: PaymentProvider;
const handler = new RecordingHandler();
let customer: string;
let userSeq = 0;

beforeAll(async () => {
  standin = await StripeStandin.start();
  ferry = await startTestFerry({ env: standin.env(), overrides: { providerEvents: handler } });
  standin.webhookUrl = `${ferry.baseUrl}/api/pay/webhooks/stripe`;
  const providers = createCardProviders(ferry.config.billing, pino({ level: 'silent' }));
  stripe = providers.STRIPE!;
});

afterAll(async () => {
  await standin?.close();
  await ferry?.close();
});

beforeEach(async () => {
  handler.failing = false;
  customer = await stripe.ensureCustomer(
    {
      userId: `user-${++userSeq}`,
      email: `buyer${userSeq}@example.com`,
      name: 'Ada Buyer',
      countryCode: 'FR',
    },
    null,
  );
});

const subscriptionInput = (over: Partial<ProviderSubscriptionInput> = {}): ProviderSubscriptionInput => ({
  subscriptionId: `ferry-sub-${userSeq}`,
  customerRef: customer,
  planCode: 'PREMIUM',
  frequency: 'MONTHLY',
  currency: 'EUR',
  amount: 1000,
  taxRate: 20,
  trialDays: 0,
  description: 'Ferry PREMIUM, monthly',
  ...over,
});

const processedRows = (eventId: string) =>
  query<{ processed_at: Date | null }>(
    ferry,
    "SELECT processed_at FROM provider_events WHERE provider = 'STRIPE' AND event_id = $1",
    [eventId],
  );

/** A subscription whose first invoice the page paid with 4242: active, its card the default. */
async function activeSubscription(over: Partial<ProviderSubscriptionInput> = {}) {
  const started = await stripe.startSubscription(subscriptionInput(over));
  const paid = await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.succeeds);
  expect(paid.status).toBe('succeeded');
  await standin.settle();
  return started;
}

describe('Stripe through the official SDK, against the stand-in', () => {
  it('creates a customer once: the same account asking twice at once gets one customer', async () => {
    const input = { userId: 'twice', email: 'twice@example.com', name: null, countryCode: null };
    const [a, b] = await Promise.all([
      stripe.ensureCustomer(input, null),
      stripe.ensureCustomer(input, null),
    ]);
    expect(a).toMatch(/^cus_/);
    expect(b).toBe(a);
    expect(await stripe.ensureCustomer(input, a)).toBe(a);
    expect([...standin.objects.values()].filter((o) => o.email === 'twice@example.com')).toHaveLength(1);
  });

  it('starts a subscription waiting for the card, VAT added, and the paid invoice reaches Ferry verified', async () => {
    const started = await stripe.startSubscription(
      subscriptionInput({ frequency: 'ANNUAL', amount: 10_000 }),
    );
    expect(started).toMatchObject({
      status: 'incomplete',
      intentStatus: 'requires_payment_method',
      approveUrl: null,
    });
    expect(started.ref).toMatch(/^sub_/);
    expect(started.clientSecret).toMatch(/^pi_.+_secret_/);
    const sub = standin.get(started.ref);
    expect(sub.items.data[0].price).toMatchObject({
      currency: 'eur',
      unit_amount: 12_000,
      recurring: { interval: 'year', interval_count: 1 },
      product: 'ferry_PREMIUM',
    });
    expect(sub.metadata).toMatchObject({ ferrySubscriptionId: `ferry-sub-${userSeq}`, taxRate: '20' });
    const year = (started.currentPeriodEnd!.getTime() - started.currentPeriodStart!.getTime()) / 86_400_000;
    expect(year).toBeGreaterThanOrEqual(365);

    expect((await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.succeeds)).status).toBe(
      'succeeded',
    );
    await standin.settle();
    const [paid] = handler.of('subscription.paid', started.ref);
    expect(paid).toMatchObject({ subscriptionRef: started.ref, amountPaid: 12_000, currency: 'EUR' });
    expect(paid!.periodEnd.getTime()).toBe(started.currentPeriodEnd!.getTime());
    const delivery = standin.deliveries.find((d) => d.eventId === paid!.eventId)!;
    expect(delivery.status).toBe(200);
    expect((await processedRows(paid!.eventId))[0]?.processed_at).toBeInstanceOf(Date);
    expect(handler.of('subscription.updated', started.ref).at(-1)).toMatchObject({ status: 'active' });
    expect(await stripe.defaultCard(customer)).toEqual({
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
    });
  });

  it('a card that needs SCA answers requires_action, and the payment completes once authenticated', async () => {
    const started = await stripe.startSubscription(subscriptionInput());
    const pending = await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.requiresAuthentication);
    expect(pending.status).toBe('requires_action');
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref)).toHaveLength(0);
    expect(await stripe.paymentStatus(pending.id)).toBe('requires_action');

    expect((await standin.authenticateAsPage(started.clientSecret!, true)).status).toBe('succeeded');
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref)).toEqual([
      expect.objectContaining({ amountPaid: 1200, currency: 'EUR' }),
    ]);
  });

  it('a failed authentication leaves the payment to retry with another card', async () => {
    const started = await stripe.startSubscription(subscriptionInput());
    await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.requiresAuthentication);
    const failed = await standin.authenticateAsPage(started.clientSecret!, false);
    expect(failed).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    expect((await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.succeeds)).status).toBe(
      'succeeded',
    );
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref)).toHaveLength(1);
  });

  it('refuses a webhook with a wrong or missing signature with 400, and processes nothing', async () => {
    const before = handler.events.length;
    const event = {
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: { id: 'sub_victim', object: 'subscription' } },
    };
    const body = JSON.stringify(event);
    const url = `${ferry.baseUrl}/api/pay/webhooks/stripe`;
    const post = (headers: Record<string, string>, payload = body) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });
    const now = Math.floor(Date.now() / 1000);
    expect((await post({ 'stripe-signature': stripeSignature('whsec_wrong', body, now) })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    const signed = stripeSignature(standin.webhookSecret, body, now);
    // Signed, then changed on the way.
    expect((await post({ 'stripe-signature': signed }, body.replace('sub_victim', 'sub_other'))).status).toBe(
      400,
    );
    // Signed long ago: outside Stripe's five minutes of tolerance.
    const old = stripeSignature(standin.webhookSecret, body, now - 3600);
    expect((await post({ 'stripe-signature': old })).status).toBe(400);
    expect(handler.events.length).toBe(before);
    expect(await processedRows('evt_forged')).toHaveLength(0);

    const good = await post({ 'stripe-signature': signed });
    expect(good.status).toBe(200);
    expect(handler.of('subscription.canceled', 'sub_victim')).toHaveLength(1);
  });

  it('knows only the configured providers, and takes no body above 1 MB', async () => {
    const paypal = await fetch(`${ferry.baseUrl}/api/pay/webhooks/paypal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paypal.status).toBe(404);
    const big = JSON.stringify({ id: 'evt_big', padding: 'x'.repeat(1024 * 1024) });
    const tooLarge = await fetch(`${ferry.baseUrl}/api/pay/webhooks/stripe`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignature(standin.webhookSecret, big, Math.floor(Date.now() / 1000)),
      },
      body: big,
    });
    expect(tooLarge.status).toBe(413);
    expect(await processedRows('evt_big')).toHaveLength(0);
  });

  it('processes an event once: a replay answers 200 and does nothing; a failing handler answers 500 and the retry works', async () => {
    const started = await activeSubscription();
    const [paid] = handler.of('subscription.paid', started.ref);
    const again = await standin.redeliver(paid!.eventId);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ received: true, replay: true });
    expect(handler.of('subscription.paid', started.ref)).toHaveLength(1);

    // Two deliveries of one event at once (two instances behind a balancer): one is handled.
    standin.failNextRenewal();
    standin.renewNow(started.ref);
    await standin.settle();
    const failedEvent = standin.eventsOfType('invoice.payment_failed').at(-1);
    const count = handler.of('subscription.payment_failed', started.ref).length;
    const payload = JSON.stringify(failedEvent);
    const deliver = () =>
      fetch(`${ferry.baseUrl}/api/pay/webhooks/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripeSignature(standin.webhookSecret, payload, Math.floor(Date.now() / 1000)),
        },
        body: payload,
      });
    const both = await Promise.all([deliver(), deliver()]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(handler.of('subscription.payment_failed', started.ref)).toHaveLength(count);

    handler.failing = true;
    await stripe.setCancelAtPeriodEnd(started.ref, true);
    await standin.settle();
    const updated = standin.eventsOfType('customer.subscription.updated').at(-1);
    const failedDelivery = standin.deliveries.filter((d) => d.eventId === updated.id);
    expect(failedDelivery.map((d) => d.status)).toEqual([500]);
    expect((await processedRows(updated.id))[0]?.processed_at ?? null).toBeNull();
    // What the handler wrote before it broke went with the transaction.
    const written = () =>
      query(ferry, "SELECT 1 FROM operator_actions WHERE action = 'provider-event' AND target = $1", [
        updated.id,
      ]);
    expect(await written()).toHaveLength(0);

    handler.failing = false;
    expect((await standin.redeliver(updated.id)).status).toBe(200);
    expect(handler.events.filter((e) => e.event.eventId === updated.id)).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({ kind: 'subscription.updated', cancelAtPeriodEnd: true }),
      }),
    ]);
    expect((await processedRows(updated.id))[0]?.processed_at).toBeInstanceOf(Date);
    expect(await written()).toHaveLength(1);
  });

  it('a trial starts with a setup intent; the saved card pays the first renewal', async () => {
    const started = await stripe.startSubscription(subscriptionInput({ trialDays: 14 }));
    expect(started).toMatchObject({ status: 'trialing', intentStatus: 'requires_payment_method' });
    expect(started.clientSecret).toMatch(/^seti_.+_secret_/);
    // The stand-in's clock, moved on by the renewals of the tests before.
    const days = (started.trialEndsAt!.getTime() - standin.now() * 1000) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    expect(
      (await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.requiresAuthentication)).status,
    ).toBe('requires_action');
    expect((await standin.authenticateAsPage(started.clientSecret!, true)).status).toBe('succeeded');
    expect(await stripe.defaultCard(customer)).toMatchObject({ last4: '3155' });

    standin.advanceClock(15 * 86_400);
    await standin.settle();
    const paid = handler.of('subscription.paid', started.ref).filter((e) => e.amountPaid > 0);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ amountPaid: 1200 });
    expect(paid[0]!.periodStart.getTime()).toBe(started.trialEndsAt!.getTime());
    expect(handler.of('subscription.updated', started.ref).at(-1)).toMatchObject({ status: 'active' });
  });

  it('an upgrade is charged now, prorated; a downgrade waits for the renewal', async () => {
    const started = await activeSubscription();
    const paidBefore = handler.of('subscription.paid', started.ref).length;
    const upgraded = await stripe.changeSubscription(started.ref, {
      planCode: 'TEAM',
      amount: 3000,
      prorate: true,
    });
    expect(upgraded).toMatchObject({ status: 'active', intentStatus: 'succeeded' });
    await standin.settle();
    const proration = handler.of('subscription.paid', started.ref).slice(paidBefore);
    expect(proration).toHaveLength(1);
    // (3600 - 1200) for nearly the whole month.
    expect(proration[0]!.amountPaid).toBeGreaterThan(2300);
    expect(proration[0]!.amountPaid).toBeLessThanOrEqual(2400);
    const sub = standin.get(started.ref);
    expect(sub.items.data[0].price).toMatchObject({ unit_amount: 3600, product: 'ferry_TEAM' });
    expect(sub.metadata).toMatchObject({ planCode: 'TEAM', amount: '3000', taxRate: '20' });

    const invoicesBefore = [...standin.objects.values()].filter((o) => o.object === 'invoice').length;
    await stripe.changeSubscription(started.ref, { planCode: 'PREMIUM', amount: 1000, prorate: false });
    await standin.settle();
    expect([...standin.objects.values()].filter((o) => o.object === 'invoice')).toHaveLength(invoicesBefore);
    expect(standin.get(started.ref).items.data[0].price.unit_amount).toBe(1200);
    standin.renewNow(started.ref);
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref).at(-1)).toMatchObject({ amountPaid: 1200 });
  });

  it('a failed renewal becomes payment_failed, and retryRenewal charges it again', async () => {
    const started = await activeSubscription();
    standin.failNextRenewal();
    standin.renewNow(started.ref);
    await standin.settle();
    expect(handler.of('subscription.payment_failed', started.ref)).toEqual([
      expect.objectContaining({ intentStatus: 'requires_payment_method', clientSecret: null }),
    ]);
    expect(handler.of('subscription.updated', started.ref).at(-1)).toMatchObject({ status: 'past_due' });

    const paidBefore = handler.of('subscription.paid', started.ref).length;
    expect(await stripe.retryRenewal(started.ref)).toEqual({ status: 'succeeded', clientSecret: null });
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref)).toHaveLength(paidBefore + 1);
    expect(handler.of('subscription.updated', started.ref).at(-1)).toMatchObject({ status: 'active' });
  });

  it('a card that attaches but is declined: the first payment and the retries fail', async () => {
    const started = await stripe.startSubscription(subscriptionInput());
    const declined = await standin.confirmAsPage(started.clientSecret!, TEST_CARDS.chargeDeclined);
    expect(declined).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
    await standin.settle();
    expect(handler.of('subscription.payment_failed', started.ref)).toHaveLength(1);
    const retry = await stripe.retryRenewal(started.ref);
    expect(retry.status).toBe('requires_payment_method');
    expect(retry.clientSecret).toBe(started.clientSecret);
  });

  it('cancels at the period end, resumes, and cancels now', async () => {
    const started = await activeSubscription();
    await stripe.setCancelAtPeriodEnd(started.ref, true);
    await stripe.setCancelAtPeriodEnd(started.ref, false);
    await stripe.cancelNow(started.ref);
    await standin.settle();
    expect(
      handler
        .of('subscription.updated', started.ref)
        .map((e) => e.cancelAtPeriodEnd)
        .slice(-2),
    ).toEqual([true, false]);
    expect(handler.of('subscription.canceled', started.ref)).toHaveLength(1);
  });

  it('a one-time payment (a file sale) is confirmed by the page and reported once', async () => {
    const payment = await stripe.startPayment({
      purchaseId: 'purchase-1',
      email: 'buyer@example.com',
      total: 1500,
      currency: 'GBP',
      description: 'Ferry transfer "Holiday photos"',
    });
    expect(payment).toMatchObject({ status: 'requires_payment_method', approveUrl: null });
    expect(payment.ref).toMatch(/^pi_/);
    expect(standin.get(payment.ref)).toMatchObject({
      amount: 1500,
      currency: 'gbp',
      metadata: { ferryPurchaseId: 'purchase-1' },
    });
    await standin.confirmAsPage(payment.clientSecret!, TEST_CARDS.requiresAuthentication);
    expect(await stripe.paymentStatus(payment.ref)).toBe('requires_action');
    await standin.authenticateAsPage(payment.clientSecret!, true);
    await standin.settle();
    expect(await stripe.paymentStatus(payment.ref)).toBe('succeeded');
    expect(handler.of('payment.succeeded', payment.ref)).toHaveLength(1);
  });

  it('serves the Stripe.js stand-in to pages on other origins', async () => {
    const script = await fetch(`${standin.url}/v3/`, { headers: { origin: 'http://localhost:5173' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain('confirmCardPayment');
    // Ferry's pages may load it and reach the stand-in's API, nothing else.
    const csp = (await fetch(`${ferry.baseUrl}/api/health`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' 'wasm-unsafe-eval' ${standin.url}`);
    expect(csp).toContain(`connect-src 'self' ${standin.url}`);
    expect(csp).toContain(`frame-src ${standin.url}`);
  });
});
