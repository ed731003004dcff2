import type { AuthState } from '@ferry/core';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { ComingPage } from './coming-page';
import { appHarness, type FakeScreen, fakeScreen } from './dashboard.fixture';
import { DashboardLayout } from './dashboard-layout';
import { DASHBOARD_ELSEWHERE, DASHBOARD_PAGES } from './dashboard-pages';

const routes = [
  {
    path: '/dashboard',
    element: <DashboardLayout />,
    children: [
      { index: true, element: <p data-testid="page">overview</p> },
      { path: 'admin/api', element: <ComingPage /> },
      { path: '*', element: <p data-testid="page">other</p> },
    ],
  },
];

describe('dashboard menu (spec §2, §6)', () => {
  let view: Rendered;
  let screen: FakeScreen;
  let harness: ReturnType<typeof appHarness>;
  beforeEach(() => {
    screen = fakeScreen();
  });
  afterEach(async () => {
    await view?.unmount();
    screen.restore();
    vi.unstubAllGlobals();
  });

  async function open(path: string, auth: Partial<AuthState> = {}) {
    mockApi({
      'GET /api/auth/me': () => json(signedInState(auth)),
      'GET /api/user/users/u_1': () => json(userProfile()),
    });
    harness = appHarness(routes, path);
    view = await render(harness.ui);
    await settle();
    return view.container;
  }

  async function go(path: string) {
    await act(async () => {
      await harness.router.navigate(path);
    });
  }

  const expanded = (root: HTMLElement, section: 'main' | 'admin') =>
    byTestId(root, `menu-heading-${section}`).getAttribute('aria-expanded');
  const listOf = (root: HTMLElement, section: 'main' | 'admin') =>
    byTestId(root, `menu-section-${section}`).querySelector('ul') as HTMLUListElement;

  it('gives a free user one menu, expanded, with customization, inboxes and api in it', async () => {
    const root = await open('/dashboard');
    expect(root.querySelector('[data-testid="menu-section-admin"]')).toBeNull();
    expect(expanded(root, 'main')).toBe('true');
    const labels = [...listOf(root, 'main').querySelectorAll('li')].map((li) => li.textContent);
    expect(labels).toEqual([
      'Overview',
      'Transfers',
      'Settings',
      'Address book',
      'Contact groups',
      'CustomizationSoon',
      'Inboxes',
      'API',
    ]);
    expect(byTestId(root, 'menu-inboxes').getAttribute('href')).toBe('/dashboard/admin/inboxes');
    // Personal API tokens work today, under Account → Integrations: "API" leads there, not to "Soon".
    expect(byTestId(root, 'menu-api').getAttribute('href')).toBe('/account/integrations');
    expect(byTestId(root, 'menu-overview').getAttribute('aria-current')).toBe('page');
    expect(byTestId(root, 'menu-settings').getAttribute('href')).toBe('/dashboard/settings');
  });

  it('never links to a page that does not exist', async () => {
    const root = await open('/dashboard', { planType: 'TEAM' });
    const links = [...byTestId(root, 'dashboard-menu').querySelectorAll('a')];
    expect(links.length).toBeGreaterThan(0);
    const targets = new Set([...DASHBOARD_PAGES, ...Object.values(DASHBOARD_ELSEWHERE)]);
    for (const link of links) expect(targets.has(link.getAttribute('href') ?? '')).toBe(true);
    expect(byTestId(root, 'menu-transfers').getAttribute('href')).toBe('/dashboard/transfers');
    expect(byTestId(root, 'menu-address_book').getAttribute('href')).toBe('/dashboard/address-book');
    expect(byTestId(root, 'menu-customization').tagName).toBe('SPAN');
  });

  it.each([
    ['/dashboard', 'main'],
    ['/dashboard/settings', 'main'],
    ['/dashboard/transfers', 'main'],
    ['/dashboard/address-book', 'main'],
    ['/dashboard/contact-groups', 'main'],
    ['/dashboard/customization', 'admin'],
    ['/dashboard/admin/inboxes', 'admin'],
    ['/dashboard/admin/api', 'admin'],
    ['/dashboard/admin/users', 'admin'],
  ] as const)('for a team user on %s it starts with the %s menu expanded', async (path, section) => {
    const root = await open(path, { planType: 'TEAM' });
    const other = section === 'main' ? 'admin' : 'main';
    expect(expanded(root, section)).toBe('true');
    expect(expanded(root, other)).toBe('false');
    expect(listOf(root, section).hidden).toBe(false);
    expect(listOf(root, other).hidden).toBe(true);
  });

  it('puts customization, inboxes and api in the admin menu for a managed member on any plan', async () => {
    const root = await open('/dashboard/admin/api', {
      planType: 'PREMIUM',
      managerId: 'u_boss',
      authorization: { managerId: 'u_boss', permissions: [] },
    });
    expect(expanded(root, 'admin')).toBe('true');
    expect(listOf(root, 'admin').textContent).toContain('API');
    expect(listOf(root, 'main').textContent).not.toContain('API');
    expect(byTestId(root, 'page-dashboard-api').textContent).toContain('under Account → Integrations');
    expect(byTestId(root, 'api-integrations-link').getAttribute('href')).toBe('/account/integrations');
  });

  it('keeps a free user’s customization in the main menu, expanded', async () => {
    const root = await open('/dashboard/customization');
    expect(expanded(root, 'main')).toBe('true');
    expect(listOf(root, 'main').textContent).toContain('Customization');
  });

  it('lets sections be folded and unfolded, and applies the rule again on the next page', async () => {
    const root = await open('/dashboard/admin/users', { planType: 'ENTERPRISE' });
    await click(byTestId(root, 'menu-heading-main'));
    expect(expanded(root, 'main')).toBe('true');
    expect(expanded(root, 'admin')).toBe('true');
    await click(byTestId(root, 'menu-heading-admin'));
    expect(listOf(root, 'admin').hidden).toBe(true);
    await go('/dashboard/settings');
    expect(expanded(root, 'main')).toBe('true');
    expect(expanded(root, 'admin')).toBe('false');
    expect(byTestId(root, 'menu-settings').getAttribute('aria-current')).toBe('page');
  });

  describe('on a phone', () => {
    it('folds behind a button naming the page; Escape folds it back and gives focus to the button', async () => {
      await screen.set({ mobile: true });
      const root = await open('/dashboard/settings');
      const toggle = byTestId<HTMLButtonElement>(root, 'dashboard-menu-toggle');
      const sections = byTestId(root, 'dashboard-menu').querySelector(
        '.dashboard-menu-sections',
      ) as HTMLElement;
      expect(toggle.textContent).toContain('Settings');
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      expect(sections.hidden).toBe(true);
      await click(toggle);
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      expect(sections.hidden).toBe(false);
      const link = byTestId(root, 'menu-overview');
      link.focus();
      await act(async () => {
        link.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      });
      expect(sections.hidden).toBe(true);
      expect(document.activeElement).toBe(toggle);
    });

    it('names the section a deeper page belongs to (an inbox’s page: Inboxes)', async () => {
      await screen.set({ mobile: true });
      const root = await open('/dashboard/admin/inboxes/InBoXaaaaaaaaaa1/widgets/new', { planType: 'TEAM' });
      expect(byTestId(root, 'dashboard-menu-toggle').textContent).toContain('Inboxes');
    });

    it('folds again once a page is chosen', async () => {
      await screen.set({ mobile: true });
      const root = await open('/dashboard/settings');
      await click(byTestId(root, 'dashboard-menu-toggle'));
      await click(byTestId(root, 'menu-overview'));
      expect(harness.router.state.location.pathname).toBe('/dashboard');
      expect(byTestId(root, 'dashboard-menu-toggle').getAttribute('aria-expanded')).toBe('false');
    });

    it('has no toggle on a wide screen: the menu is always there', async () => {
      const root = await open('/dashboard');
      expect(root.querySelector('[data-testid="dashboard-menu-toggle"]')).toBeNull();
      expect((root.querySelector('.dashboard-menu-sections') as HTMLElement).hidden).toBe(false);
    });
  });
});
