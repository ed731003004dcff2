import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, type RouteObject, RouterProvider, useLocation } from 'react-router';
import { AuthProvider } from '../features/auth/auth-context';
import { SignBackInDialog } from '../features/auth/sign-back-in-dialog';
import { UserMenu } from '../features/auth/user-menu';
import { ToastArea } from '../features/toasts/toast-area';
import { ToastProvider } from '../features/toasts/toast-context';

/** What the root layout adds around pages (user menu, toasts, sign-back-in prompt), and where we are. */
function TestLayout() {
  const location = useLocation();
  return (
    <>
      <UserMenu />
      <Outlet />
      <p data-testid="location">{`${location.pathname}${location.search}`}</p>
      <ToastArea />
      <SignBackInDialog />
    </>
  );
}

/**
 * Pages inside the app's providers with a real AuthProvider (which asks GET /api/auth/me at start), at
 * `path`. `/` is a placeholder (`at-home`) unless the routes give it.
 */
export function authHarness(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <TestLayout />,
        children: [...routes, { path: '/', element: <p data-testid="at-home">home</p> }],
      },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return {
    router,
    client,
    ui: (
      <QueryClientProvider client={client}>
        <ToastProvider>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    ),
  };
}

export function locationOf(root: ParentNode): string {
  return root.querySelector('[data-testid="location"]')?.textContent ?? '';
}
