import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootLayout } from './routes/root-layout';
import { RouteError } from './routes/route-error';

type RouteModule = Promise<{ default: () => ReactNode }>;

/** Each page is its own chunk: the download page never loads the uploader's tus and hashing code. */
function page(load: () => RouteModule): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/** The spec §2 routes the web app serves so far; the server answers every other path with index.html. */
export const routes: RouteObject[] = [
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
          { index: true, ...page(() => import('./routes/uploader.route')) },
          { path: 'dl/:transferId', ...page(() => import('./routes/download.route')) },
          { path: 'dl/:transferId/:fileId', ...page(() => import('./routes/download.route')) },
          { path: 'd/expired', ...page(() => import('./routes/expired.route')) },
          { path: 'd/notfound', ...page(() => import('./routes/transfer-not-found.route')) },
          { path: '*', ...page(() => import('./routes/not-found.route')) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
