import { localePrefixOf } from './locales.js';

/**
 * Spec §2 dashboard routes that the web app answers with a "coming soon" page until they are built (the menu
 * names them). Adding one of these pages to the router leaves this list unchanged but moves its entry there.
 */
export const DASHBOARD_COMING_ROUTES: readonly string[] = [];

/**
 * Every page of the web app, as React Router path patterns (`:name` is one segment). The one route table:
 * apps/web/src/router.tsx serves exactly these (its router test keeps them equal), and the server answers
 * 404 for any other path (still with the app, which shows its not-found page). A new page goes here and in
 * the router together.
 */
export const WEB_ROUTES = [
  '/',
  '/request-files',
  '/push',
  '/r/:requestId',
  '/i/:slug',
  '/widgets/:widgetId',
  '/dl/:transferId',
  '/dl/:transferId/:fileId',
  '/d/expired',
  '/d/notfound',
  '/unsubscribe',
  '/signin',
  '/register',
  '/register/enterprise',
  '/prices',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/join',
  '/account',
  '/account/profile',
  '/account/security',
  '/account/integrations',
  '/account/subscriptions',
  '/account/invoices',
  '/dashboard',
  '/dashboard/settings',
  '/dashboard/address-book',
  '/dashboard/contact-groups',
  '/dashboard/transfers',
  '/dashboard/transfers/:id',
  '/dashboard/admin',
  '/dashboard/admin/transfers',
  '/dashboard/admin/transfers/settings',
  '/dashboard/admin/authentication',
  '/dashboard/admin/inboxes',
  '/dashboard/admin/inboxes/new',
  '/dashboard/admin/inboxes/:inboxId',
  '/dashboard/admin/inboxes/:inboxId/widgets/new',
  '/dashboard/admin/inboxes/:inboxId/widgets/:widgetId',
  '/dashboard/admin/security-logs',
  '/dashboard/admin/users',
  '/dashboard/admin/user-groups',
  '/dashboard/admin/api',
  '/dashboard/customization',
  ...DASHBOARD_COMING_ROUTES,
  '/operator',
] as const;

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

const COMPILED = WEB_ROUTES.map(segmentsOf);

/**
 * Whether `pathname` (no query or hash) is a page of the web app, matched as React Router matches: static
 * segments case-insensitively, `:param` one non-empty segment, a trailing slash ignored. A page is one in
 * every language: under a locale prefix too (`/fr/prices`, `/jp/dl/…`, `/fr` alone; never `/en/…`).
 */
export function isWebRoute(pathname: string): boolean {
  const full = pathname.split(/[?#]/)[0] ?? '';
  if (!full.startsWith('/')) return false;
  const segments = segmentsOf(localePrefixOf(full)?.rest ?? full);
  return COMPILED.some(
    (pattern) =>
      pattern.length === segments.length &&
      pattern.every((part, i) => part.startsWith(':') || part.toLowerCase() === segments[i]!.toLowerCase()),
  );
}
