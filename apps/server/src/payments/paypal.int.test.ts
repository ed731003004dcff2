import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { PayPalStandin } from '../test/paypal-standin.js';
import { createCardProviders } from './card-providers.js';
import type { PayPalProvider } from './paypal.js';
import type { ProviderEvent, ProviderSubscriptionInput } from './provider.js';
import type { CardProviderName, ProviderEventHandler } from './provider-events.js';

class RecordingHandler implements ProviderEventHandler {
  events: { provider: CardProviderName; event: ProviderEvent }[] = [];
  async handle(provider: CardProviderName, event: ProviderEvent): Promise<void> {
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

let standin: PayPalStandin;
let ferry: TestFerry;
let paypal: PayPalProvider;
const handler = new RecordingHandler();
let seq = 0;

beforeAll(async () => {
  standin = await PayPalStandin.start();
  ferry = await startTestFerry({
    env: { ...standin.env(), PUBLIC_URL: 'https://ferry.example.com' },
    overrides: { providerEvents: handler },
  });
  standin.webhookUrl = `${ferry.baseUrl}/api/pay/webhooks/paypal`;
  paypal = createCardProviders(ferry.config.billing, pino({ level: 'silent' }), {
    publicOrigin: ferry.config.publicUrl,
  }).PAYPAL as PayPalProvider;
});

afterAll(async () => {
  await standin?.close();
  await ferry?.close();
});

const input = (over: Partial<ProviderSubscriptionInput> = {}): ProviderSubscriptionInput => ({
  subscriptionId: `ferry-sub-${++seq}`,
  customerRef: `ferry:user-${seq}`,
  planCode: 'PREMIUM',
  frequency: 'ANNUAL',
  currency: 'EUR',
  amount: 10_000,
  taxRate: 20,
  trialDays: 0,
  description: 'Ferry PREMIUM, annual',
  ...over,
});

const webhook = (body: string, headers: Record<string, string>) =>
  fetch(`${ferry.baseUrl}/api/pay/webhooks/paypal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('PayPal over its REST API, against the stand-in', () => {
  it('starts a subscription with an approve link; approval and the first payment reach Ferry verified', async () => {
    const started = await paypal.startSubscription(input());
    expect(started).toMatchObject({
      status: 'incomplete',
      intentStatus: 'requires_action',
      clientSecret: null,
    });
    expect(started.approveUrl).toContain(`ba_token=BA-${started.ref}`);
    const sub = standin.subscriptions.get(started.ref);
    expect(sub.custom_id).toBe(`ferry-sub-${seq}`);
    expect(standin.cycleAmount(sub)).toBe(12_000);
    expect(standin.plans.get(sub.plan_id)).toMatchObject({
      name: 'Ferry PREMIUM ANNUAL EUR',
      billing_cycles: [expect.objectContaining({ frequency: { interval_unit: 'YEAR', interval_count: 1 } })],
    });

    standin.approveSubscription(started.ref);
    await standin.settle();
    expect(handler.of('subscription.updated', started.ref)).toEqual([
      expect.objectContaining({ status: 'active', cancelAtPeriodEnd: false }),
    ]);
    const [paid] = handler.of('subscription.paid', started.ref);
    expect(paid).toMatchObject({ amountPaid: 12_000, currency: 'EUR' });
    const days = (paid!.periodEnd.getTime() - paid!.periodStart.getTime()) / 86_400_000;
    expect(days).toBeGreaterThan(364.9);
    expect(standin.deliveries.filter((d) => d.status !== 200)).toEqual([]);
    const rows = await query(ferry, "SELECT processed_at FROM provider_events WHERE provider = 'PAYPAL'");
    expect(rows.length).toBe(standin.events.length);
    expect(await paypal.defaultCard()).toBeNull();
  });

  it('makes each product and plan once, and keeps its access token', async () => {
    // Ferry's own instance and this test's each asked once, in the test before.
    const tokens = standin.tokenRequests;
    const a = await paypal.startSubscription(input({ currency: 'USD', frequency: 'MONTHLY' }));
    const b = await paypal.startSubscription(input({ currency: 'USD', frequency: 'MONTHLY', amount: 500 }));
    expect(standin.subscriptions.get(a.ref).plan_id).toBe(standin.subscriptions.get(b.ref).plan_id);
    expect(standin.cycleAmount(standin.subscriptions.get(b.ref))).toBe(600);
    expect([...standin.products.keys()]).toEqual(['FERRY-PREMIUM']);
    expect(standin.tokenRequests).toBe(tokens);

    // A new process finds the same plan by its name instead of making another.
    const again = createCardProviders(ferry.config.billing, pino({ level: 'silent' })).PAYPAL!;
    const c = await again.startSubscription(input({ currency: 'USD', frequency: 'MONTHLY' }));
    expect(standin.subscriptions.get(c.ref).plan_id).toBe(standin.subscriptions.get(a.ref).plan_id);
    expect([...standin.plans.values()].filter((p) => p.name === 'Ferry PREMIUM MONTHLY USD')).toHaveLength(1);
  });

  it('a trial is activated as paid with nothing charged until it ends', async () => {
    const started = await paypal.startSubscription(input({ trialDays: 14 }));
    expect(started.trialEndsAt).toBeInstanceOf(Date);
    standin.approveSubscription(started.ref);
    await standin.settle();
    const [trial] = handler.of('subscription.paid', started.ref);
    expect(trial).toMatchObject({ amountPaid: 0, currency: 'EUR', paymentRef: `${started.ref}:trial` });
    expect(Math.round((trial!.periodEnd.getTime() - trial!.periodStart.getTime()) / 86_400_000)).toBe(14);
    standin.renewNow(started.ref);
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref).at(-1)).toMatchObject({ amountPaid: 12_000 });
  });

  it('refuses a tampered body, a certificate outside the trusted prefix, and a missing signature', async () => {
    const started = await paypal.startSubscription(input());
    const event = {
      id: 'WH-FORGED-1',
      event_type: 'BILLING.SUBSCRIPTION.CANCELLED',
      resource_type: 'subscription',
      resource: { id: started.ref, status: 'CANCELLED' },
    };
    const body = JSON.stringify(event);
    const before = handler.events.length;
    const signed = standin.signatureHeaders(body);
    expect((await webhook(body.replace('CANCELLED"', 'CANCELLED" '), signed)).status).toBe(400);
    expect((await webhook(body, standin.signatureHeaders(body, standin.untrustedCertUrl))).status).toBe(400);
    expect((await webhook(body, {})).status).toBe(400);
    expect((await webhook(body, { ...signed, 'paypal-auth-algo': 'SHA1withRSA' })).status).toBe(400);
    expect((await webhook(body, { ...signed, 'paypal-transmission-id': 'other' })).status).toBe(400);
    expect(handler.events.length).toBe(before);
    expect(await query(ferry, "SELECT 1 FROM provider_events WHERE event_id = 'WH-FORGED-1'")).toHaveLength(
      0,
    );

    const good = await webhook(body, signed);
    expect(good.status).toBe(200);
    expect(handler.of('subscription.canceled', started.ref)).toHaveLength(1);
    const replay = await webhook(body, standin.signatureHeaders(body));
    expect(await replay.json()).toEqual({ received: true, replay: true });
    expect(handler.of('subscription.canceled', started.ref)).toHaveLength(1);
  });

  it('a failed renewal is reported, and retryRenewal captures the outstanding balance', async () => {
    const started = await paypal.startSubscription(input({ frequency: 'MONTHLY', amount: 1000 }));
    standin.approveSubscription(started.ref);
    standin.failNextRenewal();
    standin.renewNow(started.ref);
    await standin.settle();
    expect(handler.of('subscription.payment_failed', started.ref)).toEqual([
      expect.objectContaining({ intentStatus: 'requires_payment_method', clientSecret: null }),
    ]);
    const paidBefore = handler.of('subscription.paid', started.ref).length;
    expect(await paypal.retryRenewal(started.ref)).toEqual({ status: 'succeeded', clientSecret: null });
    await standin.settle();
    expect(handler.of('subscription.paid', started.ref)).toHaveLength(paidBefore + 1);
    expect(handler.of('subscription.paid', started.ref).at(-1)).toMatchObject({ amountPaid: 1200 });
    expect(await paypal.retryRenewal(started.ref)).toEqual({ status: 'succeeded', clientSecret: null });
  });

  it('changes the plan by a revision (approved on PayPal when dearer), and ends it at the period end or now', async () => {
    const started = await paypal.startSubscription(input({ frequency: 'MONTHLY', amount: 1000 }));
    standin.approveSubscription(started.ref);
    const up = await paypal.changeSubscription(started.ref, {
      planCode: 'TEAM',
      amount: 3000,
      prorate: true,
    });
    expect(up.intentStatus).toBe('requires_action');
    expect(up.approveUrl).toContain('update');
    const sub = standin.subscriptions.get(started.ref);
    expect(standin.plans.get(sub.plan_id).name).toBe('Ferry TEAM MONTHLY EUR');
    expect(standin.cycleAmount(sub)).toBe(3600);
    const down = await paypal.changeSubscription(started.ref, {
      planCode: 'PREMIUM',
      amount: 1000,
      prorate: false,
    });
    expect(down).toMatchObject({ intentStatus: 'succeeded', approveUrl: null });

    await paypal.setCancelAtPeriodEnd(started.ref, true);
    await standin.settle();
    expect(handler.of('subscription.updated', started.ref).at(-1)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    });
    await paypal.setCancelAtPeriodEnd(started.ref, false);
    await paypal.cancelNow(started.ref);
    await paypal.cancelNow(started.ref);
    await standin.settle();
    expect(handler.of('subscription.updated', started.ref).at(-1)).toMatchObject({
      cancelAtPeriodEnd: false,
    });
    expect(handler.of('subscription.canceled', started.ref)).toHaveLength(1);
  });

  it('a one-time payment is an order: approve link, captured once whether the buyer or the webhook is first', async () => {
    const payment = await paypal.startPayment({
      purchaseId: 'purchase-9',
      email: 'buyer@example.com',
      total: 1250,
      currency: 'EUR',
      description: 'Ferry transfer',
    });
    expect(payment).toMatchObject({ status: 'requires_action', clientSecret: null });
    expect(payment.approveUrl).toContain(`token=${payment.ref}`);
    expect(standin.orders.get(payment.ref).purchase_units[0]).toMatchObject({
      custom_id: 'purchase-9',
      amount: { currency_code: 'EUR', value: '12.50' },
    });
    expect(await paypal.paymentStatus(payment.ref)).toBe('requires_action');

    standin.approveOrder(payment.ref);
    // The buyer is back before the webhook: the page's status call captures.
    expect(await paypal.paymentStatus(payment.ref)).toBe('succeeded');
    await standin.settle();
    expect(standin.eventsOfType('PAYMENT.CAPTURE.COMPLETED')).toHaveLength(1);
    expect(handler.of('payment.succeeded', payment.ref).length).toBeGreaterThanOrEqual(1);
    expect(standin.deliveries.filter((d) => d.status !== 200)).toEqual([]);
  });
});
