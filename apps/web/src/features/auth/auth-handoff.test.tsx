import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCookie } from '../../lib/device-id';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, type Rendered, render, settle } from '../../test/render';
import { useAuth } from './auth-context';
import { AUTH_REDIRECT_COOKIE } from './handoff';

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <p data-testid="status">{auth.status}</p>
      <p data-testid="who">{auth.user?.email ?? 'anonymous'}</p>
    </div>
  );
}

const SESSION = { sessionCookie: 's.e.s', sessionExpireTimestamp: Date.now() + 3600_000 };

describe('sign-in hand-off on any page (spec §2/§4)', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
    // biome-ignore lint/suspicious/noDocumentCookie: the auth-redirect cookie is under test
    document.cookie = `${AUTH_REDIRECT_COOKIE}=; Max-Age=0; Path=/`;
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  /** Opens the app at `address` (the browser's own), as a link from another domain would. */
  async function open(address: string) {
    window.history.replaceState(null, '', address);
    view = await render(authHarness([{ path: '/probe', element: <Probe /> }], '/probe').ui);
    await settle(8);
    return view.container;
  }

  it('trades a custom token for a 14-day session, takes it out of the address and keeps the domain 90 days', async () => {
    const api = mockApi({
      'GET /api/auth/auth/session-cookie': () => json(SESSION),
      'GET /api/auth/me': () => json(signedInState()),
    });
    const root = await open('/dl/abc?tab=2&customToken=id.tok.en&staySignedIn=true#S2');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/dl/abc?tab=2#S2');
    const [trade] = api.to('GET /api/auth/auth/session-cookie');
    expect(trade?.headers['id-token']).toBe('id.tok.en');
    expect(trade?.query.get('expiresInMinutes')).toBe('20160');
    expect(trade?.query.get('currentDomain')).toBe(window.location.hostname);
    expect(trade?.query.get('deviceId')).toMatch(/^[0-9a-f-]{36}$/);
    // The session first, then who it is: no GET /me raced before the trade.
    expect(api.calls.map((c) => c.path)).toEqual(['/api/auth/auth/session-cookie', '/api/auth/me']);
    expect(byTestId(root, 'who').textContent).toBe('ada@example.com');
    expect(readCookie(AUTH_REDIRECT_COOKIE)).toBe(window.location.hostname);
  });

  it('without staySignedIn: a one-day session and no domain cookie', async () => {
    const api = mockApi({
      'GET /api/auth/auth/session-cookie': () => json(SESSION),
      'GET /api/auth/me': () => json(signedInState()),
    });
    const root = await open('/?customToken=id.tok.en');
    expect(api.to('GET /api/auth/auth/session-cookie')[0]?.query.get('expiresInMinutes')).toBe('1440');
    expect(window.location.search).toBe('');
    expect(byTestId(root, 'who').textContent).toBe('ada@example.com');
    expect(readCookie(AUTH_REDIRECT_COOKIE)).toBeNull();
  });

  it('a failed custom-token sign-in signs out to anonymous, even over an existing session', async () => {
    const api = mockApi({
      'GET /api/auth/auth/session-cookie': () => coded(401, 'INVALID_TOKEN'),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 1 }),
      // The browser had a session: it is not kept.
      'GET /api/auth/me': () => json(signedInState()),
    });
    const root = await open('/account?customToken=bad.to.ken&staySignedIn=true');
    expect(window.location.search).toBe('');
    expect(api.to('GET /api/auth/auth/sign-out')).toHaveLength(1);
    expect(api.to('GET /api/auth/me')).toHaveLength(0);
    expect(byTestId(root, 'status').textContent).toBe('ready');
    expect(byTestId(root, 'who').textContent).toBe('anonymous');
    expect(root.textContent).toContain('This sign-in link did not work. You are signed out');
    expect(readCookie(AUTH_REDIRECT_COOKIE)).toBeNull();
  });

  it('a refused or malformed custom token ends the same way, the malformed one without asking the server', async () => {
    const api = mockApi({
      'GET /api/auth/auth/session-cookie': () => coded(400, 'USER_NOT_FOUND'),
      'GET /api/auth/auth/sign-out': () => coded(401, 'UNAUTHORIZED'),
    });
    let root = await open('/?customToken=a.b.c');
    expect(byTestId(root, 'who').textContent).toBe('anonymous');
    expect(root.textContent).toContain('This sign-in link did not work');
    await view.unmount();
    root = await open('/?customToken=not-a-token');
    expect(api.to('GET /api/auth/auth/session-cookie')).toHaveLength(1);
    expect(byTestId(root, 'who').textContent).toBe('anonymous');
    expect(window.location.search).toBe('');
  });

  it('sets a session token handed over, then loads who it is', async () => {
    const api = mockApi({
      'GET /api/auth/auth/set-session': () => json(SESSION),
      'GET /api/auth/me': () => json(signedInState()),
    });
    const root = await open('/account/profile?sessionCookie=se.ss.ion');
    expect(window.location.pathname + window.location.search).toBe('/account/profile');
    expect(api.to('GET /api/auth/auth/set-session')[0]?.headers['session-token']).toBe('se.ss.ion');
    expect(api.calls.map((c) => c.path)).toEqual(['/api/auth/auth/set-session', '/api/auth/me']);
    expect(byTestId(root, 'who').textContent).toBe('ada@example.com');
  });

  it('a session token that does not check out is told, and the session the browser had stays', async () => {
    mockApi({
      'GET /api/auth/auth/set-session': () => coded(400, 'VALIDATION_FAILED'),
      'GET /api/auth/me': () => json(signedInState()),
    });
    const root = await open('/?sessionCookie=x.y.z');
    expect(root.textContent).toContain('The session handed over to this site could not be used.');
    expect(byTestId(root, 'who').textContent).toBe('ada@example.com');
  });
});
