import type { StartSubscriptionResponse } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import {
  advance,
  catalogue,
  choose,
  fakeStripe,
  plain,
  STRIPE_JS_URL,
  stripeCatalogue,
} from './billing.fixture';
import { forgetStripe } from './stripe';
import { SubscriptionsPage } from './subscriptions-page';

const routes = [{ path: '/account/subscriptions', element: <SubscriptionsPage /> }];

function taxRate(countryCode: string, vatNumber: string | null) {
  if (vatNumber === 'DE123456789')
    return json({ countryCode, rate: 0, reverseCharge: true, vatNumberValid: true });
  if (vatNumber) return json({ countryCode, rate: 19, reverseCharge: false, vatNumberValid: false });
  return json({
    countryCode,
    rate: countryCode === 'DE' ? 19 : 20,
    reverseCharge: false,
    vatNumberValid: null,
  });
}

const manualStart: StartSubscriptionResponse = {
  subscriptionId: 'sub_1',
  status: 'incomplete',
  invoice: {
    number: 'FRY-2030-000001',
    amountDue: 12000,
    currency: 'EUR',
    pdfUrl: '/api/pay/invoices/FRY-2030-000001/pdf',
  },
};

describe('checkout (in /account/subscriptions without a subscription)', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    forgetStripe();
    delete window.Stripe;
    for (const script of document.querySelectorAll('script[data-stripe-js]')) script.remove();
  });

  function api(routesOverride: Parameters<typeof mockApi>[0] = {}, plans = catalogue()) {
    return mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/pay/plans': () => json(plans),
      'GET /api/pay/subscriptions/current': () => json({ subscription: null }),
      'GET /api/pay/customers/u_1/payment-infos': () =>
        json({ subscription: null, defaultPaymentMethod: null }),
      'GET /api/user/locations/country': () => json({ country: 'FR' }),
      'GET /api/pay/subscriptions/tax-rates': (call) =>
        taxRate(call.query.get('countryCode') ?? '', call.query.get('vatNumber')),
      ...routesOverride,
    });
  }

  async function open(path: string) {
    view = await render(authHarness(routes, path).ui);
    await settle(10);
    return view.container;
  }

  it('MANUAL: starts the plan of the query, then shows the invoice and says the plan starts when paid', async () => {
    const mock = api({ 'POST /api/pay/subscriptions': () => json(manualStart, 201) });
    const root = await open('/account/subscriptions?plan=PREMIUM_2TB&frequency=ANNUAL&currency=EUR');
    expect(byTestId<HTMLSelectElement>(root, 'checkout-plan').value).toBe('PREMIUM_2TB');
    expect(byTestId<HTMLInputElement>(root, 'frequency-ANNUAL').checked).toBe(true);
    expect(plain(byTestId(root, 'summary-price').textContent)).toBe('€150.00');
    expect(plain(byTestId(root, 'summary-vat').textContent)).toBe('€30.00 (20 %)');
    expect(plain(byTestId(root, 'summary-total').textContent)).toBe('€180.00');
    await typeInto(byTestId(root, 'checkout-company'), 'Ada Ltd');
    await click(byTestId(root, 'checkout-submit'));
    await settle(5);
    expect(mock.to('POST /api/pay/subscriptions')[0]?.body).toEqual({
      planCode: 'PREMIUM_2TB',
      frequency: 'ANNUAL',
      provider: 'MANUAL',
      countryCode: 'FR',
      currency: 'EUR',
      companyName: 'Ada Ltd',
    });
    expect(plain(byTestId(root, 'checkout-invoice').textContent)).toContain('Amount due: €120.00');
    expect(byTestId(root, 'checkout-invoice-pdf').getAttribute('href')).toBe(
      '/api/pay/invoices/FRY-2030-000001/pdf',
    );
    expect(byTestId(root, 'checkout-starts-when-paid').textContent).toBe(
      'Your plan starts when the payment is received.',
    );
    // Stripe.js is only loaded when STRIPE is offered.
    expect(document.querySelector('script[data-stripe-js]')).toBeNull();
  });

  it('asks the tax rate for the VAT number typed: not valid, then reverse charge', async () => {
    const mock = api({ 'POST /api/pay/subscriptions': () => json(manualStart, 201) });
    const root = await open('/account/subscriptions?plan=PREMIUM');
    await choose(byTestId(root, 'checkout-country'), 'DE');
    await settle(5);
    expect(plain(byTestId(root, 'summary-vat').textContent)).toBe('€1.90 (19 %)');
    await typeInto(byTestId(root, 'checkout-vat-number'), 'DE 999');
    await until(
      () => root.textContent?.includes('This VAT number is not valid') === true,
      'the invalid message',
    );
    expect(byTestId(root, 'checkout-vat-number').getAttribute('aria-invalid')).toBe('true');
    await click(byTestId(root, 'checkout-submit'));
    expect(mock.to('POST /api/pay/subscriptions')).toHaveLength(0);

    await typeInto(byTestId(root, 'checkout-vat-number'), 'DE 123.456.789');
    await until(() => byTestId(root, 'summary-vat').textContent === 'Reverse charge (0 %)', 'reverse charge');
    expect(mock.to('GET /api/pay/subscriptions/tax-rates').at(-1)?.query.get('vatNumber')).toBe(
      'DE123456789',
    );
    expect(plain(byTestId(root, 'summary-total').textContent)).toBe('€10.00');
    await click(byTestId(root, 'checkout-submit'));
    await settle(5);
    expect(mock.to('POST /api/pay/subscriptions')[0]?.body).toMatchObject({
      countryCode: 'DE',
      vatNumber: 'DE123456789',
    });
  });

  it('shows an API refusal in the user language', async () => {
    api({ 'POST /api/pay/subscriptions': () => coded(400, 'PAYMENT_PROVIDER_NOT_AVAILABLE') });
    const root = await open('/account/subscriptions?plan=PREMIUM');
    await click(byTestId(root, 'checkout-submit'));
    await settle(5);
    expect(byTestId(root, 'checkout-error').textContent).toBe('This payment method is not available here.');
  });

  it('STRIPE: loads Stripe.js from the catalogue address with a script tag', async () => {
    // The test browser runs no downloaded script: keep the tag the page adds, and play its load.
    const added: Node[] = [];
    vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T) => {
      added.push(node);
      return node;
    });
    api({}, stripeCatalogue());
    const root = await open('/account/subscriptions?plan=PREMIUM');
    const script = added.find((node): node is HTMLScriptElement => node instanceof HTMLScriptElement);
    expect(script?.src).toBe(STRIPE_JS_URL);
    const stand = fakeStripe();
    script?.dispatchEvent(new Event('load'));
    await settle(3);
    expect(stand.factory).toHaveBeenCalledWith('pk_test_123');
    expect(stand.card.mount).toHaveBeenCalledWith(byTestId(root, 'card-element'));
    // Leaving card payment destroys the card element.
    await click(byTestId(root, 'provider-MANUAL'));
    expect(stand.card.destroy).toHaveBeenCalled();
  });

  it('STRIPE: confirms the card payment, then polls the session every 2 s until the plan is there', async () => {
    const stand = fakeStripe();
    let plan: 'NONE' | 'PREMIUM' = 'NONE';
    const mock = api(
      {
        'GET /api/auth/me': () => json(signedInState({ planType: plan })),
        'POST /api/pay/subscriptions': () =>
          json(
            { subscriptionId: 'sub_1', status: 'incomplete', invoice: null, clientSecret: 'pi_1_secret_1' },
            201,
          ),
      },
      stripeCatalogue(),
    );
    const root = await open('/account/subscriptions?plan=PREMIUM&frequency=MONTHLY');
    await click(byTestId(root, 'checkout-submit'));
    expect(byTestId(root, 'card-error').textContent).toBe(
      "Enter your card's number, expiry date and security code.",
    );
    await stand.change({ complete: true });
    await settle(2);

    vi.useFakeTimers();
    await click(byTestId(root, 'checkout-submit'));
    await advance(0);
    expect(stand.stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_1', {
      payment_method: { card: stand.card, billing_details: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(stand.stripe.confirmCardSetup).not.toHaveBeenCalled();
    byTestId(root, 'checkout-activating');
    const polls = () => mock.to('GET /api/auth/me').length;
    const before = polls();
    await advance(1999);
    expect(polls()).toBe(before);
    await advance(1);
    expect(polls()).toBe(before + 1);
    plan = 'PREMIUM';
    await advance(2000);
    await advance(0);
    expect(byTestId(root, 'checkout-success').textContent).toBe('Your plan is active. Thank you!');
    const done = polls();
    await advance(10_000);
    expect(polls()).toBe(done);
  });

  it('STRIPE trial: confirms a card setup, shows a card refusal, and a new try confirms the same start', async () => {
    const stand = fakeStripe({ error: { message: 'Your card was declined.' } });
    const mock = api(
      {
        'POST /api/pay/subscriptions': () =>
          json(
            { subscriptionId: 'sub_1', status: 'trialing', invoice: null, clientSecret: 'seti_1_secret_1' },
            201,
          ),
      },
      stripeCatalogue(),
    );
    const root = await open('/account/subscriptions?plan=TEAM10&trial=true');
    expect(byTestId<HTMLInputElement>(root, 'checkout-trial').checked).toBe(true);
    expect(byTestId(root, 'summary-trial').textContent).toBe('Free for 14 days, then the total above');
    await stand.change({ complete: true });
    await settle(2);
    await click(byTestId(root, 'checkout-submit'));
    await settle(5);
    expect(stand.stripe.confirmCardSetup).toHaveBeenCalledWith('seti_1_secret_1', {
      payment_method: { card: stand.card },
    });
    expect(byTestId(root, 'card-error').textContent).toBe('Your card was declined.');
    stand.stripe.confirmCardSetup.mockResolvedValue({ setupIntent: { status: 'succeeded' } });
    await click(byTestId(root, 'checkout-submit'));
    await settle(5);
    expect(mock.to('POST /api/pay/subscriptions')).toHaveLength(1);
    expect(stand.stripe.confirmCardSetup).toHaveBeenCalledTimes(2);
    byTestId(root, 'checkout-activating');
  });

  it('PAYPAL: goes to the approval page', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    api(
      {
        'POST /api/pay/subscriptions': () =>
          json(
            {
              subscriptionId: 'sub_1',
              status: 'incomplete',
              invoice: null,
              approveUrl: 'https://paypal.test/ok',
            },
            201,
          ),
      },
      catalogue({ providers: ['PAYPAL', 'MANUAL'], paypalClientId: 'client' }),
    );
    const root = await open('/account/subscriptions?plan=PREMIUM');
    await click(byTestId(root, 'provider-PAYPAL'));
    await click(byTestId(root, 'checkout-submit'));
    await settle(5);
    expect(assign).toHaveBeenCalledWith('https://paypal.test/ok');
  });
});
