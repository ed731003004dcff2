import { DASHBOARD_COMING_ROUTES, normalizeMenuPath, WEB_ROUTES } from '@ferry/core';

const COMING: ReadonlySet<string> = new Set(DASHBOARD_COMING_ROUTES);

/**
 * The spec §2 dashboard routes that have a page in the web app: core's WEB_ROUTES (which router.tsx serves
 * exactly) under /dashboard, without a parameter, less DASHBOARD_COMING_ROUTES (those draw the "coming" page).
 * The menu and the overview link only these and show the others as coming; a page added to the router and to
 * WEB_ROUTES (and out of the coming list) appears here by itself.
 */
export const DASHBOARD_PAGES: ReadonlySet<string> = new Set(
  WEB_ROUTES.filter(
    (route) =>
      (route === '/dashboard' || route.startsWith('/dashboard/')) &&
      !route.includes(':') &&
      !COMING.has(route),
  ),
);

export function hasDashboardPage(path: string): boolean {
  return DASHBOARD_PAGES.has(normalizeMenuPath(path));
}

/** Where a dashboard menu path leads: its own page, or null when not built yet. */
export function dashboardDestination(path: string): string | null {
  return hasDashboardPage(path) ? path : null;
}
