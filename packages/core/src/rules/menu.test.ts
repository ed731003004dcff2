import { describe, expect, it } from 'vitest';
import { PLAN_TYPES } from '../enums.js';
import {
  DASHBOARD_MENU_ITEM_IDS,
  dashboardMenu,
  expandedDashboardMenu,
  hasTeamFeatures,
  type MenuViewer,
  normalizeMenuPath,
  teamFeaturesSection,
} from './menu.js';

const free: MenuViewer = { planType: 'NONE', managerId: null };
const premium: MenuViewer = { planType: 'PREMIUM', managerId: null };
const team: MenuViewer = { planType: 'TEAM', managerId: null };
const enterprise: MenuViewer = { planType: 'ENTERPRISE', managerId: null };
const member: MenuViewer = { planType: 'PREMIUM', managerId: 'u_manager' };
const freeMember: MenuViewer = { planType: 'NONE', managerId: 'u_manager' };

const withTeamFeatures = [team, enterprise, member, freeMember];
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
      hasTeamFeatures({ planType, managerId: null }),
      hasTeamFeatures({ planType, managerId: 'm' }),
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
    for (const viewer of withTeamFeatures) {
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

  it('gives every item a distinct id, and uses every id there is', () => {
    const menu = dashboardMenu(team);
    const ids = [...menu.main, ...menu.admin].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...DASHBOARD_MENU_ITEM_IDS].sort());
  });
});
