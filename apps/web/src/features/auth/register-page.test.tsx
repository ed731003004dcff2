import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { chosenPlanFromQuery, RegisterPage } from './register-page';

const routes = [{ path: '/register', element: <RegisterPage /> }];

describe('chosenPlanFromQuery (spec §2 /register query)', () => {
  it('reads type, frequency and trial', () => {
    expect(chosenPlanFromQuery(new URLSearchParams('type=PREMIUM&frequency=ANNUAL&trial=true'))).toEqual({
      type: 'PREMIUM',
      frequency: 'ANNUAL',
      trial: true,
    });
    expect(chosenPlanFromQuery(new URLSearchParams('type=TEAM10&trial=false'))).toEqual({
      type: 'TEAM10',
      trial: false,
    });
  });

  it('takes every self-service plan code of spec §3, not CUSTOM', () => {
    for (const type of ['PREMIUM_2TB', 'PREMIUM_5TB', 'PREMIUM_10TB', 'TEAM', 'TEAM25']) {
      expect(
        chosenPlanFromQuery(new URLSearchParams(`type=${type.toLowerCase()}&frequency=MONTHLY`)),
      ).toEqual({
        type,
        frequency: 'MONTHLY',
      });
    }
    expect(chosenPlanFromQuery(new URLSearchParams('type=CUSTOM'))).toBeUndefined();
  });

  it('leaves out what it does not know', () => {
    expect(chosenPlanFromQuery(new URLSearchParams(''))).toBeUndefined();
    expect(chosenPlanFromQuery(new URLSearchParams('type=ENTERPRISE'))).toBeUndefined();
    expect(chosenPlanFromQuery(new URLSearchParams('type=PREMIUM&frequency=WEEKLY&trial=maybe'))).toEqual({
      type: 'PREMIUM',
    });
  });
});

describe('register page', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(path: string) {
    view = await render(authHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  it('sends e-mail, password, first name, language and the plan of the query; then "check your inbox"', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/register': () => json({ sentTo: 'ada@example.com' }, 202),
    });
    const root = await open('/register?type=PREMIUM&frequency=ANNUAL&trial=true');
    expect(byTestId(root, 'register-plan').textContent).toBe(
      'You chose Premium (yearly, with a free trial). Once your address is confirmed, you pay and start it from your account.',
    );
    await typeInto(byTestId(root, 'register-email'), 'ada@example.com');
    await typeInto(byTestId(root, 'register-password'), 'correct horse battery staple');
    await typeInto(byTestId(root, 'register-firstname'), ' Ada ');
    await click(byTestId(root, 'register-submit'));
    await settle();
    expect(api.to('POST /api/auth/register')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse battery staple',
      firstname: 'Ada',
      locale: 'en',
      plan: { type: 'PREMIUM', frequency: 'ANNUAL', trial: true },
    });
    expect(byTestId(root, 'page-register').dataset.state).toBe('sent');
    expect(byTestId(root, 'register-sent').textContent).toBe(
      'We sent a link to ada@example.com. Open it to confirm your address: you will be signed in.',
    );
    expect(root.querySelector('[data-testid="register-resent"]')).toBeNull();

    // Resend = the same form sent again.
    await click(byTestId(root, 'register-resend'));
    await settle();
    expect(api.to('POST /api/auth/register')).toHaveLength(2);
    expect(api.to('POST /api/auth/register')[1]?.body).toEqual(api.to('POST /api/auth/register')[0]?.body);
    expect(byTestId(root, 'register-resent').textContent).toContain('A new link is on its way.');
  });

  it('shows the strength of the password as it is typed, and can show it', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const root = await open('/register');
    const password = byTestId<HTMLInputElement>(root, 'register-password');
    const strength = byTestId(root, 'register-strength');
    expect(strength.dataset.strength).toBe('empty');
    await typeInto(password, 'short');
    expect(strength.dataset.strength).toBe('too_short');
    expect(strength.textContent).toContain('Too short: use at least 10 characters.');
    await typeInto(password, 'password1234');
    expect(strength.dataset.strength).toBe('weak');
    await typeInto(password, 'Correct-Horse-Battery-Staple-42');
    expect(strength.dataset.strength).toBe('strong');
    expect(strength.querySelectorAll('.strength-bar.is-on')).toHaveLength(4);
    expect(password.getAttribute('aria-describedby')).toContain(strength.querySelector('p')?.id);
    expect(password.type).toBe('password');
    const toggle = byTestId(root, 'register-password-toggle');
    expect(toggle.getAttribute('aria-label')).toBe('Show password');
    await click(toggle);
    expect(password.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });

  it('refuses a password under 10 characters without calling the server', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const root = await open('/register');
    await typeInto(byTestId(root, 'register-email'), 'ada@example.com');
    await typeInto(byTestId(root, 'register-password'), 'abc123');
    await click(byTestId(root, 'register-submit'));
    expect(root.textContent).toContain('Use at least 10 characters.');
    expect(byTestId(root, 'register-password').getAttribute('aria-invalid')).toBe('true');
    expect(api.to('POST /api/auth/register')).toHaveLength(0);
    expect(root.querySelector('[data-testid="register-plan"]')).toBeNull();
  });

  it('says how long to wait when rate limited', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/register': () => coded(429, 'RATE_LIMITED', { 'Retry-After': '120' }),
    });
    const root = await open('/register');
    await typeInto(byTestId(root, 'register-email'), 'ada@example.com');
    await typeInto(byTestId(root, 'register-password'), 'correct horse battery staple');
    await click(byTestId(root, 'register-submit'));
    await settle();
    expect(byTestId(root, 'register-error').textContent).toContain('Try again in about 2 minutes.');
    expect(byTestId<HTMLButtonElement>(root, 'register-submit').disabled).toBe(true);
    expect(byTestId(root, 'page-register').dataset.state).toBe('form');
  });

  it('reports a server-side validation error', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/register': () => coded(400, 'VALIDATION_FAILED'),
    });
    const root = await open('/register');
    await typeInto(byTestId(root, 'register-email'), 'ada@example.com');
    await typeInto(byTestId(root, 'register-password'), 'correct horse battery staple');
    await click(byTestId(root, 'register-submit'));
    await settle();
    expect(byTestId(root, 'register-error').textContent).toContain('Some information is not valid.');
  });
});
