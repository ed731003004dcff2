import type { AuthState, Permission } from '@ferry/core';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness, type FakeScreen, fakeScreen } from './dashboard.fixture';
import { DashboardLayout } from './dashboard-layout';
import { DASHBOARD_PAGES } from './dashboard-pages';

const routes = [
  {
    path: '/dashboard',
    element: <DashboardLayout />,
    children: [
      { index: true, element: <p data-testid="page">overview</p> },
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
      'Customization',
      'Inboxes',
      'API',
    ]);
    expect(byTestId(root, 'menu-inboxes').getAttribute('href')).toBe('/dashboard/admin/inboxes');
    // The API page (tokens and webhooks) is built: "API" leads to it.
    expect(byTestId(root, 'menu-api').getAttribute('href')).toBe('/dashboard/admin/api');
    expect(byTestId(root, 'menu-overview').getAttribute('aria-current')).toBe('page');
    expect(byTestId(root, 'menu-settings').getAttribute('href')).toBe('/dashboard/settings');
  });

  it('never links to a page that does not exist', async () => {
    const root = await open('/dashboard', { planType: 'TEAM' });
    const links = [...byTestId(root, 'dashboard-menu').querySelectorAll('a')];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(DASHBOARD_PAGES.has(link.getAttribute('href') ?? '')).toBe(true);
    expect(byTestId(root, 'menu-transfers').getAttribute('href')).toBe('/dashboard/transfers');
    expect(byTestId(root, 'menu-address_book').getAttribute('href')).toBe('/dashboard/address-book');
    expect(byTestId(root, 'menu-customization').getAttribute('href')).toBe('/dashboard/customization');
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
    expect(byTestId(root, 'menu-api').getAttribute('href')).toBe('/dashboard/admin/api');
    expect(byTestId(root, 'page').textContent).toBe('other');
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

  describe('by permission (spec §6, as the server allows each page)', () => {
    const member = (permissions: Permission[]): Partial<AuthState> => ({
      planType: 'TEAM',
      managerId: 'u_boss',
      authorization: { managerId: 'u_boss', permissions },
    });
    const adminIds = (root: HTMLElement) =>
      [...listOf(root, 'admin').querySelectorAll('[data-testid^="menu-"]')].map((e) =>
        e.getAttribute('data-testid'),
      );
    /** The pages that are built show as links, never with a "Soon" badge. */
    const expectBuiltAsLinks = (root: HTMLElement) => {
      for (const entry of listOf(root, 'admin').querySelectorAll('[data-testid^="menu-"]')) {
        const built = entry.tagName === 'A';
        if (built) expect(entry.querySelector('.badge'), entry.textContent ?? '').toBeNull();
        else expect(entry.textContent).toContain('Soon');
      }
      for (const id of [
        'menu-admin_overview',
        'menu-admin_transfer_settings',
        'menu-security_logs',
        'menu-users',
        'menu-user_groups',
        'menu-authentication',
        'menu-inboxes',
        'menu-api',
      ]) {
        const entry = root.querySelector(`[data-testid="${id}"]`);
        if (entry) expect(entry.tagName, id).toBe('A');
      }
    };

    it('gives the manager every administration page, the built ones as links', async () => {
      const root = await open('/dashboard/admin', { planType: 'TEAM' });
      expect(adminIds(root)).toEqual([
        'menu-admin_overview',
        'menu-admin_transfers',
        'menu-admin_transfer_settings',
        'menu-security_logs',
        'menu-users',
        'menu-user_groups',
        'menu-customization',
        'menu-inboxes',
        'menu-api',
        'menu-authentication',
      ]);
      expectBuiltAsLinks(root);
      expect(byTestId(root, 'menu-admin_overview').getAttribute('href')).toBe('/dashboard/admin');
      expect(byTestId(root, 'menu-users').getAttribute('href')).toBe('/dashboard/admin/users');
      expect(byTestId(root, 'menu-authentication').getAttribute('href')).toBe(
        '/dashboard/admin/authentication',
      );
      expect(byTestId(root, 'page').textContent).toBe('other');
    });

    it('gives a TRANSFER_MANAGER member the overview and the transfer pages', async () => {
      const root = await open('/dashboard/admin/transfers/settings', member(['TRANSFER_MANAGER']));
      expect(adminIds(root)).toEqual([
        'menu-admin_overview',
        'menu-admin_transfers',
        'menu-admin_transfer_settings',
        'menu-customization',
        'menu-inboxes',
        'menu-api',
      ]);
      expectBuiltAsLinks(root);
      expect(byTestId(root, 'menu-admin_transfer_settings').getAttribute('aria-current')).toBe('page');
      expect(byTestId(root, 'page').textContent).toBe('other');
    });

    it('gives a USER_MANAGER member the overview and the people pages', async () => {
      const root = await open('/dashboard/admin/users', member(['USER_MANAGER']));
      expect(adminIds(root)).toEqual([
        'menu-admin_overview',
        'menu-security_logs',
        'menu-users',
        'menu-user_groups',
        'menu-customization',
        'menu-inboxes',
        'menu-api',
        'menu-authentication',
      ]);
      expectBuiltAsLinks(root);
      expect(byTestId(root, 'page').textContent).toBe('other');
    });

    it('gives a member without permission (or with BILLING only) only customization, inboxes and api', async () => {
      for (const permissions of [[], ['BILLING']] as Permission[][]) {
        const root = await open('/dashboard/admin/inboxes', member(permissions));
        expect(adminIds(root)).toEqual(['menu-customization', 'menu-inboxes', 'menu-api']);
        expectBuiltAsLinks(root);
        await view.unmount();
      }
    });

    it.each([
      ['/dashboard/admin', []],
      ['/dashboard/admin/users', ['TRANSFER_MANAGER']],
      ['/dashboard/admin/security-logs', ['BILLING']],
      ['/dashboard/admin/transfers/settings', ['USER_MANAGER']],
    ] as [string, Permission[]][])(
      'tells a member opening %s by its address without the permission (%o) that it is not for them',
      async (path, permissions) => {
        const root = await open(path, member(permissions));
        expect(root.querySelector('[data-testid="page"]')).toBeNull();
        const page = byTestId(root, 'page-no-access');
        expect(page.querySelector('h1')?.textContent).toBe('You do not have access to this page');
        expect(page.querySelector('a')?.getAttribute('href')).toBe('/dashboard');
        // The menu stays, to go elsewhere.
        expect(byTestId(root, 'menu-inboxes').getAttribute('href')).toBe('/dashboard/admin/inboxes');
      },
    );

    it('tells a user without a team the same on an administration page', async () => {
      const root = await open('/dashboard/admin/users', { planType: 'PREMIUM' });
      expect(byTestId(root, 'page-no-access')).toBeTruthy();
      expect(root.querySelector('[data-testid="menu-section-admin"]')).toBeNull();
    });

    it('shows the page again once the member may use it (a new page, the same layout)', async () => {
      const root = await open('/dashboard/admin/users', member(['USER_MANAGER']));
      expect(byTestId(root, 'page').textContent).toBe('other');
      await go('/dashboard/admin/transfers/settings');
      expect(byTestId(root, 'page-no-access')).toBeTruthy();
      await go('/dashboard/admin/api');
      expect(byTestId(root, 'page').textContent).toBe('other');
    });
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
