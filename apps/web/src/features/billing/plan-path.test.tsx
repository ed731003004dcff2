import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { type Rendered, render, settle } from '../../test/render';
import { RegisterPage } from '../auth/register-page';
import { SignInPage } from '../auth/signin-page';
import { VerifyEmailPage } from '../auth/verify-email-page';
import { afterSignInPath } from './plan-labels';

const routes = [
  { path: '/register', element: <RegisterPage /> },
  { path: '/signin', element: <SignInPage /> },
  { path: '/verify-email', element: <VerifyEmailPage /> },
  { path: '/account/subscriptions', element: <p data-testid="at-checkout">checkout</p> },
  { path: '/account/profile', element: <p>profile</p> },
];
const ID_TOKEN = { idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' };
const chosen = { type: 'PREMIUM' as const, frequency: 'ANNUAL' as const, trial: true };

describe('the way from /register?type=… to checkout', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('afterSignInPath: the plan chosen at sign-up, while the account has no plan and no page was asked', () => {
    const state = { planType: 'NONE', chosenPlan: chosen };
    expect(afterSignInPath('/', state)).toBe(
      '/account/subscriptions?plan=PREMIUM&frequency=ANNUAL&trial=true',
    );
    expect(afterSignInPath('/dashboard', state)).toBe('/dashboard');
    expect(afterSignInPath('/', { planType: 'PREMIUM', chosenPlan: chosen })).toBe('/');
    expect(afterSignInPath('/', { planType: 'NONE', chosenPlan: null })).toBe('/');
  });

  it('confirming the address leads to checkout with the plan chosen', async () => {
    mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState({ chosenPlan: chosen }))],
      'POST /api/auth/verify-email': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/verify-email?token=tok').ui);
    await settle(8);
    expect(locationOf(view.container)).toBe(
      '/account/subscriptions?plan=PREMIUM&frequency=ANNUAL&trial=true',
    );
  });

  it('signing in later leads there too; a signed-in user on /register?type=… goes straight to checkout', async () => {
    mockApi({ 'GET /api/auth/me': () => json(signedInState({ chosenPlan: { type: 'TEAM10' } })) });
    view = await render(authHarness(routes, '/signin').ui);
    await settle(5);
    expect(locationOf(view.container)).toBe('/account/subscriptions?plan=TEAM10');
    await view.unmount();

    mockApi({ 'GET /api/auth/me': () => json(signedInState()) });
    view = await render(authHarness(routes, '/register?type=PREMIUM_10TB&frequency=MONTHLY').ui);
    await settle(5);
    expect(locationOf(view.container)).toBe('/account/subscriptions?plan=PREMIUM_10TB&frequency=MONTHLY');
  });
});
