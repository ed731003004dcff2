import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { VerifyEmailPage } from './verify-email-page';

const ID_TOKEN = { idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' };
const routes = [
  { path: '/verify-email', element: <VerifyEmailPage /> },
  { path: '/dashboard', element: <p data-testid="dashboard">dashboard</p> },
];

describe('verify-email page', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('verifies once (even in StrictMode), signs in, and goes to next', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/verify-email': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    const { ui } = authHarness(routes, '/verify-email?token=tok-1&next=%2Fdashboard');
    view = await render(<StrictMode>{ui}</StrictMode>);
    await settle(8);
    expect(api.to('POST /api/auth/verify-email')).toHaveLength(1);
    expect(api.to('POST /api/auth/verify-email')[0]?.body).toEqual({ token: 'tok-1' });
    expect(api.to('GET /api/auth/auth/session-cookie')).toHaveLength(1);
    expect(api.to('GET /api/auth/auth/session-cookie')[0]?.query.get('expiresInMinutes')).toBe('1440');
    expect(locationOf(view.container)).toBe('/dashboard');
    expect(view.container.textContent).toContain('Your e-mail address is confirmed. Welcome!');
    expect(byTestId(view.container, 'user-menu-email').textContent).toBe('ada@example.com');
  });

  it('goes home without a next', async () => {
    mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/verify-email': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/verify-email?token=tok-2').ui);
    await settle(8);
    expect(locationOf(view.container)).toBe('/');
  });

  it('says a used or expired link does not work, with a way to sign in', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/verify-email': () => coded(401, 'INVALID_TOKEN'),
    });
    view = await render(authHarness(routes, '/verify-email?token=used').ui);
    await settle();
    expect(byTestId(view.container, 'page-verify-email').dataset.state).toBe('failed');
    expect(byTestId(view.container, 'verify-error').textContent).toContain('already used, has expired');
    expect(byTestId(view.container, 'verify-signin').getAttribute('href')).toBe('/signin');
    expect(view.container.querySelector('[data-testid="verify-retry"]')).toBeNull();
  });

  it('does not call the server for a link without a token', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/verify-email').ui);
    await settle();
    expect(byTestId(view.container, 'verify-error').dataset.problem).toBe('invalid_token');
    expect(api.to('POST /api/auth/verify-email')).toHaveLength(0);
  });

  it('offers to try again after a network failure, with the same link', async () => {
    let calls = 0;
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/verify-email': () => {
        calls++;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return json(ID_TOKEN);
      },
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/verify-email?token=tok-3').ui);
    await settle();
    expect(byTestId(view.container, 'verify-error').textContent).toContain('cannot be reached');
    await click(byTestId(view.container, 'verify-retry'));
    await settle(8);
    expect(api.to('POST /api/auth/verify-email')).toHaveLength(2);
    expect(locationOf(view.container)).toBe('/');
  });

  it('stays signed out, saying why, when the session is refused', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/verify-email': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => coded(400, 'USER_NOT_FOUND'),
    });
    view = await render(authHarness(routes, '/verify-email?token=tok-4').ui);
    await settle(8);
    expect(byTestId(view.container, 'verify-error').textContent).toContain('There is no active account');
  });
});
