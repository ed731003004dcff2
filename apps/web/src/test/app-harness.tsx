import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastArea } from '../features/toasts/toast-area';
import { ToastProvider } from '../features/toasts/toast-context';

/** A page inside the app's providers, at `path`, with the other routes as labelled placeholders. */
export function harness(element: ReactNode, path: string, pattern = path) {
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '/d/expired', element: <p data-testid="at-expired">expired</p> },
      { path: '/d/notfound', element: <p data-testid="at-notfound">notfound</p> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return {
    router,
    ui: (
      <QueryClientProvider client={client}>
        <ToastProvider>
          <RouterProvider router={router} />
          <ToastArea />
        </ToastProvider>
      </QueryClientProvider>
    ),
  };
}

export function toastTexts(root: ParentNode): string[] {
  return [...root.querySelectorAll('.toast-message')].map((e) => e.textContent ?? '');
}
