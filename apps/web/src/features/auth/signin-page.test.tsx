import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { SignInPage } from './signin-page';

const ID_TOKEN = { idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' };
const routes = [
  { path: '/signin', element: <SignInPage /> },
  { path: '/account/integrations', element: <p data-testid="integrations">integrations</p> },
];

async function fill(root: HTMLElement, email = 'ada@example.com', password = 'correct password') {
  await typeInto(byTestId(root, 'signin-email'), email);
  await typeInto(byTestId(root, 'signin-password'), password);
}

describe('sign-in page', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function open(path = '/signin?next=%2Faccount%2Fintegrations') {
    view = await render(authHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  it('signs in with "stay signed in" and goes to next', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    const root = await open();
    expect(root.querySelector('h1')?.textContent).toBe('Sign in');
    expect(byTestId(root, 'signin-forgot').getAttribute('href')).toBe('/forgot-password');
    await fill(root, ' ada@example.com ');
    expect(byTestId(root, 'signin-forgot').getAttribute('href')).toBe(
      '/forgot-password?email=ada%40example.com',
    );
    await click(byTestId(root, 'signin-stay'));
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(api.to('POST /api/auth/signin')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct password',
    });
    expect(api.to('GET /api/auth/auth/session-cookie')[0]?.query.get('expiresInMinutes')).toBe('20160');
    expect(locationOf(root)).toBe('/account/integrations');
    expect(localStorage.getItem('ferry.staySignedIn')).toBe('true');
  });

  it('checks the fields before calling the server', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const root = await open();
    await fill(root, 'not an address', '');
    await click(byTestId(root, 'signin-submit'));
    const email = byTestId(root, 'signin-email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(
      root.querySelector(`#${CSS.escape(email.getAttribute('aria-describedby') ?? '')}`)?.textContent,
    ).toBe('Enter a valid e-mail address, like name@example.com.');
    expect(document.activeElement).toBe(email);
    expect(api.to('POST /api/auth/signin')).toHaveLength(0);
  });

  it('says wrong e-mail or password, in an alert', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/signin': () => coded(401, 'INVALID_CREDENTIALS'),
    });
    const root = await open();
    await fill(root);
    await click(byTestId(root, 'signin-submit'));
    await settle();
    const error = byTestId(root, 'signin-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.dataset.problem).toBe('invalid_credentials');
    expect(error.textContent).toContain('Wrong e-mail address or password.');
    expect(locationOf(root)).toBe('/signin?next=%2Faccount%2Fintegrations');
  });

  it('says a new verification link was sent for an unverified address', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/signin': () => coded(403, 'EMAIL_NOT_VERIFIED'),
    });
    const root = await open();
    await fill(root);
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(byTestId(root, 'signin-error').textContent).toContain(
      'Confirm your e-mail address first. We sent you a new link to ada@example.com',
    );
  });

  it('asks for the second factor when the server requires it, then sends it', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/signin': [
        () => coded(401, 'SECOND_FACTOR_REQUIRED'),
        () => coded(401, 'SECOND_FACTOR_REQUIRED'),
        () => json(ID_TOKEN),
      ],
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    const root = await open();
    expect(root.querySelector('[data-testid="signin-code"]')).toBeNull();
    await fill(root);
    await click(byTestId(root, 'signin-submit'));
    await settle();
    // Not an error the first time: the code field appears, focused.
    expect(root.querySelector('[data-testid="signin-error"]')).toBeNull();
    const code = byTestId<HTMLInputElement>(root, 'signin-code');
    expect(document.activeElement).toBe(code);
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    await typeInto(code, '111 111');
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(byTestId(root, 'signin-error').textContent).toContain('This code is not right.');
    await typeInto(code, '123 456');
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(api.to('POST /api/auth/signin').map((c) => (c.body as { totp?: string }).totp)).toEqual([
      undefined,
      '111111',
      '123456',
    ]);
    expect(locationOf(root)).toBe('/account/integrations');
  });

  it('says how long to wait when rate limited, and blocks the button meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/signin': () => coded(429, 'RATE_LIMITED', { 'Retry-After': '30' }),
    });
    view = await render(authHarness(routes, '/signin').ui);
    const tick = (ms: number) =>
      act(async () => {
        await vi.advanceTimersByTimeAsync(ms);
      });
    await tick(0);
    const root = view.container;
    await fill(root);
    await act(async () => {
      byTestId(root, 'signin-submit').click();
      await vi.advanceTimersByTimeAsync(0);
    });
    await tick(0);
    expect(byTestId(root, 'signin-error').textContent).toContain(
      'Too many attempts. Try again in about 30 seconds.',
    );
    expect(byTestId<HTMLButtonElement>(root, 'signin-submit').disabled).toBe(true);
    await tick(29_000);
    expect(byTestId(root, 'signin-error').textContent).toContain('Try again in about 1 second.');
    await tick(1_000);
    expect(byTestId(root, 'signin-error').textContent).toContain('You can try again now.');
    expect(byTestId<HTMLButtonElement>(root, 'signin-submit').disabled).toBe(false);
  });

  it('stays signed out, saying why, when the account has no licence left', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => coded(400, 'MAX_LICENCES_REACHED'),
    });
    const root = await open();
    await fill(root);
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(byTestId(root, 'signin-error').textContent).toContain('Your team has used all its licences');
    expect(byTestId(root, 'signin-error').textContent).toContain('You stay signed out.');
    expect(root.querySelector('[data-testid="user-menu-button"]')).toBeNull();
    expect(locationOf(root)).toBe('/signin?next=%2Faccount%2Fintegrations');
  });

  it('says so when the session cookie names no active account (USER_NOT_FOUND)', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => coded(400, 'USER_NOT_FOUND'),
    });
    const root = await open();
    await fill(root);
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(byTestId(root, 'signin-error').dataset.problem).toBe('USER_NOT_FOUND');
  });

  it('goes straight to next when already signed in, and never to another site', async () => {
    mockApi({ 'GET /api/auth/me': () => json(signedInState()) });
    const root = await open('/signin?next=%2F%2Fevil.example');
    expect(locationOf(root)).toBe('/');
  });
});
