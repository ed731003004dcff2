import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, type Handler, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, until } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness, limitsAnswer } from './dashboard.fixture';
import { OverviewPage, storageShare } from './overview-page';

const routes = [{ path: '/dashboard', element: <OverviewPage /> }];
const premium = signedInState({ planType: 'PREMIUM', payingUser: true });

describe('/dashboard overview', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(auth = signedInState(), extra: Record<string, Handler | Handler[]> = {}) {
    const api = mockApi({
      'GET /api/auth/me': () => json(auth),
      'GET /api/user/users/u_1': () => json(userProfile()),
      ...extra,
    });
    view = await render(appHarness(routes, '/dashboard').ui);
    await settle();
    return { root: view.container, api };
  }

  it('greets the user by name, shows the plan and links to the transfers and the settings', async () => {
    const { root } = await open();
    expect(byTestId(root, 'dashboard-greeting').textContent).toBe('Hello, Ada');
    expect(byTestId(root, 'dashboard-plan').textContent).toBe('Free');
    const hrefs = [...root.querySelectorAll('.dashboard-links a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/dashboard/transfers', '/dashboard/settings', '/account/profile']);
  });

  it('shows the free plan’s storage without asking for limits', async () => {
    const { root, api } = await open();
    expect(byTestId(root, 'storage-free').textContent).toBe(
      'On the free plan, your transfers can hold up to 100 GB at a time.',
    );
    expect(byTestId(root, 'fact-validity').textContent).toBe('7 days');
    expect(api.calls.some((call) => call.path.startsWith('/api/transfer/limits'))).toBe(false);
  });

  it('shows a paying user’s storage in use against the plan’s limit', async () => {
    const { root, api } = await open(premium, {
      'GET /api/transfer/limits/u_1': () => json(limitsAnswer({ storageUsed: 250e9, storage: 1000e9 })),
    });
    expect(byTestId(root, 'storage-text').textContent).toBe('250 GB used of 1.00 TB');
    expect(byTestId(root, 'storage-meter').getAttribute('value')).toBe('25');
    expect(byTestId(root, 'fact-validity').textContent).toBe('365 days');
    expect(api.to('GET /api/transfer/limits/u_1')).toHaveLength(1);
    expect(root.querySelector('[data-testid="storage-full"]')).toBeNull();
  });

  it('asks for a team member’s limits under the manager’s id, and warns when the storage is full', async () => {
    const member = signedInState({
      planType: 'TEAM',
      payingUser: true,
      managerId: 'u_boss',
      authorization: { managerId: 'u_boss', permissions: [] },
    });
    const { root } = await open(member, {
      'GET /api/user/users/u_boss': () => json(userProfile({ uid: 'u_boss' })),
      'GET /api/transfer/limits/u_boss': () =>
        json(limitsAnswer({ planType: 'TEAM', storageUsed: 2100e9, storage: 2000e9 })),
    });
    expect(byTestId(root, 'storage-text').textContent).toBe('2.10 TB used of 2.00 TB');
    expect(byTestId(root, 'storage').textContent).toContain('Shared by everyone in your team.');
    expect(byTestId(root, 'storage-full')).toBeTruthy();
  });

  it('says when the limits cannot be loaded, and tries again', async () => {
    const { root } = await open(premium, {
      'GET /api/transfer/limits/u_1': [() => coded(503, 'UNAVAILABLE'), () => json(limitsAnswer())],
    });
    const error = byTestId(root, 'storage-error');
    await click(error.querySelector('button') as HTMLElement);
    await until(() => root.querySelector('[data-testid="storage-text"]') !== null, 'the storage');
  });

  it('shows that the storage is loading', async () => {
    const { root } = await open(premium, {
      'GET /api/transfer/limits/u_1': () => new Promise<Response>(() => {}),
    });
    expect(byTestId(root, 'storage-loading').getAttribute('aria-busy')).toBe('true');
  });
});

describe('storageShare', () => {
  it('is the share in use, between 0 and 100', () => {
    expect(storageShare(25, 100)).toBe(25);
    expect(storageShare(150, 100)).toBe(100);
    expect(storageShare(0, 0)).toBe(0);
    expect(storageShare(1, 0)).toBe(100);
  });
});
