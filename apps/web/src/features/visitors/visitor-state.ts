import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { readSiteConfig, type SiteConfig } from '../../lib/site-config';
import { useAuth } from '../auth/auth-context';

/** The server's site settings for this page (read once per mount; they do not change while it is open). */
export function useSiteConfig(): SiteConfig {
  const [config] = useState(readSiteConfig);
  return config;
}

/**
 * A visitor known to be signed out: GET /api/auth/me answered without a user, or, while it is on its way, the
 * page came without a session cookie (the server says so in the site settings), so the visitors' elements are
 * drawn with the page instead of pushing it down later. With a cookie, while the answer is awaited (or if it
 * failed) nobody counts as signed out, so a signed-in user never sees the visitors' elements flash by.
 */
export function useSignedOut(): boolean {
  const { status, user } = useAuth();
  const { sessionCookie } = useSiteConfig();
  return status === 'ready' ? user === null : status === 'loading' && sessionCookie === false;
}

/**
 * Spec §2: the mobile banner and the promo panel are for signed-out visitors of the main domain's home (`/`,
 * in any language: the router's basename holds the prefix).
 */
export function useVisitorHome(): boolean {
  const signedOut = useSignedOut();
  const { mainDomain } = useSiteConfig();
  const { pathname } = useLocation();
  return signedOut && mainDomain && (pathname.replace(/\/+$/, '') || '/') === '/';
}

function session(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/** Whether `key` was dismissed in this tab's session. */
export function isDismissed(key: string): boolean {
  try {
    return session()?.getItem(key) === '1';
  } catch {
    return false;
  }
}

/**
 * A dismissible element's state, kept for the browser session (sessionStorage); if storage is unavailable the
 * dismissal lasts as long as the page.
 */
export function useSessionDismissal(key: string): [dismissed: boolean, dismiss: () => void] {
  const [dismissed, setDismissed] = useState(() => isDismissed(key));
  const dismiss = useCallback(() => {
    try {
      session()?.setItem(key, '1');
    } catch {
      // Kept for this page only.
    }
    setDismissed(true);
  }, [key]);
  return [dismissed, dismiss];
}

/** After a dismissed element is gone, focus goes to the page's main area rather than being lost. */
export function focusMain(): void {
  document.getElementById('main')?.focus({ preventScroll: true });
}
