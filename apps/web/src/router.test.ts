import { WEB_ROUTES } from '@ferry/core';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './router';

/** Every full path the router draws a page for, `*` (not-found) routes apart. */
function pathsOf(list: RouteObject[], parent = ''): { pages: string[]; catchAll: string[] } {
  const pages: string[] = [];
  const catchAll: string[] = [];
  for (const route of list) {
    const own =
      route.path === undefined ? parent : `${parent.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}`;
    const full = own === '' ? '/' : own;
    if (route.path?.endsWith('*')) catchAll.push(full);
    else if (route.index || (route.path !== undefined && !route.children?.length)) pages.push(full);
    else if (route.path !== undefined && route.children?.some((child) => child.index)) pages.push(full);
    if (route.children) {
      const inner = pathsOf(route.children, own);
      pages.push(...inner.pages);
      catchAll.push(...inner.catchAll);
    }
  }
  return { pages, catchAll };
}

describe('the route table', () => {
  it("is core's WEB_ROUTES, the table the server answers 404 by", () => {
    const { pages, catchAll } = pathsOf(routes);
    expect([...new Set(pages)].sort()).toEqual([...WEB_ROUTES].sort());
    // Only not-found pages are drawn for other paths.
    expect(catchAll.sort()).toEqual(['/*', '/account/*', '/dashboard/*']);
  });
});
