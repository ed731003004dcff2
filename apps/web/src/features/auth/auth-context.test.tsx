import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEVICE_COOKIE, readCookie } from '../../lib/device-id';
import { coded, json, mockApi, noContent } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, sessionInfo, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { type SessionOutcome, useAuth } from './auth-context';

const MIN = 60_000;
const HOUR = 3600_000;
const ID_TOKEN = { idToken: 'id.tok.en', expiresAt: '2030-01-01T00:00:00.000Z' };

/** Shows the provider's state and calls it, as the pages do. */
function Probe() {
  const auth = useAuth();
  const show = (result: SessionOutcome) => {
    document.body.dataset.outcome = result.ok ? 'ok' : result.refused;
  };
  return (
    <div>
      <p data-testid="status">{auth.status}</p>
      <p data-testid="who">{auth.user?.email ?? 'anonymous'}</p>
      <p data-testid="plan">{auth.state.planType}</p>
      <button
        type="button"
        data-testid="do-signin"
        onClick={() =>
          void auth
            .signIn({ email: 'ada@example.com', password: 'pw', staySignedIn: true })
            .then(show, (e) => {
              document.body.dataset.outcome = `error:${(e as Error).message}`;
            })
        }
      />
      <button
        type="button"
        data-testid="do-signin-short"
        onClick={() =>
          void auth.signIn({ email: 'ada@example.com', password: 'pw', staySignedIn: false }).then(show)
        }
      />
      <button
        type="button"
        data-testid="do-signout-all"
        onClick={() => void auth.signOut({ everywhere: true })}
      />
    </div>
  );
}

async function mount(path = '/probe') {
  const { ui } = authHarness([{ path: '/probe', element: <Probe /> }], path);
  return render(ui);
}

const text = (root: ParentNode, id: string) => byTestId(root, id).textContent;

describe('AuthProvider', () => {
  let view: Rendered;
  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the device id cookie is what is under test
    document.cookie = `${DEVICE_COOKIE}=; Max-Age=0; Path=/`;
    delete document.body.dataset.outcome;
    localStorage.clear();
  });
  afterEach(async () => {
    await view?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts loading, then is anonymous (user null, plan NONE) from GET /api/auth/me', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockApi({ 'GET /api/auth/me': () => new Promise<Response>((resolve) => (answer = resolve)) });
    view = await mount();
    expect(text(view.container, 'status')).toBe('loading');
    expect(view.container.querySelector('[data-testid="header-signin"]')).toBeNull();
    await act(async () => answer(json(anonymousState())));
    await settle();
    expect(text(view.container, 'status')).toBe('ready');
    expect(text(view.container, 'who')).toBe('anonymous');
    expect(text(view.container, 'plan')).toBe('NONE');
    expect(byTestId(view.container, 'header-signin').getAttribute('href')).toBe('/signin?next=%2Fprobe');
  });

  it('is signed in when /me says so, and shows the user menu', async () => {
    mockApi({ 'GET /api/auth/me': () => json(signedInState({ planType: 'PREMIUM' })) });
    view = await mount();
    await settle();
    expect(text(view.container, 'who')).toBe('ada@example.com');
    expect(text(view.container, 'user-menu-email')).toBe('ada@example.com');
    expect(text(view.container, 'user-menu-plan')).toBe('Premium');
  });

  it('treats a 401 from /me as anonymous, and a network failure as an error', async () => {
    mockApi({ 'GET /api/auth/me': () => coded(401, 'INVALID_TOKEN') });
    view = await mount();
    await settle();
    expect(text(view.container, 'status')).toBe('ready');
    expect(text(view.container, 'who')).toBe('anonymous');
    await view.unmount();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    view = await mount();
    await settle();
    expect(text(view.container, 'status')).toBe('error');
  });

  it('signs in: id token → session cookie (14 days, device id cookie) → /me', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await mount();
    await settle();
    await click(byTestId(view.container, 'do-signin'));
    await settle();
    expect(document.body.dataset.outcome).toBe('ok');
    expect(text(view.container, 'who')).toBe('ada@example.com');
    const [cookieCall] = api.to('GET /api/auth/auth/session-cookie');
    expect(cookieCall?.headers['id-token']).toBe('id.tok.en');
    expect(cookieCall?.query.get('expiresInMinutes')).toBe('20160');
    const device = readCookie(DEVICE_COOKIE);
    expect(device).toMatch(/^[0-9a-f-]{36}$/);
    expect(cookieCall?.query.get('deviceId')).toBe(device);
    expect(api.calls.map((c) => c.path)).toEqual([
      '/api/auth/me',
      '/api/auth/signin',
      '/api/auth/auth/session-cookie',
      '/api/auth/me',
    ]);
  });

  it('asks a one-day session without "stay signed in", with the same device id', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    // biome-ignore lint/suspicious/noDocumentCookie: an existing device id cookie
    document.cookie = `${DEVICE_COOKIE}=0b5c1e9e-3f0c-4d5e-9a61-2b7f3c4d5e6f; Path=/`;
    view = await mount();
    await settle();
    await click(byTestId(view.container, 'do-signin-short'));
    await settle();
    const [cookieCall] = api.to('GET /api/auth/auth/session-cookie');
    expect(cookieCall?.query.get('expiresInMinutes')).toBe('1440');
    expect(cookieCall?.query.get('deviceId')).toBe('0b5c1e9e-3f0c-4d5e-9a61-2b7f3c4d5e6f');
  });

  for (const code of ['USER_NOT_FOUND', 'MAX_LICENCES_REACHED'] as const) {
    it(`stays anonymous when the session cookie is refused with ${code}`, async () => {
      const api = mockApi({
        'GET /api/auth/me': () => json(anonymousState()),
        'POST /api/auth/signin': () => json(ID_TOKEN),
        'GET /api/auth/auth/session-cookie': () => coded(400, code),
      });
      view = await mount();
      await settle();
      await click(byTestId(view.container, 'do-signin'));
      await settle();
      expect(document.body.dataset.outcome).toBe(code);
      expect(text(view.container, 'who')).toBe('anonymous');
      expect(api.to('GET /api/auth/me')).toHaveLength(1);
    });
  }

  it('fails (not a silent anonymous state) when the browser did not keep the cookie', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await mount();
    await settle();
    await click(byTestId(view.container, 'do-signin'));
    await settle();
    expect(document.body.dataset.outcome).toBe('error:the browser did not keep the session cookie');
  });

  it('signs out everywhere with revokeAllSessions=true and becomes anonymous', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 2 }),
    });
    view = await mount();
    await settle();
    await click(byTestId(view.container, 'do-signout-all'));
    await settle();
    expect(text(view.container, 'who')).toBe('anonymous');
    const [call] = api.to('GET /api/auth/auth/sign-out');
    expect(call?.query.get('revokeAllSessions')).toBe('true');
    expect(call?.query.get('deviceId')).toBe(readCookie(DEVICE_COOKIE));
  });
});

describe('AuthProvider expiry checks (spec §4: first after 10 s, then every 2 min)', () => {
  let view: Rendered;
  const NOW = Date.UTC(2030, 0, 1, 12);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(NOW);
    localStorage.clear();
  });
  afterEach(async () => {
    await view?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const advance = (ms: number) =>
    act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });

  it('removes a session ending within 2 minutes at the first check, 10 s after start', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ sessionExpireTimestamp: NOW + 100_000 })),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 1 }),
    });
    view = await mount();
    await advance(0);
    expect(text(view.container, 'who')).toBe('ada@example.com');
    await advance(9_999);
    expect(api.to('GET /api/auth/auth/sign-out')).toHaveLength(0);
    await advance(1);
    expect(api.to('GET /api/auth/auth/sign-out')).toHaveLength(1);
    expect(api.to('GET /api/auth/auth/sign-out')[0]?.query.has('revokeAllSessions')).toBe(false);
    expect(text(view.container, 'who')).toBe('anonymous');
    expect(view.container.textContent).toContain('Your session has ended. Sign in again to continue.');
  });

  it('drops the state even when the sign-out call fails, and removes a session without expiry', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState({ sessionExpireTimestamp: null })),
      'GET /api/auth/auth/sign-out': () => coded(500, 'INTERNAL'),
    });
    view = await mount();
    await advance(10_000);
    expect(text(view.container, 'who')).toBe('anonymous');
  });

  it('keeps a long session quiet, then offers to sign back in once it ends within 12 h', async () => {
    mockApi({ 'GET /api/auth/me': () => json(signedInState({ sessionExpireTimestamp: NOW + 13 * HOUR })) });
    view = await mount();
    await advance(10_000);
    expect(document.querySelector('[data-testid="sign-back-in"]')).toBeNull();
    // 13 h − 12 h = 1 h later, at the next check after that.
    await advance(HOUR - 10_000 + 2 * MIN);
    expect(document.querySelector('[data-testid="sign-back-in"]')).not.toBeNull();
    expect(text(view.container, 'who')).toBe('ada@example.com');
  });

  it('shows the sign-back-in modal; "Not now" closes it for this session, removal still comes', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ sessionExpireTimestamp: NOW + 6 * MIN })),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 1 }),
    });
    view = await mount();
    await advance(10_000);
    const dialog = byTestId<HTMLDialogElement>(view.container, 'sign-back-in');
    expect(dialog.textContent).toContain('ada@example.com');
    expect(document.activeElement).toBe(byTestId(view.container, 'sign-back-in-password'));
    await click(byTestId(view.container, 'sign-back-in-later'));
    expect(view.container.querySelector('[data-testid="sign-back-in"]')).toBeNull();
    await advance(2 * MIN); // 3 min 50 s left: asked again? no, dismissed
    expect(view.container.querySelector('[data-testid="sign-back-in"]')).toBeNull();
    expect(api.to('GET /api/auth/auth/sign-out')).toHaveLength(0);
    await advance(2 * MIN); // 1 min 50 s left: removed
    expect(api.to('GET /api/auth/auth/sign-out')).toHaveLength(1);
    expect(text(view.container, 'who')).toBe('anonymous');
  });

  it('signs back in from the modal with the password, staying on the page; the old session is revoked', async () => {
    const api = mockApi({
      'GET /api/auth/me': [
        () => json(signedInState({ sessionExpireTimestamp: NOW + 3 * HOUR })),
        () => json(signedInState({ sessionExpireTimestamp: NOW + 14 * 24 * HOUR })),
      ],
      'GET /api/auth/sessions': () =>
        json([sessionInfo({ id: 's_old', current: true }), sessionInfo({ id: 's_x' })]),
      'POST /api/auth/signin': () => json(ID_TOKEN),
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
      'DELETE /api/auth/sessions/s_old': () => noContent(),
    });
    view = await mount('/probe?x=1');
    await advance(10_000);
    await typeInto(byTestId(view.container, 'sign-back-in-password'), 'my password');
    await click(byTestId(view.container, 'sign-back-in-stay'));
    await act(async () => {
      byTestId(view.container, 'sign-back-in-submit').click();
      await vi.advanceTimersByTimeAsync(0);
    });
    await advance(0);
    await flushAll();
    expect(api.to('POST /api/auth/signin')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'my password',
    });
    expect(api.to('GET /api/auth/auth/session-cookie')[0]?.query.get('expiresInMinutes')).toBe('20160');
    expect(api.to('DELETE /api/auth/sessions/s_old')).toHaveLength(1);
    expect(view.container.querySelector('[data-testid="sign-back-in"]')).toBeNull();
    expect(text(view.container, 'location')).toBe('/probe?x=1');
    expect(text(view.container, 'who')).toBe('ada@example.com');
    // The new session is long: the next checks keep quiet.
    await advance(10 * MIN);
    expect(view.container.querySelector('[data-testid="sign-back-in"]')).toBeNull();
  });

  async function flushAll() {
    for (let i = 0; i < 5; i++) await advance(0);
  }
});
