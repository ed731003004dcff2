import { ApiError } from '../../lib/api';
import { CookieRefusedError, type SessionRefusal } from './auth-context';

/** What went wrong with a sign-in (or a call of the same family), as the pages tell it. */
export type AuthProblem =
  | { kind: 'invalid_credentials' }
  | { kind: 'email_not_verified' }
  | { kind: 'second_factor' }
  | { kind: 'rate_limited'; retryAfterSeconds: number | null }
  | { kind: 'refused'; code: SessionRefusal }
  | { kind: 'invalid_token' }
  | { kind: 'cookie_refused' }
  | { kind: 'other'; error: unknown };

/** Sorts an error of the auth calls by the codes of the contract (never by message). */
export function authProblem(error: unknown): AuthProblem {
  if (error instanceof CookieRefusedError) return { kind: 'cookie_refused' };
  if (!(error instanceof ApiError)) return { kind: 'other', error };
  if (error.hasCode('RATE_LIMITED') || error.status === 429) {
    return { kind: 'rate_limited', retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error.hasCode('SECOND_FACTOR_REQUIRED')) return { kind: 'second_factor' };
  if (error.hasCode('EMAIL_NOT_VERIFIED')) return { kind: 'email_not_verified' };
  if (error.hasCode('INVALID_CREDENTIALS')) return { kind: 'invalid_credentials' };
  if (error.hasCode('USER_NOT_FOUND')) return { kind: 'refused', code: 'USER_NOT_FOUND' };
  if (error.hasCode('MAX_LICENCES_REACHED')) return { kind: 'refused', code: 'MAX_LICENCES_REACHED' };
  if (error.hasCode('INVALID_TOKEN')) return { kind: 'invalid_token' };
  return { kind: 'other', error };
}

/** The i18n key telling why a session was refused (spec §8: handled gracefully, the visitor stays anonymous). */
export function refusalKey(code: SessionRefusal): string {
  return code === 'USER_NOT_FOUND' ? 'auth:refused_user_not_found' : 'auth:refused_max_licences';
}

/**
 * Where to go after signing in: `next` when it is a path of this site, else `/`. Other origins
 * ("//evil.example", "https://…", "/\\evil", "/.//evil") and the auth pages themselves are refused.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(next)) return '/';
  try {
    const url = new URL(next, 'https://ferry.invalid');
    if (url.origin !== 'https://ferry.invalid') return '/';
    if (/^\/(signin|register|verify-email|forgot-password|reset-password)(\/|$)/.test(url.pathname))
      return '/';
    // Judged as the browser will read the path given back: "/.//evil" resolves to "//evil", another host.
    const path = `${url.pathname}${url.search}${url.hash}`;
    return new URL(path, 'https://ferry.invalid').origin === 'https://ferry.invalid' ? path : '/';
  } catch {
    return '/';
  }
}

/** `/signin?next=…` for a page that needs sign-in. */
export function signInPath(location: { pathname: string; search?: string; hash?: string }): string {
  const next = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  return next === '/' ? '/signin' : `/signin?next=${encodeURIComponent(next)}`;
}

/** A second-factor code as typed: a 6-digit TOTP ("123 456" works) or a recovery code. */
export function normaliseCode(code: string): string {
  const trimmed = code.trim();
  return /^[\d\s-]+$/.test(trimmed) ? trimmed.replace(/[\s-]/g, '') : trimmed;
}
