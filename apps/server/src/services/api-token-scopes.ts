import type { ApiTokenScope } from '@ferry/core';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';

/**
 * The scope an API token needs for a route (method and route pattern, as registered), the table of docs/api.md
 * "API token scopes". null: any token (its own account, sign-out, and the public calls anyone may make). A route
 * this table does not know needs `admin`, so that a route added later is closed to narrow tokens until listed.
 */
export function requiredScope(method: string, route: string): ApiTokenScope | null {
  const read = method === 'GET' || method === 'HEAD';
  if (PUBLIC.some((p) => (typeof p === 'string' ? route === p : p.test(route)))) return null;
  if (route.startsWith('/api/auth/')) return null;
  if (route.startsWith('/api/transfer/') || route.startsWith('/api/user/contact'))
    return read ? 'transfers:read' : 'transfers:write';
  if (route.startsWith('/api/receive/')) return 'receive';
  if (route.startsWith('/api/user/users/') || route.startsWith('/api/user/teams/'))
    return read ? 'transfers:read' : 'admin';
  return 'admin';
}

/** Calls anyone may make signed in or not: a token narrower than them must not make them fail. */
const PUBLIC: readonly (string | RegExp)[] = [
  '/api/health',
  '/api/ready',
  '/api/pay/plans',
  '/api/user/locations/country',
  '/api/transfer/notifications/unsubscribe',
  '/api/sales/enterprise-contact',
  '/api/sales/contact',
  '/api/receive/check-password',
  /^\/api\/transfer\/downloads\//,
  /^\/api\/hosts\//,
  /^\/api\/theme(?:\/|$)/,
  /^\/api\/receive\/points\//,
  /^\/api\/receive\/uploads/,
  /^\/api\/pay\/webhooks\//,
  /^\/api\/user\/auth\/has-active-account\//,
];

/** FORBIDDEN (reason API_TOKEN_SCOPE) when the request's API token lacks the route's scope; sessions pass. */
export function checkTokenScope(auth: Authenticated, method: string, route: string | undefined): void {
  if (!auth.scopes || route === undefined) return;
  const scope = requiredScope(method, route);
  if (scope && !auth.scopes.includes(scope))
    throw new AppError('FORBIDDEN', `This API token lacks the ${scope} scope.`, {
      details: { reason: 'API_TOKEN_SCOPE', scope },
    });
}
