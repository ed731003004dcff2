import { describe, expect, it } from 'vitest';
import { PERMISSIONS, PLAN_TYPES } from '../enums.js';
import {
  ADMIN_PAGE_PERMISSIONS,
  DASHBOARD_MENU_ITEM_IDS,
  dashboardMenu,
  expandedDashboardMenu,
  hasTeamFeatures,
  isTeamManager,
  type MenuViewer,
  mayUseDashboardPage,
  menuViewerOf,
  normalizeMenuPath,
  teamFeaturesSection,
} from './menu.js';

// The server resolves a user without a manager to every permission (spec §6), as it does a member given none.
const ALL = PERMISSIONS;
const free: MenuViewer = { planType: 'NONE', managerId: null, permissions: ALL };
const premium: MenuViewer = { planType: 'PREMIUM', managerId: null, permissions: ALL };
const team: MenuViewer = { planType: 'TEAM', managerId: null, permissions: ALL };
const enterprise: MenuViewer = { planType: 'ENTERPRISE', managerId: null, permissions: ALL };
const member: MenuViewer = { planType: 'PREMIUM', managerId: 'u_manager', permissions: ALL };
const freeMember: MenuViewer = { planType: 'NONE', managerId: 'u_manager', permissions: ALL };
const transferManager: MenuViewer = {
  planType: 'TEAM',
  managerId: 'u_manager',
  permissions: ['TRANSFER_MANAGER'],
};
const userManager: MenuViewer = { planType: 'TEAM', managerId: 'u_manager', permissions: ['USER_MANAGER'] };
const billing: MenuViewer = { planType: 'TEAM', managerId: 'u_manager', permissions: ['BILLING'] };
const plainMember: MenuViewer = { planType: 'PREMIUM', managerId: 'u_manager', permissions: [] };

const withTeamFeatures = [
  team,
  enterprise,
  member,
  freeMember,
  transferManager,
  userManager,
  billing,
  plainMember,
];
const withoutTeamFeatures = [free, premium];

describe('hasTeamFeatures / teamFeaturesSection (spec §6)', () => {
  it.each(withTeamFeatures)(
    'a team or enterprise plan, or a manager, puts them in the admin menu (%o)',
    (v) => {
      expect(hasTeamFeatures(v)).toBe(true);
      expect(teamFeaturesSection(v)).toBe('admin');
    },
  );

  it.each(withoutTeamFeatures)('anyone else gets them under the main menu (%o)', (v) => {
    expect(hasTeamFeatures(v)).toBe(false);
    expect(teamFeaturesSection(v)).toBe('main');
  });

  it('decides on the plan and the manager only, for every plan', () => {
    const table = PLAN_TYPES.map((planType) => [
      planType,
      hasTeamFeatures({ planType, managerId: null, permissions: [] }),
      hasTeamFeatures({ planType, managerId: 'm', permissions: [] }),
    ]);
    expect(table).toEqual([
      ['NONE', false, true],
      ['PREMIUM', false, true],
      ['TEAM', true, true],
      ['ENTERPRISE', true, true],
    ]);
  });
});

describe('expandedDashboardMenu (spec §2)', () => {
  const mainPaths = [
    '/dashboard',
    '/dashboard/transfers',
    '/dashboard/settings',
    '/dashboard/address-book',
    '/dashboard/contact-groups',
  ];

  it.each(mainPaths)('expands the main menu on %s, whatever the plan', (path) => {
    for (const viewer of [...withTeamFeatures, ...withoutTeamFeatures]) {
      expect(expandedDashboardMenu(path, viewer)).toBe('main');
    }
  });

  it.each(['/dashboard/customization', '/dashboard/admin/inboxes', '/dashboard/admin/api'])(
    'on %s: main without team features, admin with them',
    (path) => {
      for (const viewer of withoutTeamFeatures) expect(expandedDashboardMenu(path, viewer)).toBe('main');
      for (const viewer of withTeamFeatures) expect(expandedDashboardMenu(path, viewer)).toBe('admin');
    },
  );

  it('counts the subpaths of admin inboxes as admin inboxes', () => {
    expect(expandedDashboardMenu('/dashboard/admin/inboxes/abc/edit', free)).toBe('main');
    expect(expandedDashboardMenu('/dashboard/admin/inboxes/abc/edit', team)).toBe('admin');
  });

  it.each([
    '/dashboard/admin',
    '/dashboard/admin/transfers',
    '/dashboard/admin/transfers/settings',
    '/dashboard/admin/security-logs',
    '/dashboard/admin/users',
    '/dashboard/admin/user-groups',
    '/dashboard/admin/authentication',
    '/dashboard/unknown',
    '/dashboard/transfers-archive',
    '/dashboard/admin/api-keys',
  ])('expands the admin menu on every other path (%s), for everyone', (path) => {
    for (const viewer of [...withTeamFeatures, ...withoutTeamFeatures]) {
      expect(expandedDashboardMenu(path, viewer)).toBe('admin');
    }
  });

  it('keeps the main menu below its sections (a transfer detail), not below /dashboard itself', () => {
    expect(expandedDashboardMenu('/dashboard/transfers/AbCdEf', team)).toBe('main');
    expect(expandedDashboardMenu('/dashboard/address-book/c_1', team)).toBe('main');
    expect(expandedDashboardMenu('/dashboard/whatever', free)).toBe('admin');
  });

  it('ignores a trailing slash, letter case, the query and the hash', () => {
    expect(expandedDashboardMenu('/dashboard/', team)).toBe('main');
    expect(expandedDashboardMenu('/Dashboard/Settings', team)).toBe('main');
    expect(expandedDashboardMenu('/dashboard/address-book#my-groups', team)).toBe('main');
    expect(expandedDashboardMenu('/dashboard/customization?x=1', free)).toBe('main');
    expect(expandedDashboardMenu('/dashboard/customization/', team)).toBe('admin');
  });
});

describe('normalizeMenuPath', () => {
  it('lower-cases and drops trailing slashes, query and hash', () => {
    expect(normalizeMenuPath('/Dashboard//')).toBe('/dashboard');
    expect(normalizeMenuPath('/')).toBe('/');
    expect(normalizeMenuPath('')).toBe('/');
    expect(normalizeMenuPath('/dashboard?a=b#c')).toBe('/dashboard');
  });
});

describe('dashboardMenu (spec §2, §6)', () => {
  const paths = (items: { path: string }[]) => items.map((item) => item.path);

  it('lists customization, inboxes and api under the main menu, and no admin menu, without team features', () => {
    for (const viewer of withoutTeamFeatures) {
      const menu = dashboardMenu(viewer);
      expect(paths(menu.main)).toEqual([
        '/dashboard',
        '/dashboard/transfers',
        '/dashboard/settings',
        '/dashboard/address-book',
        '/dashboard/contact-groups',
        '/dashboard/customization',
        '/dashboard/admin/inboxes',
        '/dashboard/admin/api',
      ]);
      expect(menu.admin).toEqual([]);
    }
  });

  it('moves them to the admin menu, with the admin routes, for team, enterprise and managed users', () => {
    for (const viewer of [team, enterprise, member, freeMember]) {
      const menu = dashboardMenu(viewer);
      expect(paths(menu.main)).toEqual([
        '/dashboard',
        '/dashboard/transfers',
        '/dashboard/settings',
        '/dashboard/address-book',
        '/dashboard/contact-groups',
      ]);
      expect(paths(menu.admin)).toEqual([
        '/dashboard/admin',
        '/dashboard/admin/transfers',
        '/dashboard/admin/transfers/settings',
        '/dashboard/admin/security-logs',
        '/dashboard/admin/users',
        '/dashboard/admin/user-groups',
        '/dashboard/customization',
        '/dashboard/admin/inboxes',
        '/dashboard/admin/api',
        '/dashboard/admin/authentication',
      ]);
    }
  });

  it('expands the section that lists the page the user is on', () => {
    for (const viewer of [...withTeamFeatures, ...withoutTeamFeatures]) {
      const menu = dashboardMenu(viewer);
      for (const section of ['main', 'admin'] as const) {
        for (const item of menu[section]) {
          expect(expandedDashboardMenu(item.path, viewer), `${item.path} ${JSON.stringify(viewer)}`).toBe(
            section,
          );
        }
      }
    }
  });

  const adminPaths = (viewer: MenuViewer) => paths(dashboardMenu(viewer).admin);
  const mainPaths = (viewer: MenuViewer) => paths(dashboardMenu(viewer).main);
  const OWN_PAGES = ['/dashboard/customization', '/dashboard/admin/inboxes', '/dashboard/admin/api'];

  it('gives a TRANSFER_MANAGER member the overview and the transfer pages, besides their own pages', () => {
    expect(adminPaths(transferManager)).toEqual([
      '/dashboard/admin',
      '/dashboard/admin/transfers',
      '/dashboard/admin/transfers/settings',
      ...OWN_PAGES,
    ]);
  });

  it('gives a USER_MANAGER member the overview and the people pages, besides their own pages', () => {
    expect(adminPaths(userManager)).toEqual([
      '/dashboard/admin',
      '/dashboard/admin/security-logs',
      '/dashboard/admin/users',
      '/dashboard/admin/user-groups',
      ...OWN_PAGES,
      '/dashboard/admin/authentication',
    ]);
  });

  it('gives a member with both the union of the two', () => {
    const both: MenuViewer = { ...userManager, permissions: ['USER_MANAGER', 'TRANSFER_MANAGER'] };
    expect(adminPaths(both)).toEqual(adminPaths(team));
  });

  it('gives a member with BILLING only, or no permission, only customization, inboxes and api', () => {
    for (const viewer of [billing, plainMember]) expect(adminPaths(viewer)).toEqual(OWN_PAGES);
  });

  it('leaves the main menu the same whatever the permissions', () => {
    for (const viewer of [transferManager, userManager, billing, plainMember]) {
      expect(mainPaths(viewer)).toEqual(mainPaths(team));
    }
  });

  it('gives every item a distinct id, and uses every id there is', () => {
    const menu = dashboardMenu(team);
    const ids = [...menu.main, ...menu.admin].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...DASHBOARD_MENU_ITEM_IDS].sort());
  });
});

describe('mayUseDashboardPage / isTeamManager (spec §6, as the server enforces it)', () => {
  it('lets the manager of a team or enterprise plan use every page', () => {
    for (const viewer of [team, enterprise]) {
      expect(isTeamManager(viewer)).toBe(true);
      for (const path of Object.keys(ADMIN_PAGE_PERMISSIONS))
        expect(mayUseDashboardPage(path, viewer)).toBe(true);
    }
  });

  it('gives no administration page to a user without a team, whatever permissions the state lists', () => {
    for (const viewer of [free, premium]) {
      expect(isTeamManager(viewer)).toBe(false);
      for (const path of Object.keys(ADMIN_PAGE_PERMISSIONS))
        expect(mayUseDashboardPage(path, viewer)).toBe(false);
    }
  });

  it('is no manager with a manager of its own, even on a team plan', () => {
    expect(isTeamManager(transferManager)).toBe(false);
    expect(isTeamManager(member)).toBe(false);
  });

  it.each([
    ['/dashboard/admin', true, true, false, false],
    ['/dashboard/admin/transfers', true, false, false, false],
    ['/dashboard/admin/transfers/settings', true, false, false, false],
    ['/dashboard/admin/security-logs', false, true, false, false],
    ['/dashboard/admin/users', false, true, false, false],
    ['/dashboard/admin/user-groups', false, true, false, false],
    ['/dashboard/admin/authentication', false, true, false, false],
    ['/dashboard/admin/inboxes', true, true, true, true],
    ['/dashboard/admin/inboxes/abc', true, true, true, true],
    ['/dashboard/admin/api', true, true, true, true],
    ['/dashboard/customization', true, true, true, true],
    ['/dashboard/settings', true, true, true, true],
  ] as const)('on %s: TRANSFER_MANAGER %s, USER_MANAGER %s, BILLING %s, none %s', (path, t, u, b, n) => {
    expect(mayUseDashboardPage(path, transferManager)).toBe(t);
    expect(mayUseDashboardPage(path, userManager)).toBe(u);
    expect(mayUseDashboardPage(path, billing)).toBe(b);
    expect(mayUseDashboardPage(path, plainMember)).toBe(n);
  });

  it('reads the path as the router does (case, trailing slash, query)', () => {
    expect(mayUseDashboardPage('/Dashboard/Admin/Users/', transferManager)).toBe(false);
    expect(mayUseDashboardPage('/dashboard/admin/users?x=1', userManager)).toBe(true);
  });

  it('names exactly the administration items of the menu', () => {
    const menu = dashboardMenu(team);
    const guarded = menu.admin.map((item) => item.path).filter((path) => path in ADMIN_PAGE_PERMISSIONS);
    expect(guarded.sort()).toEqual(Object.keys(ADMIN_PAGE_PERMISSIONS).sort());
  });
});

describe('menuViewerOf', () => {
  it('takes the plan, the manager and the authorization’s permissions of an auth state', () => {
    expect(
      menuViewerOf({
        planType: 'TEAM',
        managerId: 'u_boss',
        authorization: { managerId: 'u_boss', permissions: ['USER_MANAGER'] },
      }),
    ).toEqual({ planType: 'TEAM', managerId: 'u_boss', permissions: ['USER_MANAGER'] });
  });
});
