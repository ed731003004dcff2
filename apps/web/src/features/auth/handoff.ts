import { AUTH_REDIRECT_COOKIE_DAYS } from '@ferry/core';
import type { CookieJar } from '../../lib/device-id';

/*
 * The sign-in hand-off of spec §2/§4: any page opened with `?customToken=<id token>[&staySignedIn=true]` or
 * `?sessionCookie=<session token>` signs in with it. The parameters leave the address bar before anything else
 * happens (history.replaceState, no reload), so a token is never kept in history, bookmarks or a shared link.
 */

/** The query parameters of the hand-off, as the spec names them. */
export const HANDOFF_PARAMS = ['customToken', 'staySignedIn', 'authRedir', 'sessionCookie'] as const;

export type Handoff =
  /**
   * An id token to trade at /auth/auth/session-cookie (14 days with staySignedIn); with `authRedir`, the one-time
   * token of the cross-domain sign-in (another host sent the user here), redeemed at /auth/auth/custom-token.
   */
  | { kind: 'customToken'; token: string; staySignedIn: boolean; authRedir?: true }
  /** A session token to set as this site's cookie at /auth/auth/set-session. */
  | { kind: 'sessionCookie'; token: string };

/** The hand-off a query string asks for, or null. With both tokens, the custom token is used. */
export function readHandoff(search: string | URLSearchParams): Handoff | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const customToken = params.get('customToken');
  if (customToken !== null) {
    return {
      kind: 'customToken',
      token: customToken.trim(),
      staySignedIn: params.get('staySignedIn') === 'true',
      ...(params.get('authRedir') === 'true' ? { authRedir: true as const } : {}),
    };
  }
  const sessionCookie = params.get('sessionCookie');
  if (sessionCookie !== null) return { kind: 'sessionCookie', token: sessionCookie.trim() };
  return null;
}

/** The same address (path, other parameters in their order, hash) without the hand-off parameters. */
export function withoutHandoff(location: { pathname: string; search: string; hash: string }): string {
  const params = new URLSearchParams(location.search);
  for (const name of HANDOFF_PARAMS) params.delete(name);
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
}

/** Spec §5: a session or id token has at least three dot-separated parts ("unexpected token format"). */
export function isTokenShaped(token: string): boolean {
  return token.split('.').length >= 3;
}

type BrowserWindow = Pick<Window, 'location' | 'history'>;

let pending: Handoff | null = null;

/**
 * Reads the hand-off of the current address and takes its parameters out of it (history.replaceState, the
 * router's own history state kept). The router calls this before it reads the address; the auth provider
 * consumes the result. Idempotent until consumed.
 */
export function takeHandoff(win: BrowserWindow = window): Handoff | null {
  const found = readHandoff(win.location.search);
  if (found) {
    pending = found;
    win.history.replaceState(win.history.state, '', withoutHandoff(win.location));
  }
  return pending;
}

/** The hand-off to carry out, once: later calls answer null (until another address brings one). */
export function consumeHandoff(win: BrowserWindow = window): Handoff | null {
  const handoff = takeHandoff(win);
  pending = null;
  return handoff;
}

/** The auth-redirect domain cookie (spec §4, §9: kept 90 days when the user stays signed in). */
export const AUTH_REDIRECT_COOKIE = 'ferry_auth_domain';

export function rememberAuthDomain(
  domain: string,
  jar: CookieJar = document,
  secure = typeof location !== 'undefined' && location.protocol === 'https:',
): void {
  const maxAge = AUTH_REDIRECT_COOKIE_DAYS * 24 * 3600;
  jar.cookie = `${AUTH_REDIRECT_COOKIE}=${encodeURIComponent(domain)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${
    secure ? '; Secure' : ''
  }`;
}

/**
 * The address on the user's home host that a sign-in here hands off to (spec §4): the page asked for (`next`, a
 * path of this app) with the one-time custom token, the auth-redir flag and, when staying signed in, staySignedIn.
 */
export function handoffUrl(
  origin: string,
  customToken: string,
  staySignedIn: boolean,
  next: string | null,
): string {
  const path = next?.startsWith('/') && !next.startsWith('//') ? next : '/';
  const url = new URL(path, origin);
  url.searchParams.set('customToken', customToken);
  url.searchParams.set('authRedir', 'true');
  if (staySignedIn) url.searchParams.set('staySignedIn', 'true');
  return url.toString();
}
