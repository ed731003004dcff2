import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, noContent } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { apiToken, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { RequireAuth } from '../auth/require-auth';
import { ApiPage } from './api-page';

const routes = [
  { element: <RequireAuth />, children: [{ path: '/dashboard/admin/api', element: <ApiPage /> }] },
];

const hook = (overrides: Record<string, unknown> = {}) => ({
  id: 'wh_1',
  url: 'https://hooks.example.com/ferry',
  events: ['DOWNLOADED'],
  team: false,
  createdAt: '2030-01-01T10:00:00.000Z',
  ...overrides,
});
const delivery = (overrides: Record<string, unknown> = {}) => ({
  id: 'whd_1',
  webhookId: 'wh_1',
  event: 'DOWNLOADED',
  status: 'failed',
  attempts: 7,
  responseCode: 503,
  lastError: 'HTTP 503',
  nextAttemptAt: null,
  createdAt: '2030-01-01T10:00:00.000Z',
  deliveredAt: null,
  ...overrides,
});

describe('/dashboard/admin/api', () => {
  let view: Rendered;
  beforeEach(() => {
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });
  async function open() {
    view = await render(authHarness(routes, '/dashboard/admin/api').ui);
    await settle();
    return view.container;
  }

  it('lists tokens with their scopes and adds a webhook for chosen events, showing its secret once', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/auth/tokens': () => json([apiToken({ name: 'Deploy', scopes: ['admin'] })]),
      'GET /api/user/webhooks': [() => json([]), () => json([hook({ events: ['AVAILABLE', 'DOWNLOADED'] })])],
      'POST /api/user/webhooks': () =>
        json({ ...hook({ events: ['AVAILABLE', 'DOWNLOADED'] }), secret: 'whsec_shown_once' }, 201),
    });
    const root = await open();
    expect(byTestId(root, 'token-scopes-shown').textContent).toBe('Administer (billing, team settings)');
    expect(byTestId(root, 'webhooks-empty').textContent).toBe('You have no webhooks yet.');
    await click(byTestId(root, 'webhook-create'));
    expect(root.textContent).toContain('Enter the https:// address to deliver to');
    await typeInto(byTestId(root, 'webhook-url'), 'https://hooks.example.com/ferry');
    await click(byTestId(root, 'webhook-all-events'));
    await click(byTestId(root, 'webhook-create'));
    expect(root.textContent).toContain('Choose at least one event');
    expect(api.to('POST /api/user/webhooks')).toHaveLength(0);
    await click(byTestId(root, 'webhook-event-DOWNLOADED'));
    await click(byTestId(root, 'webhook-event-AVAILABLE'));
    await click(byTestId(root, 'webhook-create'));
    await settle();
    expect(api.to('POST /api/user/webhooks')[0]?.body).toEqual({
      url: 'https://hooks.example.com/ferry',
      events: ['AVAILABLE', 'DOWNLOADED'],
    });
    expect(byTestId<HTMLInputElement>(root, 'webhook-secret').value).toBe('whsec_shown_once');
    expect(root.textContent).toContain('it will not be shown again');
    await click(byTestId(root, 'webhook-secret-copy'));
    await settle();
    expect(writeText).toHaveBeenCalledWith('whsec_shown_once');
    expect(root.textContent).toContain('Secret copied');
    expect(byTestId(root, 'webhook-row').textContent).toContain('AVAILABLE, DOWNLOADED');
    await click(byTestId(root, 'webhook-done'));
    expect(root.innerHTML).not.toContain('whsec_shown_once');
  });

  it('shows the delivery log, replays a delivery, and removes a webhook after confirmation', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/auth/tokens': () => json([]),
      'GET /api/user/webhooks': [() => json([hook()]), () => json([])],
      'GET /api/user/webhooks/wh_1/deliveries': [
        () => json([delivery()]),
        () => json([delivery({ status: 'pending', attempts: 0, responseCode: null, lastError: null })]),
      ],
      'POST /api/user/webhooks/deliveries/whd_1/replay': () =>
        json(delivery({ status: 'pending', attempts: 0 })),
      'DELETE /api/user/webhooks/wh_1': () => noContent(),
    });
    const root = await open();
    const toggle = byTestId(root, 'webhook-deliveries');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await click(toggle);
    await settle();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(byTestId(root, 'delivery-row').textContent).toContain('Failed');
    expect(byTestId(root, 'delivery-row').textContent).toContain('503');
    await click(byTestId(root, 'delivery-replay'));
    await settle();
    expect(api.to('POST /api/user/webhooks/deliveries/whd_1/replay')).toHaveLength(1);
    expect(root.textContent).toContain('The delivery will be sent again.');
    expect(byTestId(root, 'delivery-row').textContent).toContain('Pending');
    await click(byTestId(root, 'webhook-remove'));
    await settle();
    expect(window.confirm).toHaveBeenCalledWith(
      'Remove the webhook https://hooks.example.com/ferry? Its delivery log goes with it.',
    );
    expect(api.to('DELETE /api/user/webhooks/wh_1')).toHaveLength(1);
    expect(byTestId(root, 'webhooks-empty')).toBeTruthy();
  });

  it("gives a team's manager the team's tokens: created with scopes, shown once, revoked", async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'TEAM' })),
      'GET /api/auth/tokens': () => json([]),
      'GET /api/user/webhooks': () => json([]),
      'GET /api/team/u_1/tokens': [
        () => json([]),
        () => json([apiToken({ id: 'tt_1', name: 'Nightly export', scopes: ['transfers:read'] })]),
        () => json([]),
      ],
      'POST /api/team/u_1/tokens': () =>
        json(
          {
            ...apiToken({ id: 'tt_1', name: 'Nightly export', scopes: ['transfers:read'] }),
            token: 'fry_team_secret_shown_once',
          },
          201,
        ),
      'DELETE /api/team/u_1/tokens/tt_1': () => noContent(),
    });
    const root = await open();
    const team = byTestId(root, 'team-tokens-section');
    expect(team.textContent).toContain('Team tokens');
    expect(byTestId(team, 'tokens-empty').textContent).toBe('The team has no tokens yet.');
    await typeInto(byTestId(team, 'token-name'), 'Nightly export');
    // Only reading: untick the other default scopes.
    for (const scope of ['transfers:write', 'receive']) await click(byTestId(team, `token-scope-${scope}`));
    await click(byTestId(team, 'token-create'));
    await settle();
    expect(api.to('POST /api/team/u_1/tokens')[0]?.body).toEqual({
      name: 'Nightly export',
      scopes: ['transfers:read'],
    });
    expect(api.to('POST /api/auth/tokens')).toHaveLength(0);
    expect(byTestId(team, 'token-created-panel').textContent).toContain('Nightly export');
    expect(team.innerHTML).toContain('fry_team_secret_shown_once');
    await click(byTestId(team, 'token-revoke'));
    await settle();
    expect(api.to('DELETE /api/team/u_1/tokens/tt_1')).toHaveLength(1);
    expect(team.innerHTML).not.toContain('fry_team_secret_shown_once');
  });

  it('shows no team tokens to a member or to an account without a team', async () => {
    for (const state of [
      signedInState({ planType: 'TEAM', managerId: 'm_1' }),
      signedInState({ planType: 'PREMIUM' }),
    ]) {
      mockApi({
        'GET /api/auth/me': () => json(state),
        'GET /api/auth/tokens': () => json([]),
        'GET /api/user/webhooks': () => json([]),
      });
      const root = await open();
      expect(byTestId(root, 'tokens-section')).toBeTruthy();
      expect(root.querySelector('[data-testid="team-tokens-section"]')).toBeNull();
      await view.unmount();
    }
  });
});
