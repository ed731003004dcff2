import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { JoinPage } from './join-page';

const VIEW = 'GET /api/user/team-invitations/tok-1';
const invitation = (accountExists: boolean) => ({
  email: 'ada@example.com',
  teamId: 'm_1',
  inviterEmail: 'boss@example.com',
  inviterName: 'Bea',
  accountExists,
  expiresAt: '2030-01-01T00:00:00.000Z',
});
const routes = [
  { path: '/join', element: <JoinPage /> },
  { path: '/dashboard', element: <p data-testid="dashboard">dashboard</p> },
  { path: '/signin', element: <p data-testid="signin">signin</p> },
];

describe('/join', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('creates the account of a new address with a password, signs in and opens the dashboard', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      [VIEW]: () => json(invitation(false)),
      'POST /api/user/team-invitations/accept': () =>
        json({ idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' }),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    const { ui } = authHarness(routes, '/join?token=tok-1');
    view = await render(ui);
    await settle(8);
    const root = view.container;
    expect(byTestId(root, 'join-intro').textContent).toBe(
      'Bea (boss@example.com) invites ada@example.com to their team.',
    );
    await typeInto(byTestId(root, 'join-firstname'), 'Ada');
    await typeInto(byTestId(root, 'join-password'), 'a long enough password');
    await click(byTestId(root, 'join-submit'));
    await settle(8);
    expect(api.to('POST /api/user/team-invitations/accept')[0]?.body).toEqual({
      token: 'tok-1',
      password: 'a long enough password',
      firstname: 'Ada',
    });
    expect(locationOf(root)).toBe('/dashboard');
  });

  it('asks an existing account to sign in as the invited address first', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      [VIEW]: () => json(invitation(true)),
    });
    const { ui } = authHarness(routes, '/join?token=tok-1');
    view = await render(ui);
    await settle(8);
    const link = byTestId<HTMLAnchorElement>(view.container, 'join-signin');
    expect(link.textContent).toBe('Sign in as ada@example.com to accept');
    expect(link.getAttribute('href')).toBe(`/signin?next=${encodeURIComponent('/join?token=tok-1')}`);
  });
});
