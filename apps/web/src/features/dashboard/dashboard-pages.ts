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
]);

export function hasDashboardPage(path: string): boolean {
  return DASHBOARD_PAGES.has(normalizeMenuPath(path));
}
