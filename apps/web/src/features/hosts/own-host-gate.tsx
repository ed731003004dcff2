import { ownHostGate } from '@ferry/core';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { signInPath } from '../auth/auth-errors';
import { useSiteConfig } from '../visitors/visitor-state';

/**
 * Spec §2 on an account's or team's own host (the server says so in the page's site settings, from its table of
 * verified hosts): a signed-out visitor is sent to sign in, except on the request pages, /push, the not-found and
 * expired pages (the limited layout) and the pages anyone may use (downloads, signing in). On the main host's home
 * page, a user who stays signed in is sent on to their home host (the auth-redirect cookie, spec §4).
 */
export function OwnHostGate({ children }: { children: ReactNode }) {
  const { ownHost, homeOrigin } = useSiteConfig();
  const auth = useAuth();
  const location = useLocation();
  const home = !ownHost && homeOrigin && location.pathname === '/' ? homeOrigin : null;
  useEffect(() => {
    if (home) window.location.replace(`${home}/`);
  }, [home]);
  if (!ownHost || ownHostGate(location.pathname) !== 'sign_in') return children;
  if (auth.status === 'loading') return <div className="page-center" aria-busy="true" />;
  if (!auth.user) return <Navigate to={signInPath(location)} replace />;
  return children;
}

/** Whether this page shows the limited layout: an own host's page seen signed out (no marketing links). */
export function useLimitedLayout(): boolean {
  const { ownHost } = useSiteConfig();
  const auth = useAuth();
  return ownHost && auth.status === 'ready' && !auth.user;
}
