import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The pages the panel's close button returns to (spec §2): the uploader and the receiver. */
const RETURN_PAGES = ['/', '/request-files'];
const STORAGE_KEY = 'ferry.panelReturn';
const FALLBACK = '/';

let remembered: string | null = null;

function session(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/** Whether `pathname` is a page the panel returns to. */
export function isReturnPage(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return RETURN_PAGES.includes(path.toLowerCase());
}

/** Keeps `location` (with its #S1/#S2) as where the panel returns to, when it is the uploader or the receiver. */
export function rememberReturnPage(location: { pathname: string; search: string; hash: string }): void {
  if (!isReturnPage(location.pathname)) return;
  remembered = `${location.pathname}${location.search}${location.hash}`;
  try {
    session()?.setItem(STORAGE_KEY, remembered);
  } catch {
    // Kept for this page's life only.
  }
}

/** Where the panel's close button goes: the uploader or receiver page last seen in this tab, else `/`. */
export function returnPagePath(): string {
  if (remembered) return remembered;
  try {
    const saved = session()?.getItem(STORAGE_KEY) ?? null;
    if (saved && isReturnPage(saved.split(/[?#]/)[0] ?? '')) return saved;
  } catch {
    // Storage unavailable: the uploader.
  }
  return FALLBACK;
}

/** For tests: forgets the remembered page. */
export function forgetReturnPage(): void {
  remembered = null;
  try {
    session()?.removeItem(STORAGE_KEY);
  } catch {
    // Nothing kept.
  }
}

/** Follows the router: each visit of the uploader or the receiver becomes the panel's way back. */
export function useRememberReturnPage(): void {
  const location = useLocation();
  useEffect(() => {
    rememberReturnPage(location);
  }, [location]);
}
