import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { RequireAuth } from './require-auth';
import { SignInPage } from './signin-page';

const routes = [
  {
    element: <RequireAuth />,
    children: [
      { path: '/account/security', element: <p data-testid="secret">security</p> },
      { path: '/dashboard/*', element: <p data-testid="dashboard">dashboard</p> },
    ],
  },
  { path: '/signin', element: <SignInPage /> },
];

const ID_TOKEN = { idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' };

describe('route guard (/account/*, /dashboard*)', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('sends a signed-out visitor to /signin?next=… and brings them back after signing in', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/account/security?tab=1#x').ui);
    await settle();
    const root = view.container;
    expect(root.querySelector('[data-testid="secret"]')).toBeNull();
    expect(locationOf(root)).toBe('/signin?next=%2Faccount%2Fsecurity%3Ftab%3D1%23x');
    await typeInto(byTestId(root, 'signin-email'), 'ada@example.com');
    await typeInto(byTestId(root, 'signin-password'), 'correct password');
    await click(byTestId(root, 'signin-submit'));
    await until(() => root.querySelector('[data-testid="secret"]') !== null, 'the guarded page');
    expect(locationOf(root)).toBe('/account/security?tab=1');
    expect(api.to('POST /api/auth/signin')).toHaveLength(1);
  });

  it('guards /dashboard and its subpages too', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/dashboard/transfers').ui);
    await settle();
    expect(locationOf(view.container)).toBe('/signin?next=%2Fdashboard%2Ftransfers');
  });

  it('shows the page to a signed-in user, and waits for /me before deciding', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockApi({ 'GET /api/auth/me': () => new Promise<Response>((resolve) => (answer = resolve)) });
    view = await render(authHarness(routes, '/account/security').ui);
    await settle();
    expect(byTestId(view.container, 'auth-loading')).toBeTruthy();
    expect(locationOf(view.container)).toBe('/account/security');
    answer(json(signedInState()));
    await settle();
    expect(byTestId(view.container, 'secret')).toBeTruthy();
  });

  it('offers a retry when /me cannot be asked, instead of a wrong redirect', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls++;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return json(signedInState());
      }),
    );
    view = await render(authHarness(routes, '/account/security').ui);
    await settle();
    expect(byTestId(view.container, 'auth-load-error').textContent).toContain('cannot be reached');
    expect(locationOf(view.container)).toBe('/account/security');
    await click(byTestId(view.container, 'auth-retry'));
    await settle();
    expect(byTestId(view.container, 'secret')).toBeTruthy();
  });

  it('goes home when the user signs out on a guarded page', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 1 }),
    });
    view = await render(authHarness(routes, '/account/security').ui);
    await settle();
    await click(byTestId(view.container, 'user-menu-button'));
    await click(byTestId(view.container, 'user-menu-signout'));
    await settle();
    expect(locationOf(view.container)).toBe('/');
    expect(byTestId(view.container, 'header-signin')).toBeTruthy();
  });
});
