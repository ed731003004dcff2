import type { Limits } from '@ferry/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { MOBILE_QUERY, REDUCED_MOTION_QUERY } from '../../components/slide-panel-media';
import { AuthProvider } from '../auth/auth-context';
import { ToastArea } from '../toasts/toast-area';
import { ToastProvider } from '../toasts/toast-context';

/** For tests: the screen a page is shown on (phone width, reduced motion), changeable while it runs. */
export interface FakeScreen {
  set(next: { mobile?: boolean; reducedMotion?: boolean }): Promise<void>;
  restore(): void;
}

export function fakeScreen(initial: { mobile?: boolean; reducedMotion?: boolean } = {}): FakeScreen {
  const state = { mobile: false, reducedMotion: false, ...initial };
  const listeners = new Set<() => void>();
  const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  const matches = (query: string) =>
    (query === MOBILE_QUERY && state.mobile) || (query === REDUCED_MOTION_QUERY && state.reducedMotion);
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      media: query,
      get matches() {
        return matches(query);
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    }),
  });
  return {
    async set(next) {
      Object.assign(state, next);
      await act(async () => {
        for (const listener of listeners) listener();
      });
    },
    restore() {
      if (original) Object.defineProperty(window, 'matchMedia', original);
      else Reflect.deleteProperty(window, 'matchMedia');
    },
  };
}

/** For tests: routes inside the app's providers (a real AuthProvider asks GET /api/auth/me), at `path`. */
export function appHarness(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
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
          <ToastArea />
        </ToastProvider>
      </QueryClientProvider>
    ),
  };
}

/** For tests: a GET /api/transfer/limits/{id} answer of a Premium account. */
export function limitsAnswer(overrides: Partial<Limits> = {}): Limits {
  return {
    planType: 'PREMIUM',
    files: 5000,
    fileValidityInDays: 365,
    forcedFileValidityInDays: null,
    messageLength: 1000,
    recipients: 50,
    uploadSize: 250e9,
    storage: 1000e9,
    storageUsed: 0,
    globalStorage: null,
    downloadedBytes7Days: 6e11,
    downloadedBytes7DaysUsed: 0,
    forcedRegion: null,
    disableSSEC: false,
    ...overrides,
  };
}
