import type { PaymentInfos } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, until } from '../../test/render';
import { advance, fakeStripe, paymentInfos, plain, stripeCatalogue } from './billing.fixture';
import { BillingNotices } from './billing-notices';
import { BillingNoticesSlot } from './billing-notices-slot';
import { forgetStripe } from './stripe';

/** The user's calendar: 15 March 2027. */
const now = () => new Date(2027, 2, 15, 12, 0);
const routes = [{ path: '/dashboard', element: <BillingNotices now={now} /> }];

describe('billing notices (spec §4 billing state, app-wide)', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    forgetStripe();
    delete window.Stripe;
  });

  function api(infos: PaymentInfos | (() => PaymentInfos), state = signedInState({ planType: 'PREMIUM' })) {
    return mockApi({
      'GET /api/auth/me': () => json(state),
      'GET /api/pay/customers/u_1/payment-infos': () => json(typeof infos === 'function' ? infos() : infos),
      'GET /api/pay/plans': () => json(stripeCatalogue()),
    });
  }

  async function open(path = '/dashboard') {
    view = await render(authHarness(routes, path).ui);
    await settle(8);
    return view.container;
  }

  it('flags an expired card and a card about to expire, with the way to a new payment method', async () => {
    api(paymentInfos({}, { exp_month: 2, exp_year: 2027 }));
    let root = await open();
    expect(byTestId(root, 'billing-notice').dataset.kind).toBe('card_expired');
    expect(byTestId(root, 'billing-notice').textContent).toContain(
      'Your card ending in 4242 expired (02/2027).',
    );
    expect(byTestId(root, 'billing-notice-manage').getAttribute('href')).toBe('/account/subscriptions');
    await view.unmount();

    api(paymentInfos({ intentStatus: 'processing' }, { exp_month: 3, exp_year: 2027 }));
    root = await open();
    expect(byTestId(root, 'billing-notice').dataset.kind).toBe('card_about_to_expire');
    await view.unmount();

    api(paymentInfos({}, { exp_month: 4, exp_year: 2027 }));
    root = await open();
    expect(root.querySelector('[data-testid="billing-notice"]')).toBeNull();
  });

  it('confirms a payment that requires action with its client secret, through Stripe.js', async () => {
    const stand = fakeStripe();
    let infos = paymentInfos({ intentStatus: 'requires_action', failedIntentClientSecret: 'pi_9_secret_9' });
    const mock = api(() => infos);
    const root = await open();
    expect(byTestId(root, 'billing-notice').dataset.kind).toBe('action_required');
    infos = paymentInfos();
    await click(byTestId(root, 'billing-confirm-payment'));
    await settle(8);
    expect(stand.factory).toHaveBeenCalledWith('pk_test_123');
    expect(stand.stripe.confirmCardPayment).toHaveBeenCalledWith('pi_9_secret_9');
    expect(mock.to('GET /api/pay/customers/u_1/payment-infos')).toHaveLength(2);
    expect(root.querySelector('[data-testid="billing-notice"]')).toBeNull();
  });

  it('asks for a payment method on a failed payment', async () => {
    api(paymentInfos({ intentStatus: 'requires_payment_method', status: 'past_due' }));
    const root = await open();
    expect(byTestId(root, 'billing-notice').textContent).toContain('Your last payment failed.');
  });

  it('opens the due-amount dialog while open invoices are above 0', async () => {
    api(paymentInfos({ provider: 'MANUAL', intentStatus: null, openedInvoicesAmount: 12000 }, null));
    const root = await open();
    const dialog = byTestId(root, 'billing-due-dialog');
    expect(plain(dialog.textContent)).toContain('Your open invoices come to €120.00.');
    expect(byTestId(root, 'billing-due-invoices').getAttribute('href')).toBe('/account/invoices');
    await click(byTestId(root, 'billing-due-later'));
    expect(root.querySelector('[data-testid="billing-due-dialog"]')).toBeNull();
  });

  it('shows nothing and asks nothing for a team member without BILLING', async () => {
    const mock = api(
      paymentInfos({ openedInvoicesAmount: 500 }),
      signedInState({
        managerId: 'm_1',
        authorization: { managerId: 'm_1', permissions: ['TRANSFER_MANAGER'] },
      }),
    );
    const root = await open();
    expect(root.querySelector('[data-testid="billing-due-dialog"]')).toBeNull();
    expect(mock.calls.filter((c) => c.path.startsWith('/api/pay/'))).toHaveLength(0);
  });

  it('asks a member with BILLING for the payment infos of the manager', async () => {
    const mock = mockApi({
      'GET /api/auth/me': () =>
        json(
          signedInState({
            planType: 'TEAM',
            managerId: 'm_1',
            authorization: { managerId: 'm_1', permissions: ['BILLING'] },
          }),
        ),
      'GET /api/pay/customers/m_1/payment-infos': () =>
        json(paymentInfos({ planType: 'TEAM', planCode: 'TEAM10', openedInvoicesAmount: 500 })),
    });
    const root = await open();
    expect(mock.to('GET /api/pay/customers/m_1/payment-infos')).toHaveLength(1);
    byTestId(root, 'billing-due-dialog');
  });

  it('plan mismatch: refreshes the session up to 5 times, waiting 1 s times the attempt', async () => {
    vi.useFakeTimers();
    const mock = api(paymentInfos({ planType: 'TEAM', planCode: 'TEAM10' }));
    view = await render(authHarness(routes, '/dashboard').ui);
    await advance(0);
    await advance(0);
    const refreshes = () => mock.to('GET /api/auth/me').length - 1;
    expect(refreshes()).toBe(0);
    const expected = [
      [999, 0],
      [1, 1],
      [1999, 1],
      [1, 2],
      [3000, 3],
      [4000, 4],
      [4999, 4],
      [1, 5],
      [60_000, 5],
    ] as const;
    for (const [ms, count] of expected) {
      await advance(ms);
      expect(refreshes(), `after ${ms} ms more`).toBe(count);
    }
  });

  it('plan mismatch: stops as soon as the session has the subscription plan', async () => {
    vi.useFakeTimers();
    let plan: 'PREMIUM' | 'TEAM' = 'PREMIUM';
    const mock = mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: plan })),
      'GET /api/pay/customers/u_1/payment-infos': () =>
        json(paymentInfos({ planType: 'TEAM', planCode: 'TEAM10' })),
    });
    view = await render(authHarness(routes, '/dashboard').ui);
    await advance(0);
    await advance(0);
    await advance(1000);
    plan = 'TEAM';
    await advance(2000);
    expect(mock.to('GET /api/auth/me')).toHaveLength(3);
    await advance(60_000);
    expect(mock.to('GET /api/auth/me')).toHaveLength(3);
  });

  it('in the layout, loads for a user with BILLING only', async () => {
    const slotRoutes = [{ path: '/dashboard', element: <BillingNoticesSlot /> }];
    let mock = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(slotRoutes, '/dashboard').ui);
    await settle(5);
    expect(mock.calls.filter((c) => c.path.startsWith('/api/pay/'))).toHaveLength(0);
    await view.unmount();

    mock = api(paymentInfos({}, { exp_month: 1, exp_year: 2020 }));
    view = await render(authHarness(slotRoutes, '/dashboard').ui);
    await until(() => view.container.querySelector('[data-testid="billing-notice"]') !== null, 'the notice');
    expect(mock.to('GET /api/pay/customers/u_1/payment-infos')).toHaveLength(1);
  });

  it('no subscription but a paying session plan: refreshes the session once', async () => {
    const mock = api(paymentInfos(null, null));
    await open();
    await settle(5);
    expect(mock.to('GET /api/auth/me')).toHaveLength(2);
  });
});
