import { describe, expect, it } from 'vitest';
import { isWebRoute, WEB_ROUTES } from './web-routes.js';

describe('the web route table', () => {
  it.each([
    '/',
    '/request-files',
    '/dl/AbCdEfGhIjKlMnOp',
    '/dl/AbCdEfGhIjKlMnOp/FILE01',
    '/dl/AbCdEfGhIjKlMnOp/',
    '/r/req123',
    '/widgets/w1',
    '/SignIn',
    '/dashboard/transfers/t1',
    '/dashboard/admin/inboxes/i1/widgets/new',
    '/dashboard/admin/users',
    '/account/security?tab=1',
    '/fr/prices',
    '/fr',
    '/fr/',
    '/jp/dl/AbCdEfGhIjKlMnOp',
    '/CCS/dashboard/admin/users',
    '/kr/account/profile',
  ])('knows %s', (path) => {
    expect(isWebRoute(path)).toBe(true);
  });

  it.each([
    '/no-such-page',
    '/dl',
    '/dl/a/b/c',
    '/account/nothing',
    '/dashboard/nothing',
    '/dashboard/admin/inboxes/i1/edit/more',
    '/d/start',
    '/assets/missing.js',
    'signin',
    '/en/prices',
    '/en',
    '/fr/no-such-page',
    '/fr/fr/prices',
    '/cs/prices',
  ])('does not know %s', (path) => {
    expect(isWebRoute(path)).toBe(false);
  });

  it('lists each pattern once', () => {
    expect(new Set(WEB_ROUTES).size).toBe(WEB_ROUTES.length);
  });
});
