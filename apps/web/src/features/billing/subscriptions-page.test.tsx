import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { catalogue, choose, paymentInfos, plain, subscription } from './billing.fixture';
import { forgetStripe } from './stripe';
import { SubscriptionsPage } from './subscriptions-page';

const routes = [{ path: '/account/subscriptions', element: <SubscriptionsPage /> }];

describe('/account/subscriptions with a subscription', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    forgetStripe();
  });

  function api(extra: Parameters<typeof mockApi>[0] = {}) {
    return mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'PREMIUM', payingUser: true })),
      'GET /api/pay/plans': () => json(catalogue({ providers: ['MANUAL'] })),
      'GET /api/pay/subscriptions/current': () =>
        json({ subscription: subscription({ provider: 'MANUAL', intentStatus: null }) }),
      'GET /api/pay/customers/u_1/payment-infos': () =>
        json(paymentInfos({ provider: 'MANUAL', intentStatus: null }, { exp_month: 8, exp_year: 2031 })),
      ...extra,
    });
  }

  async function open() {
    view = await render(authHarness(routes, '/account/subscriptions').ui);
    await settle(10);
    return view.container;
  }

  it('shows the plan, status, period end, price with VAT and the card on file', async () => {
    api();
    const root = await open();
    expect(byTestId(root, 'subscription-plan').textContent).toBe('Premium');
    expect(byTestId(root, 'subscription-status').textContent).toBe('Active');
    expect(byTestId(root, 'subscription-period-end').textContent).toBe('January 1, 2031');
    expect(plain(byTestId(root, 'subscription-price').textContent)).toBe(
      '€100.00 excl. VAT, €120.00 incl. 20 % VAT',
    );
    expect(byTestId(root, 'subscription-card').textContent).toBe('visa ending in 4242, expires 08/2031');
  });

  it('changes the plan, shows the prorated charge, and polls until the session has the new plan', async () => {
    let plan = 'PREMIUM';
    const mock = api({
      'GET /api/auth/me': () => json(signedInState({ planType: plan as 'PREMIUM', payingUser: true })),
      'PATCH /api/pay/subscriptions/sub_1': () => {
        plan = 'TEAM';
        return json({
          subscription: subscription({
            planCode: 'TEAM10',
            planType: 'TEAM',
            provider: 'MANUAL',
            amount: 50000,
          }),
          invoice: { number: 'FRY-2030-000002', amountDue: 33000, currency: 'EUR', pdfUrl: '/api/pay/x.pdf' },
        });
      },
    });
    const root = await open();
    expect(byTestId<HTMLButtonElement>(root, 'change-submit').disabled).toBe(true);
    await choose(byTestId(root, 'change-plan'), 'TEAM10');
    await click(byTestId(root, 'change-submit'));
    await settle(8);
    expect(mock.to('PATCH /api/pay/subscriptions/sub_1')[0]?.body).toEqual({ planCode: 'TEAM10' });
    expect(plain(byTestId(root, 'change-charged').textContent)).toContain(
      'Charged now: €330.00 (invoice FRY-2030-000002).',
    );
    expect(byTestId(root, 'subscription-plan').textContent).toBe('Team 10');
    expect(byTestId(root, 'plan-changed').textContent).toBe('Your new plan is active.');
  });

  it('cancels at the period end after a confirmation, then resumes', async () => {
    const mock = api({
      'POST /api/pay/subscriptions/sub_1/cancel': () =>
        json({ subscription: subscription({ provider: 'MANUAL', cancelAtPeriodEnd: true }) }),
      'POST /api/pay/subscriptions/sub_1/resume': () =>
        json({ subscription: subscription({ provider: 'MANUAL', cancelAtPeriodEnd: false }) }),
    });
    const root = await open();
    await click(byTestId(root, 'subscription-cancel-button'));
    expect(byTestId(root, 'cancel-confirm').textContent).toContain('Your plan stays until January 1, 2031');
    expect(document.activeElement).toBe(byTestId(root, 'cancel-keep'));
    await click(byTestId(root, 'cancel-keep'));
    expect(mock.to('POST /api/pay/subscriptions/sub_1/cancel')).toHaveLength(0);

    await click(byTestId(root, 'subscription-cancel-button'));
    await click(byTestId(root, 'cancel-confirm-button'));
    await settle(5);
    expect(mock.to('POST /api/pay/subscriptions/sub_1/cancel')).toHaveLength(1);
    expect(byTestId(root, 'subscription-status').textContent).toBe('Ends at the end of the period');
    await click(byTestId(root, 'subscription-resume'));
    await settle(5);
    expect(mock.to('POST /api/pay/subscriptions/sub_1/resume')).toHaveLength(1);
    expect(byTestId(root, 'subscription-status').textContent).toBe('Active');
  });

  it('shows a team member without BILLING who manages billing, and asks nothing about payments', async () => {
    const mock = mockApi({
      'GET /api/auth/me': () =>
        json(
          signedInState({
            planType: 'TEAM',
            managerId: 'm_1',
            authorization: { managerId: 'm_1', permissions: ['TRANSFER_MANAGER'] },
          }),
        ),
      'GET /api/user/users/m_1': () =>
        json(userProfile({ uid: 'm_1', email: 'bob@example.com', info: { firstname: 'Bob' } })),
    });
    const root = await open();
    expect(byTestId(root, 'billing-managed-by').textContent).toBe(
      'Billing is managed by Bob (bob@example.com).',
    );
    expect(mock.calls.filter((c) => c.path.startsWith('/api/pay/'))).toHaveLength(0);
  });

  it('starts checkout with the plan chosen at sign-up when there is no subscription', async () => {
    api({
      'GET /api/auth/me': () =>
        json(signedInState({ chosenPlan: { type: 'TEAM25', frequency: 'BIANNUAL', trial: false } })),
      'GET /api/pay/subscriptions/current': () => json({ subscription: null }),
      'GET /api/pay/customers/u_1/payment-infos': () => json(paymentInfos(null, null)),
      'GET /api/user/locations/country': () => json({ country: 'FR' }),
      'GET /api/pay/subscriptions/tax-rates': () =>
        json({ countryCode: 'FR', rate: 20, reverseCharge: false, vatNumberValid: null }),
    });
    const root = await open();
    expect(byTestId<HTMLSelectElement>(root, 'checkout-plan').value).toBe('TEAM25');
    expect(byTestId<HTMLInputElement>(root, 'frequency-BIANNUAL').checked).toBe(true);
  });
});
