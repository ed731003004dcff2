import { DASHBOARD_COMING_ROUTES, localePrefixOf } from '@ferry/core';
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { takeHandoff } from './features/auth/handoff';
import { RequireAuth } from './features/auth/require-auth';
import { preloadBehindPage } from './features/receive/behind-pages';
import { WidgetError } from './features/widget/widget-error';
import { basenameOf } from './i18n';
import { withTexts } from './i18n/texts';
import { RootLayout } from './routes/root-layout';
import { RouteError } from './routes/route-error';

type RouteModule = Promise<{ default: () => ReactNode }>;

/**
 * Each page is its own chunk: the download page never loads the uploader's tus and hashing code. The page is
 * drawn once the texts its code asked for are loaded (i18n/texts.ts).
 */
function page(load: () => RouteModule): Pick<RouteObject, 'lazy'> {
  const loadWithTexts = withTexts(load);
  return { lazy: async () => ({ Component: (await loadWithTexts()).default }) };
}

/**
 * The spec §2 routes the web app serves so far: exactly core's WEB_ROUTES (router.test.ts keeps them equal),
 * which the server reads to answer 404 for any other path. The `*` routes draw the not-found page.
 */
export const routes: RouteObject[] = [
  {
    // Spec §2 /widgets/{widgetId}: the page other sites frame, in a bare layout (no header, menus or session).
    path: '/widgets/:widgetId',
    errorElement: <WidgetError />,
    hydrateFallbackElement: <div aria-busy="true" />,
    ...page(() => import('./routes/widget.route')),
  },
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown for the instant the first page's chunk loads.
    hydrateFallbackElement: <div className="app" aria-busy="true" />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { path: 'dl/:transferId', ...page(() => import('./routes/download.route')) },
          { path: 'dl/:transferId/:fileId', ...page(() => import('./routes/download.route')) },
          { path: 'd/expired', ...page(() => import('./routes/expired.route')) },
          { path: 'd/notfound', ...page(() => import('./routes/transfer-not-found.route')) },
          { path: 'unsubscribe', ...page(() => import('./routes/unsubscribe.route')) },
          // Accounts (spec §2).
          { path: 'signin', ...page(() => import('./routes/signin.route')) },
          { path: 'register', ...page(() => import('./routes/register.route')) },
          { path: 'register/enterprise', ...page(() => import('./routes/register-enterprise.route')) },
          { path: 'prices', ...page(() => import('./routes/prices.route')) },
          { path: 'verify-email', ...page(() => import('./routes/verify-email.route')) },
          { path: 'join', ...page(() => import('./routes/join.route')) },
          { path: 'forgot-password', ...page(() => import('./routes/forgot-password.route')) },
          { path: 'reset-password', ...page(() => import('./routes/reset-password.route')) },
          {
            // Spec §2 main layout: the uploader at `/`, and over it the sliding panel of /account and /dashboard
            // (the uploader stays mounted when the panel opens). The page behind is fetched alongside, the panel
            // right after.
            ...page(async () => {
              const path = localePrefixOf(window.location.pathname)?.rest ?? window.location.pathname;
              const [layout] = await Promise.all([
                import('./routes/dashboard-main-layout.route'),
                preloadBehindPage(path),
              ]);
              // the panel over it, on /account and /dashboard (a chunk of its own: `/` has none)
              await layout.preloadPanel(path);
              return layout;
            }),
            children: [
              // The uploader alone: the panel is closed.
              { index: true, element: null },
              // The receiver (receive mode, spec §4) alone: the panel is closed.
              { path: 'request-files', element: null },
              {
                // Spec §2/§6: pages under /account and /dashboard need sign-in.
                element: <RequireAuth />,
                children: [
                  { path: 'account', element: <Navigate to="/account/profile" replace /> },
                  { path: 'account/profile', ...page(() => import('./routes/account-profile.route')) },
                  { path: 'account/security', ...page(() => import('./routes/account-security.route')) },
                  {
                    path: 'account/integrations',
                    ...page(() => import('./routes/account-integrations.route')),
                  },
                  {
                    path: 'account/subscriptions',
                    ...page(() => import('./routes/account-subscriptions.route')),
                  },
                  { path: 'account/invoices', ...page(() => import('./routes/account-invoices.route')) },
                  { path: 'account/*', ...page(() => import('./routes/not-found.route')) },
                  {
                    path: 'dashboard',
                    ...page(() => import('./routes/dashboard.route')),
                    children: [
                      { index: true, ...page(() => import('./routes/dashboard-overview.route')) },
                      { path: 'settings', ...page(() => import('./routes/dashboard-settings.route')) },
                      { path: 'address-book', ...page(() => import('./routes/address-book.route')) },
                      { path: 'contact-groups', ...page(() => import('./routes/contact-groups.route')) },
                      { path: 'transfers', ...page(() => import('./routes/dashboard-transfers.route')) },
                      {
                        path: 'transfers/:id',
                        ...page(() => import('./routes/dashboard-transfer-detail.route')),
                      },
                      // Spec §2 /dashboard/admin: the team overview.
                      { path: 'admin', ...page(() => import('./routes/dashboard-admin-overview.route')) },
                      // Spec §2 /dashboard/admin/transfers: every transfer of the team.
                      {
                        path: 'admin/transfers',
                        ...page(() => import('./routes/dashboard-admin-transfers.route')),
                      },
                      // Spec §2 /dashboard/admin/transfers/settings: the team's uploader settings.
                      {
                        path: 'admin/transfers/settings',
                        ...page(() => import('./routes/dashboard-admin-transfer-settings.route')),
                      },
                      // Spec §2 /dashboard/admin/authentication: the team's authentication policy.
                      {
                        path: 'admin/authentication',
                        ...page(() => import('./routes/dashboard-admin-authentication.route')),
                      },
                      // Spec §2 /dashboard/admin/inboxes and its subpaths: upload inboxes and their widgets.
                      { path: 'admin/inboxes', ...page(() => import('./routes/dashboard-inboxes.route')) },
                      {
                        path: 'admin/inboxes/new',
                        ...page(() => import('./routes/dashboard-inboxes-new.route')),
                      },
                      {
                        path: 'admin/inboxes/:inboxId',
                        ...page(() => import('./routes/dashboard-inboxes-detail.route')),
                      },
                      {
                        path: 'admin/inboxes/:inboxId/widgets/new',
                        ...page(() => import('./routes/dashboard-inboxes-widget.route')),
                      },
                      {
                        path: 'admin/inboxes/:inboxId/widgets/:widgetId',
                        ...page(() => import('./routes/dashboard-inboxes-widget.route')),
                      },
                      // Spec §2 /dashboard/admin/security-logs: the team's security log.
                      {
                        path: 'admin/security-logs',
                        ...page(() => import('./routes/dashboard-security-logs.route')),
                      },
                      // Spec §2 /dashboard/admin/users: the team's members and invitations.
                      { path: 'admin/users', ...page(() => import('./routes/dashboard-admin-users.route')) },
                      {
                        path: 'admin/user-groups',
                        ...page(() => import('./routes/dashboard-admin-user-groups.route')),
                      },
                      { path: 'admin/api', ...page(() => import('./routes/dashboard-api.route')) },
                      // Spec §2 /dashboard/customization: the account's or team's theme.
                      {
                        path: 'customization',
                        ...page(() => import('./routes/dashboard-customization.route')),
                      },
                      // The spec's dashboard pages not built yet say so (core's table names them).
                      ...DASHBOARD_COMING_ROUTES.map((path) => ({
                        path: path.slice('/dashboard/'.length),
                        ...page(() => import('./routes/dashboard-coming.route')),
                      })),
                      // Anything else under /dashboard: not found, inside the dashboard's frame.
                      { path: '*', ...page(() => import('./routes/dashboard-coming.route')) },
                    ],
                  },
                ],
              },
            ],
          },
          {
            // The operators' console (OPERATOR_EMAILS): signed in first; the page itself asks whether an operator.
            element: <RequireAuth />,
            children: [{ path: 'operator', ...page(() => import('./routes/operator.route')) }],
          },
          { path: '*', ...page(() => import('./routes/not-found.route')) },
        ],
      },
    ],
  },
  {
    // Receive pages (S3): their own frame, the limited layout of spec §2 for signed-out visitors.
    ...page(() => import('./routes/receive-layout.route')),
    errorElement: <RouteError />,
    hydrateFallbackElement: <div className="app" aria-busy="true" />,
    children: [
      { path: 'r/:requestId', ...page(() => import('./routes/receive-request.route')) },
      { path: 'i/:slug', ...page(() => import('./routes/receive-inbox.route')) },
      { path: 'push', ...page(() => import('./routes/push.route')) },
    ],
  },
];

/**
 * The app's router. Under a language prefix (`/fr/…`, core's localePrefixOf) the prefix is the router's
 * basename: the same routes answer, and every in-app link keeps the language.
 */
export function createAppRouter(pathname = window.location.pathname) {
  // The sign-in hand-off's tokens (spec §4) leave the address before the router reads it.
  takeHandoff();
  const basename = basenameOf(pathname);
  return createBrowserRouter(routes, basename ? { basename } : undefined);
}
