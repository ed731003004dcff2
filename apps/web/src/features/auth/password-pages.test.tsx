import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';

const routes = [
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
];
const ID_TOKEN = { idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' };

describe('forgot-password page', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('mails a link (prefilled address) and says so without telling whether the account exists', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/password/forgot': () => json({}, 202),
    });
    view = await render(authHarness(routes, '/forgot-password?email=ada%40example.com').ui);
    await settle();
    const root = view.container;
    expect(byTestId<HTMLInputElement>(root, 'forgot-email').value).toBe('ada@example.com');
    await click(byTestId(root, 'forgot-submit'));
    await settle();
    expect(api.to('POST /api/auth/password/forgot')[0]?.body).toEqual({
      email: 'ada@example.com',
      locale: 'en',
    });
    expect(byTestId(root, 'forgot-sent').textContent).toBe(
      'If ada@example.com has an account, we sent it a link to choose a new password.',
    );
  });

  it('checks the address, and says how long to wait when rate limited', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/password/forgot': () => coded(429, 'RATE_LIMITED', { 'Retry-After': '60' }),
    });
    view = await render(authHarness(routes, '/forgot-password').ui);
    await settle();
    const root = view.container;
    await typeInto(byTestId(root, 'forgot-email'), 'nope');
    await click(byTestId(root, 'forgot-submit'));
    expect(api.to('POST /api/auth/password/forgot')).toHaveLength(0);
    expect(byTestId(root, 'forgot-email').getAttribute('aria-invalid')).toBe('true');
    await typeInto(byTestId(root, 'forgot-email'), 'ada@example.com');
    await click(byTestId(root, 'forgot-submit'));
    await settle();
    expect(byTestId(root, 'forgot-error').textContent).toContain('Try again in about 1 minute.');
  });
});

describe('reset-password page', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('sets the new password, signs in, and goes home saying other sessions were signed out', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/password/reset': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/reset-password?token=reset-1').ui);
    await settle();
    const root = view.container;
    await typeInto(byTestId(root, 'reset-password'), 'a brand new passphrase');
    expect(byTestId(root, 'reset-strength').dataset.strength).toBe('good');
    await click(byTestId(root, 'reset-submit'));
    await settle(8);
    expect(api.to('POST /api/auth/password/reset')[0]?.body).toEqual({
      token: 'reset-1',
      password: 'a brand new passphrase',
    });
    expect(locationOf(root)).toBe('/');
    expect(root.textContent).toContain('Your password is changed. Every other session was signed out.');
  });

  it('on an account with a second factor, asks for its code (or a recovery code) before signing in', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/password/reset': [
        () => coded(401, 'SECOND_FACTOR_REQUIRED'),
        () => coded(401, 'SECOND_FACTOR_REQUIRED'),
        () => json(ID_TOKEN),
      ],
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/reset-password?token=reset-2').ui);
    await settle();
    const root = view.container;
    expect(root.querySelector('[data-testid="reset-code"]')).toBeNull();
    await typeInto(byTestId(root, 'reset-password'), 'a brand new passphrase');
    await click(byTestId(root, 'reset-submit'));
    await settle();
    // Not an error yet: the code field appears, focused, and nobody is signed in.
    const field = byTestId<HTMLInputElement>(root, 'reset-code');
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(byTestId(root, 'reset-second-factor').textContent).toContain('or a recovery code');
    expect(root.querySelector('[data-testid="reset-error"]')).toBeNull();
    expect(api.to('GET /api/auth/auth/session-cookie')).toHaveLength(0);
    expect(locationOf(root)).toBe('/reset-password?token=reset-2');

    await click(byTestId(root, 'reset-submit'));
    expect(root.textContent).toContain('Enter the code of your authenticator app.');
    expect(api.to('POST /api/auth/password/reset')).toHaveLength(1);

    await typeInto(field, '000 000');
    await click(byTestId(root, 'reset-submit'));
    await settle();
    expect(byTestId(root, 'reset-error').dataset.problem).toBe('second_factor');
    expect(locationOf(root)).toBe('/reset-password?token=reset-2');

    await typeInto(field, '123 456');
    await click(byTestId(root, 'reset-submit'));
    await settle(8);
    expect(api.to('POST /api/auth/password/reset').map((call) => call.body)).toEqual([
      { token: 'reset-2', password: 'a brand new passphrase' },
      { token: 'reset-2', password: 'a brand new passphrase', totp: '000000' },
      { token: 'reset-2', password: 'a brand new passphrase', totp: '123456' },
    ]);
    expect(locationOf(root)).toBe('/');
    expect(root.textContent).toContain('Your password is changed. Every other session was signed out.');
  });

  it('says the link does not work (used or expired), with a way to get a new one', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/password/reset': () => coded(401, 'INVALID_TOKEN'),
    });
    view = await render(authHarness(routes, '/reset-password?token=used').ui);
    await settle();
    const root = view.container;
    await typeInto(byTestId(root, 'reset-password'), 'a brand new passphrase');
    await click(byTestId(root, 'reset-submit'));
    await settle();
    expect(byTestId(root, 'page-reset-password').dataset.state).toBe('invalid');
    expect(byTestId(root, 'reset-new-link').getAttribute('href')).toBe('/forgot-password');
  });

  it('refuses a short password, and a link without token', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/reset-password?token=t').ui);
    await settle();
    await typeInto(byTestId(view.container, 'reset-password'), 'short');
    await click(byTestId(view.container, 'reset-submit'));
    expect(view.container.textContent).toContain('Use at least 10 characters.');
    expect(api.to('POST /api/auth/password/reset')).toHaveLength(0);
    await view.unmount();
    view = await render(authHarness(routes, '/reset-password').ui);
    await settle();
    expect(byTestId(view.container, 'page-reset-password').dataset.state).toBe('invalid');
  });
});
