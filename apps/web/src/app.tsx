import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AccountLanguage } from './features/auth/account-language';
import { AuthProvider } from './features/auth/auth-context';
import { ThemeProvider } from './features/customization/theme-context';
import { ToastProvider } from './features/toasts/toast-context';
import { isWidgetPath } from './features/widget/widget-embedding';
import { createAppRouter } from './router';

/** `router`: made by main.tsx before the language loads, so the page's chunks are fetched meanwhile. */
export function App({ router: made }: { router?: ReturnType<typeof createAppRouter> } = {}) {
  const [queryClient] = useState(
    () =>
      new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 30_000 } } }),
  );
  const [router] = useState(() => made ?? createAppRouter());
  // The widget page, framed by other sites, runs without a session: no AuthProvider, no /api/auth/me.
  const [bare] = useState(() => isWidgetPath(window.location.pathname));
  const pages = <RouterProvider router={router} />;
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        {bare ? (
          pages
        ) : (
          <AuthProvider>
            <AccountLanguage />
            <ThemeProvider>{pages}</ThemeProvider>
          </AuthProvider>
        )}
      </ToastProvider>
    </QueryClientProvider>
  );
}
