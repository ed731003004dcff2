import type { AuthState } from '../api/auth.js';
import type { Permission, PlanType } from '../enums.js';

/** The two groups of the dashboard menu (spec §2): the user's own pages, and the team's administration. */
export type DashboardMenuSection = 'main' | 'admin';

/** What the menu rules read of the auth state (spec §3). */
export interface MenuViewer {
  planType: PlanType;
  managerId: string | null;
  /**
   * The team permissions of the auth state's `authorization` (spec §3, §6), as the server resolved them; they
   * count for a managed member only (a team's manager may do everything, a user without a team nothing).
   */
  permissions: readonly Permission[];
}

/** The viewer of an auth state (spec §3): plan, manager and the authorization's permissions. */
export function menuViewerOf(state: Pick<AuthState, 'planType' | 'managerId' | 'authorization'>): MenuViewer {
  return {
    planType: state.planType,
    managerId: state.managerId,
    permissions: state.authorization.permissions,
  };
}

/** Spec §2: the dashboard menu starts expanded on these paths. */
export const DASHBOARD_MAIN_PATHS = [
  '/dashboard',
  '/dashboard/transfers',
  '/dashboard/settings',
  '/dashboard/address-book',
  '/dashboard/contact-groups',
] as const;

/** Spec §2/§6: the pages whose menu depends on the plan (customization, admin inboxes, admin api). */
export const TEAM_FEATURE_PATHS = [
  '/dashboard/customization',
  '/dashboard/admin/inboxes',
  '/dashboard/admin/api',
] as const;

/** Spec §6: a user on a team or enterprise plan, or with a manager. */
export function hasTeamFeatures(viewer: MenuViewer): boolean {
  return viewer.planType === 'TEAM' || viewer.planType === 'ENTERPRISE' || viewer.managerId !== null;
}

/** A team's manager: team features (a team or enterprise plan) and no manager of their own. */
export function isTeamManager(viewer: MenuViewer): boolean {
  return viewer.managerId === null && hasTeamFeatures(viewer);
}

/**
 * Who may use each team administration page, as the server decides it: the team's manager, or a managed member
 * holding one of these permissions. Paths not listed (customization, admin inboxes, admin api) are for everyone
 * signed in: each shows the user's own things, and keeps its team-wide parts for the manager. BILLING opens no
 * admin page (billing lives under /account/subscriptions and /account/invoices).
 */
export const ADMIN_PAGE_PERMISSIONS: Readonly<Record<string, readonly Permission[]>> = {
  '/dashboard/admin': ['TRANSFER_MANAGER', 'USER_MANAGER'],
  '/dashboard/admin/transfers': ['TRANSFER_MANAGER'],
  '/dashboard/admin/transfers/settings': ['TRANSFER_MANAGER'],
  '/dashboard/admin/security-logs': ['USER_MANAGER'],
  '/dashboard/admin/users': ['USER_MANAGER'],
  '/dashboard/admin/user-groups': ['USER_MANAGER'],
  '/dashboard/admin/authentication': ['USER_MANAGER'],
};

/**
 * Whether `viewer` may use the dashboard page at `pathname` (spec §6, as the server enforces it): a team
 * administration page of ADMIN_PAGE_PERMISSIONS needs the team's manager or a member with one of its
 * permissions; every other page is open to anyone signed in.
 */
export function mayUseDashboardPage(pathname: string, viewer: MenuViewer): boolean {
  const required = ADMIN_PAGE_PERMISSIONS[normalizeMenuPath(pathname)];
  if (!required) return true;
  if (isTeamManager(viewer)) return true;
  return viewer.managerId !== null && required.some((permission) => viewer.permissions.includes(permission));
}

/**
 * Spec §6: where customization, admin inboxes and admin api are listed — in the admin menu for team,
 * enterprise and managed users, under the main menu for everyone else.
 */
export function teamFeaturesSection(viewer: MenuViewer): DashboardMenuSection {
  return hasTeamFeatures(viewer) ? 'admin' : 'main';
}

/** Lower case, without a trailing slash, query or hash: React Router matches paths case-insensitively. */
export function normalizeMenuPath(pathname: string): string {
  const path = (pathname.split(/[?#]/)[0] ?? '').toLowerCase().replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

function isAtOrUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * Spec §2: which dashboard menu starts expanded on `pathname`. The main menu on /dashboard, /dashboard/transfers,
 * /dashboard/settings, /dashboard/address-book and /dashboard/contact-groups — and on the pages below the last
 * four (a transfer's detail belongs to the transfers); on customization, admin inboxes (and its subpaths) and
 * admin api the main menu when the user has no team features (§6), else the admin menu; the admin menu on
 * every other path.
 */
export function expandedDashboardMenu(pathname: string, viewer: MenuViewer): DashboardMenuSection {
  const path = normalizeMenuPath(pathname);
  const [overview, ...sections] = DASHBOARD_MAIN_PATHS;
  if (path === overview || sections.some((base) => isAtOrUnder(path, base))) return 'main';
  if (TEAM_FEATURE_PATHS.some((base) => isAtOrUnder(path, base))) return teamFeaturesSection(viewer);
  return 'admin';
}

export const DASHBOARD_MENU_ITEM_IDS = [
  'overview',
  'transfers',
  'settings',
  'address_book',
  'contact_groups',
  'customization',
  'inboxes',
  'api',
  'admin_overview',
  'admin_transfers',
  'admin_transfer_settings',
  'security_logs',
  'users',
  'user_groups',
  'authentication',
] as const;
export type DashboardMenuItemId = (typeof DASHBOARD_MENU_ITEM_IDS)[number];

/** One entry of the dashboard menu: `id` names its label; `path` is a spec §2 route. */
export interface DashboardMenuItem {
  id: DashboardMenuItemId;
  path: string;
}

export interface DashboardMenu {
  main: DashboardMenuItem[];
  /** Empty for a user without team features: there is no team to administer. */
  admin: DashboardMenuItem[];
}

const MAIN_ITEMS: readonly DashboardMenuItem[] = [
  { id: 'overview', path: '/dashboard' },
  { id: 'transfers', path: '/dashboard/transfers' },
  { id: 'settings', path: '/dashboard/settings' },
  { id: 'address_book', path: '/dashboard/address-book' },
  { id: 'contact_groups', path: '/dashboard/contact-groups' },
];

const TEAM_FEATURE_ITEMS: readonly DashboardMenuItem[] = [
  { id: 'customization', path: '/dashboard/customization' },
  { id: 'inboxes', path: '/dashboard/admin/inboxes' },
  { id: 'api', path: '/dashboard/admin/api' },
];

const ADMIN_ITEMS: readonly DashboardMenuItem[] = [
  { id: 'admin_overview', path: '/dashboard/admin' },
  { id: 'admin_transfers', path: '/dashboard/admin/transfers' },
  { id: 'admin_transfer_settings', path: '/dashboard/admin/transfers/settings' },
  { id: 'security_logs', path: '/dashboard/admin/security-logs' },
  { id: 'users', path: '/dashboard/admin/users' },
  { id: 'user_groups', path: '/dashboard/admin/user-groups' },
];

/**
 * The dashboard menu of spec §2 for one user: the main menu, plus customization, inboxes and api there for a
 * user without team features (§6); the admin menu (the spec's admin routes, with those three and
 * authentication) only for a user with team features, each administration page only for whoever may use it
 * (mayUseDashboardPage: the manager, or a member with its permission).
 */
export function dashboardMenu(viewer: MenuViewer): DashboardMenu {
  if (!hasTeamFeatures(viewer)) return { main: [...MAIN_ITEMS, ...TEAM_FEATURE_ITEMS], admin: [] };
  const admin: DashboardMenuItem[] = [
    ...ADMIN_ITEMS,
    ...TEAM_FEATURE_ITEMS,
    { id: 'authentication', path: '/dashboard/admin/authentication' },
  ];
  return {
    main: [...MAIN_ITEMS],
    admin: admin.filter((item) => mayUseDashboardPage(item.path, viewer)),
  };
}
