import { normalizeMenuPath } from '@ferry/core';

/**
 * The spec §2 dashboard routes that have a page in the web app. The menu and the overview link only these and
 * show the others as coming: add a route here together with its page in router.tsx.
 */
export const DASHBOARD_PAGES: ReadonlySet<string> = new Set([
  '/dashboard',
  '/dashboard/settings',
  '/dashboard/transfers',
  '/dashboard/address-book',
  '/dashboard/contact-groups',
  '/dashboard/admin/inboxes',
  '/dashboard/admin/transfers',
]);

/**
 * Spec §2 dashboard routes whose work is done on another page: the menu entry leads there, and the route itself
 * forwards. Personal API tokens live under Account → Integrations, so "API" points there rather than "soon".
 */
export const DASHBOARD_ELSEWHERE: Readonly<Record<string, string>> = {
  '/dashboard/admin/api': '/account/integrations',
};

export function hasDashboardPage(path: string): boolean {
  return DASHBOARD_PAGES.has(normalizeMenuPath(path)) || normalizeMenuPath(path) in DASHBOARD_ELSEWHERE;
}

/** Where a dashboard menu path leads: its own page, the page that does its work, or null when not built yet. */
export function dashboardDestination(path: string): string | null {
  const normal = normalizeMenuPath(path);
  if (DASHBOARD_PAGES.has(normal)) return path;
  return DASHBOARD_ELSEWHERE[normal] ?? null;
}
