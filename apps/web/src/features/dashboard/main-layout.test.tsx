import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../router';
import { json, mockApi } from '../../test/api-mock';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, until } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness, type FakeScreen, fakeScreen } from './dashboard.fixture';
import { forgetReturnPage } from './return-page';

/** The app's own routes (router.tsx): the uploader behind, the panel, the dashboard pages. */
describe('main layout: the sliding panel over the uploader (spec §2)', () => {
  let view: Rendered;
  let screen: FakeScreen;
  let harness: ReturnType<typeof appHarness>;

  beforeEach(() => {
    localStorage.clear();
    forgetReturnPage();
    screen = fakeScreen();
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
    });
  });
  afterEach(async () => {
    await view?.unmount();
    screen.restore();
    vi.unstubAllGlobals();
  });

  const find = (selector: string) => view.container.querySelector<HTMLElement>(selector);

  async function open(path: string) {
    harness = appHarness(routes, path);
    view = await render(harness.ui);
    return view.container;
  }

  async function go(path: string) {
    await act(async () => {
      await harness.router.navigate(path);
    });
  }

  it('opens /dashboard/settings in a two-third panel, with the menu, beside the uploader', async () => {
    const root = await open('/dashboard/settings');
    await until(() => find('[data-testid="page-dashboard-settings"]') !== null, 'the settings page', 5000);
    expect(byTestId(root, 'main-frame').dataset.panel).toBe('two_third');
    expect(byTestId(root, 'slide-panel').dataset.state).toBe('two_third');
    expect(byTestId(root, 'dashboard-menu')).toBeTruthy();
    const behind = byTestId(root, 'panel-behind');
    expect(behind.hidden).toBe(false);
    expect(behind.hasAttribute('inert')).toBe(false);
    expect(behind.querySelector('.upload-panel')).not.toBeNull();
  });

  it('keeps the uploader mounted while the panel opens and closes; close slides out, then returns to it', async () => {
    const root = await open('/#S2');
    await until(() => find('.upload-panel') !== null, 'the uploader', 5000);
    const uploader = find('.upload-panel');
    expect(find('[data-testid="slide-panel"]')).toBeNull();
    expect(byTestId(root, 'main-frame').dataset.panel).toBe('closed');

    await go('/dashboard');
    await until(() => find('[data-testid="page-dashboard"]') !== null, 'the overview', 5000);
    expect(find('.upload-panel')).toBe(uploader);

    await click(byTestId(root, 'slide-panel-close'));
    expect(byTestId(root, 'slide-panel').dataset.phase).toBe('closing');
    expect(harness.router.state.location.pathname).toBe('/dashboard');
    await until(() => find('[data-testid="slide-panel"]') === null, 'the panel to close', 2000);
    const { pathname, hash } = harness.router.state.location;
    expect(`${pathname}${hash}`).toBe('/#S2');
    expect(find('.upload-panel')).toBe(uploader);
  });

  it('is full on a phone, with the uploader hidden and inert, and two thirds again on a wide screen', async () => {
    await screen.set({ mobile: true });
    const root = await open('/dashboard');
    await until(() => find('[data-testid="page-dashboard"]') !== null, 'the overview', 5000);
    expect(byTestId(root, 'main-frame').dataset.panel).toBe('full');
    const behind = byTestId(root, 'panel-behind');
    expect(behind.hidden).toBe(true);
    expect(behind.hasAttribute('inert')).toBe(true);
    await screen.set({ mobile: false });
    expect(byTestId(root, 'main-frame').dataset.panel).toBe('two_third');
    expect(behind.hidden).toBe(false);
  });

  it('scrolls to the top on each route change inside the panel', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    await open('/dashboard');
    await until(() => find('[data-testid="page-dashboard"]') !== null, 'the overview', 5000);
    scrollTo.mockClear();
    await go('/dashboard/settings');
    await until(() => find('[data-testid="page-dashboard-settings"]') !== null, 'the settings', 5000);
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('shows the account pages in the panel too, with the way to the dashboard', async () => {
    const root = await open('/account/profile');
    await until(() => find('[data-testid="page-account-profile"]') !== null, 'the profile', 5000);
    expect(byTestId(root, 'slide-panel').contains(byTestId(root, 'page-account-profile'))).toBe(true);
    expect(byTestId(root, 'account-nav-dashboard').getAttribute('href')).toBe('/dashboard');
  });

  it('draws every spec dashboard page (customization too), and any other path as not found', async () => {
    await open('/dashboard/customization');
    await until(() => find('[data-testid="page-dashboard-customization"]') !== null, 'customization', 5000);
    await go('/dashboard/nothing-here');
    await until(() => find('[data-testid="page-dashboard-not-found"]') !== null, 'not found', 5000);
  });

  it('sends a signed-out visitor to sign in first', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    await open('/dashboard/settings');
    await until(() => harness.router.state.location.pathname === '/signin', 'the sign-in page', 5000);
    expect(harness.router.state.location.search).toContain('next=');
  });
});
