import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi, noContent } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { apiToken, sessionInfo, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { RequireAuth } from '../auth/require-auth';
import { IntegrationsPage } from './integrations-page';
import { ProfilePage } from './profile-page';
import { SecurityPage, sortSessions } from './security-page';

const routes = [
  {
    element: <RequireAuth />,
    children: [
      { path: '/account/profile', element: <ProfilePage /> },
      { path: '/account/security', element: <SecurityPage /> },
      { path: '/account/integrations', element: <IntegrationsPage /> },
    ],
  },
  { path: '/signin', element: <p data-testid="at-signin">signin</p> },
];

const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('account pages', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(path: string) {
    view = await render(authHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  describe('/account/profile', () => {
    it('shows the e-mail and the plan, with the section links', async () => {
      mockApi({
        'GET /api/auth/me': () =>
          json(signedInState({ chosenPlan: { type: 'TEAM10', frequency: 'MONTHLY' } })),
      });
      const root = await open('/account/profile');
      expect(byTestId(root, 'profile-email').textContent).toBe('ada@example.com');
      expect(byTestId(root, 'profile-plan').textContent).toBe('Free');
      expect(byTestId(root, 'profile-chosen-plan').textContent).toBe(
        'Team (10 members), set by whoever runs this service (no online payment yet)',
      );
      const current = byTestId(root, 'account-nav-profile');
      expect(current.getAttribute('aria-current')).toBe('page');
      expect(byTestId(root, 'account-nav-security').getAttribute('aria-current')).toBeNull();
    });
  });

  describe('/account/security', () => {
    it('lists sessions (this device first) with device, user agent, IP and last use', async () => {
      mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/sessions': () =>
          json([
            sessionInfo({
              id: 's_old',
              userAgent: FIREFOX_MAC,
              ip: '198.51.100.4',
              lastUsedAt: '2030-01-01T09:00:00Z',
            }),
            sessionInfo({ id: 's_me', current: true }),
            sessionInfo({ id: 's_cli', userAgent: 'node', ip: null, lastUsedAt: '2030-01-03T09:00:00Z' }),
          ]),
      });
      const root = await open('/account/security');
      const rows = [...root.querySelectorAll<HTMLElement>('[data-testid="session-row"]')];
      expect(rows.map((r) => r.dataset.sessionId)).toEqual(['s_me', 's_cli', 's_old']);
      expect(rows[0]?.dataset.current).toBe('true');
      expect(rows[0]?.querySelector('[data-testid="session-this-device"]')?.textContent).toBe('This device');
      expect(rows[0]?.querySelector('[data-testid="session-revoke"]')).toBeNull();
      expect(rows[0]?.textContent).toContain('Chrome on Linux');
      expect(rows[0]?.textContent).toContain('203.0.113.7');
      expect(rows[1]?.textContent).toContain('Node.js');
      expect(rows[1]?.textContent).toContain('Unknown');
      expect(rows[2]?.textContent).toContain('Firefox on macOS');
      expect(rows[2]?.querySelector('[data-testid="session-user-agent"]')?.textContent).toContain(
        FIREFOX_MAC,
      );
      expect(rows[2]?.querySelector('[data-testid="session-this-device"]')).toBeNull();
      expect(rows[2]?.textContent).toContain('Last used');
    });

    it('revokes another session at once and lists again', async () => {
      const api = mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/sessions': [
          () =>
            json([
              sessionInfo({ id: 's_me', current: true }),
              sessionInfo({ id: 's_old', userAgent: FIREFOX_MAC }),
            ]),
          () => json([sessionInfo({ id: 's_me', current: true })]),
        ],
        'DELETE /api/auth/sessions/s_old': () => noContent(),
      });
      const root = await open('/account/security');
      const revoke = byTestId(root, 'session-revoke');
      expect(revoke.getAttribute('aria-label')).toBe('Revoke the session of Firefox on macOS');
      await click(revoke);
      await settle();
      expect(api.to('DELETE /api/auth/sessions/s_old')).toHaveLength(1);
      expect(root.querySelectorAll('[data-testid="session-row"]')).toHaveLength(1);
      expect(root.textContent).toContain('Firefox on macOS is signed out.');
    });

    it('signs out everywhere (revokeAllSessions=true) after confirmation, and goes home', async () => {
      const api = mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/sessions': () => json([sessionInfo({ current: true })]),
        'GET /api/auth/auth/sign-out': () => json({ revoked: 3 }),
      });
      const root = await open('/account/security');
      vi.mocked(window.confirm).mockReturnValueOnce(false);
      await click(byTestId(root, 'signout-everywhere'));
      expect(api.to('GET /api/auth/auth/sign-out')).toHaveLength(0);
      await click(byTestId(root, 'signout-everywhere'));
      await settle();
      expect(api.to('GET /api/auth/auth/sign-out')[0]?.query.get('revokeAllSessions')).toBe('true');
      expect(locationOf(root)).toBe('/');
      expect(root.textContent).toContain('You are signed out everywhere (3 sessions).');
    });

    it('says when the list cannot be loaded, and asks to sign in when the session is gone', async () => {
      mockApi({
        'GET /api/auth/me': [() => json(signedInState()), () => json({ ...signedInState(), user: null })],
        'GET /api/auth/sessions': () => coded(401, 'INVALID_TOKEN'),
      });
      const root = await open('/account/security');
      await settle();
      expect(locationOf(root)).toBe('/signin?next=%2Faccount%2Fsecurity');
    });

    it('shows a server error with a retry', async () => {
      mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/sessions': [
          () => coded(503, 'UNAVAILABLE'),
          () => json([sessionInfo({ current: true })]),
        ],
      });
      const root = await open('/account/security');
      expect(byTestId(root, 'sessions-error').textContent).toContain('briefly unavailable');
      await click(byTestId(root, 'sessions-error').querySelector('button') as HTMLElement);
      await settle();
      expect(root.querySelectorAll('[data-testid="session-row"]')).toHaveLength(1);
    });

    it('orders sessions: current, then most recently used', () => {
      const sorted = sortSessions([
        sessionInfo({ id: 'a', lastUsedAt: '2030-01-01T00:00:00Z' }),
        sessionInfo({ id: 'b', lastUsedAt: '2030-01-05T00:00:00Z' }),
        sessionInfo({ id: 'c', current: true, lastUsedAt: '2029-01-01T00:00:00Z' }),
      ]);
      expect(sorted.map((s) => s.id)).toEqual(['c', 'b', 'a']);
    });
  });

  describe('/account/integrations', () => {
    it('creates a token with a name and shows it once, with a copy button', async () => {
      const writeText = vi.fn(async () => undefined);
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
      const api = mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/tokens': [
          () => json([]),
          () => json([apiToken({ id: 't_2', name: 'Build server', prefix: 'fry_9z8y' })]),
        ],
        'POST /api/auth/tokens': () =>
          json(
            {
              ...apiToken({ id: 't_2', name: 'Build server', prefix: 'fry_9z8y' }),
              token: 'fry_9z8y_secret',
            },
            201,
          ),
      });
      const root = await open('/account/integrations');
      expect(byTestId(root, 'tokens-empty').textContent).toBe('You have no API tokens yet.');
      await click(byTestId(root, 'token-create'));
      expect(root.textContent).toContain('Give the token a name');
      expect(api.to('POST /api/auth/tokens')).toHaveLength(0);
      await typeInto(byTestId(root, 'token-name'), '  Build server ');
      await click(byTestId(root, 'token-create'));
      await settle();
      expect(api.to('POST /api/auth/tokens')[0]?.body).toEqual({
        name: 'Build server',
        scopes: ['transfers:read', 'transfers:write', 'receive'],
      });
      const shown = byTestId<HTMLInputElement>(root, 'token-created');
      expect(shown.value).toBe('fry_9z8y_secret');
      expect(shown.readOnly).toBe(true);
      expect(root.textContent).toContain('Copy it now: it will not be shown again.');
      await click(byTestId(root, 'token-copy'));
      await settle();
      expect(writeText).toHaveBeenCalledWith('fry_9z8y_secret');
      expect(root.textContent).toContain('Token copied');
      // Listed (prefix only), and once "Done" the secret is gone from the page.
      expect(byTestId(root, 'token-row').textContent).toContain('fry_9z8y…');
      await click(byTestId(root, 'token-done'));
      expect(root.querySelector('[data-testid="token-created"]')).toBeNull();
      expect(root.innerHTML).not.toContain('fry_9z8y_secret');
    });

    it('lists tokens with their last use, and revokes one after confirmation', async () => {
      const api = mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/tokens': [
          () =>
            json([
              apiToken({ id: 't_1', name: 'Laptop CLI', lastUsedAt: '2030-02-03T04:05:00Z' }),
              apiToken({ id: 't_2', name: 'Unused' }),
            ]),
          () => json([apiToken({ id: 't_2', name: 'Unused' })]),
        ],
        'DELETE /api/auth/tokens/t_1': () => noContent(),
      });
      const root = await open('/account/integrations');
      const rows = [...root.querySelectorAll<HTMLElement>('[data-testid="token-row"]')];
      expect(rows[0]?.querySelector('[data-testid="token-last-used"]')?.textContent).toContain('2030');
      expect(rows[1]?.querySelector('[data-testid="token-last-used"]')?.textContent).toBe('Never');
      await click(rows[0]?.querySelector('[data-testid="token-revoke"]') as HTMLElement);
      await settle();
      expect(window.confirm).toHaveBeenCalledWith(
        'Revoke the token “Laptop CLI”? Programs using it will stop working at once.',
      );
      expect(api.to('DELETE /api/auth/tokens/t_1')).toHaveLength(1);
      expect(root.querySelectorAll('[data-testid="token-row"]')).toHaveLength(1);
      expect(root.textContent).toContain('The token “Laptop CLI” is revoked.');
    });

    it('creates a token with the scopes chosen, refuses none, and lists each token with its scopes', async () => {
      const api = mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/tokens': [
          () => json([apiToken({ id: 't_1', name: 'Reader', scopes: ['transfers:read'] })]),
          () =>
            json([
              apiToken({ id: 't_1', name: 'Reader', scopes: ['transfers:read'] }),
              apiToken({ id: 't_3', name: 'Admin bot', scopes: ['receive', 'admin'] }),
            ]),
        ],
        'POST /api/auth/tokens': () =>
          json(
            {
              ...apiToken({ id: 't_3', name: 'Admin bot', scopes: ['receive', 'admin'] }),
              token: 'fry_x_secret',
            },
            201,
          ),
      });
      const root = await open('/account/integrations');
      expect(byTestId(root, 'token-scopes-shown').textContent).toBe('Read transfers');
      const box = (scope: string) => byTestId<HTMLInputElement>(root, `token-scope-${scope}`);
      expect(['transfers:read', 'transfers:write', 'receive', 'admin'].map((s) => box(s).checked)).toEqual([
        true,
        true,
        true,
        false,
      ]);
      await typeInto(byTestId(root, 'token-name'), 'Admin bot');
      for (const scope of ['transfers:read', 'transfers:write', 'receive']) await click(box(scope));
      await click(byTestId(root, 'token-create'));
      await settle();
      expect(root.textContent).toContain('Choose at least one permission');
      expect(api.to('POST /api/auth/tokens')).toHaveLength(0);
      await click(box('admin'));
      await click(box('receive'));
      await click(byTestId(root, 'token-create'));
      await settle();
      expect(api.to('POST /api/auth/tokens')[0]?.body).toEqual({
        name: 'Admin bot',
        scopes: ['receive', 'admin'],
      });
      expect(root.textContent).not.toContain('Choose at least one permission');
      const shown = [...root.querySelectorAll('[data-testid="token-scopes-shown"]')].map(
        (e) => e.textContent,
      );
      expect(shown).toEqual([
        'Read transfers',
        'Receive files (inboxes, requests), Administer (billing, team settings)',
      ]);
    });

    it('reports a failed creation', async () => {
      mockApi({
        'GET /api/auth/me': () => json(signedInState()),
        'GET /api/auth/tokens': () => json([]),
        'POST /api/auth/tokens': () => coded(429, 'RATE_LIMITED', { 'Retry-After': '5' }),
      });
      const root = await open('/account/integrations');
      await typeInto(byTestId(root, 'token-name'), 'CLI');
      await click(byTestId(root, 'token-create'));
      await settle();
      expect(root.textContent).toContain('Too many attempts. Try again in about 5 seconds.');
      expect(root.querySelector('[data-testid="token-created"]')).toBeNull();
    });
  });
});
