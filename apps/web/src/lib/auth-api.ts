import {
  ApiTokenCreated,
  ApiTokenInfo,
  AuthState,
  HasActiveAccountResponse,
  IdTokenResponse,
  ProvidersByEmailResponse,
  type RegisterRequest,
  RegisterResponse,
  SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
  SessionCookieResponse,
  SessionInfo,
  type SignInRequest,
} from '@ferry/core';
import { apiRequest } from './api';

/**
 * The accounts and sessions calls (packages/core/src/api/auth.ts), answers validated with @ferry/core's zod
 * schemas. Every call goes with the `ferry_session` cookie (credentials 'same-origin'): the web app never
 * holds the session token itself.
 */

/** Session length without "Stay signed in" (the server's default): one day. */
export const SESSION_MINUTES_DEFAULT = 1440;
/** Session length with "Stay signed in" (spec §9): 14 days. */
export const SESSION_MINUTES_STAY_SIGNED_IN = SESSION_COOKIE_STAY_SIGNED_IN_MINUTES;

export function sessionMinutes(staySignedIn: boolean): number {
  return staySignedIn ? SESSION_MINUTES_STAY_SIGNED_IN : SESSION_MINUTES_DEFAULT;
}

/** 202: the same answer whether or not the address has an account; a verification link is mailed. */
export function register(request: RegisterRequest): Promise<{ sentTo: string }> {
  return apiRequest('/auth/register', { method: 'POST', body: request, schema: RegisterResponse });
}

/** The token of the mailed `/verify-email?token=…` link → an id token (401 INVALID_TOKEN when used/expired). */
export function verifyEmail(token: string): Promise<IdTokenResponse> {
  return apiRequest('/auth/verify-email', { method: 'POST', body: { token }, schema: IdTokenResponse });
}

/**
 * E-mail and password (and the second factor when asked) → an id token. 401 INVALID_CREDENTIALS,
 * 403 EMAIL_NOT_VERIFIED (a new link was mailed), 401 SECOND_FACTOR_REQUIRED, 429 RATE_LIMITED.
 */
export function signIn(request: SignInRequest): Promise<IdTokenResponse> {
  return apiRequest('/auth/signin', { method: 'POST', body: request, schema: IdTokenResponse });
}

/** 202 always; a reset link is mailed when the account exists. */
export async function forgotPassword(email: string, locale?: string): Promise<void> {
  await apiRequest('/auth/password/forgot', { method: 'POST', body: { email, locale } });
}

/** The token of the mailed `/reset-password?token=…` link and the new password → an id token. */
export function resetPassword(token: string, password: string): Promise<IdTokenResponse> {
  return apiRequest('/auth/password/reset', {
    method: 'POST',
    body: { token, password },
    schema: IdTokenResponse,
  });
}

export interface SessionCookieOptions {
  expiresInMinutes: number;
  /** The `ferry_device` cookie's UUID (spec §9). */
  deviceId?: string;
  currentDomain?: string;
}

/**
 * Trades an id token for a session: the answer also sets the HttpOnly `ferry_session` cookie. 400 with
 * USER_NOT_FOUND or MAX_LICENCES_REACHED is for the caller to handle gracefully (spec §8).
 */
export function createSessionCookie(
  idToken: string,
  options: SessionCookieOptions,
): Promise<SessionCookieResponse> {
  return apiRequest('/auth/auth/session-cookie', {
    headers: { 'id-token': idToken },
    query: { ...options },
    schema: SessionCookieResponse,
  });
}

/** Revokes the current session (or every session of the account) and clears the cookie. */
export async function signOut(options: { deviceId?: string; revokeAllSessions?: boolean }): Promise<number> {
  const answer = await apiRequest<unknown>('/auth/auth/sign-out', {
    query: { deviceId: options.deviceId, revokeAllSessions: options.revokeAllSessions ? true : undefined },
  });
  // The contract has no schema for this answer ({ revoked: number }): read it defensively.
  const revoked = (answer as { revoked?: unknown } | null)?.revoked;
  return typeof revoked === 'number' ? revoked : 0;
}

/** A fresh id token for the current session (fresh claims, e.g. the plan after a change). */
export function fetchIdToken(): Promise<IdTokenResponse> {
  return apiRequest('/auth/auth/id-token', { schema: IdTokenResponse });
}

/** The spec §3 auth state of this browser's session; the anonymous state when there is none. */
export function getAuthState(signal?: AbortSignal): Promise<AuthState> {
  return apiRequest('/auth/me', { schema: AuthState, signal });
}

const SessionList = SessionInfo.array();
const ApiTokenList = ApiTokenInfo.array();

export function listSessions(): Promise<SessionInfo[]> {
  return apiRequest('/auth/sessions', { schema: SessionList });
}

export async function revokeSession(id: string): Promise<void> {
  await apiRequest(`/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function listApiTokens(): Promise<ApiTokenInfo[]> {
  return apiRequest('/auth/tokens', { schema: ApiTokenList });
}

/** The token itself is in this answer only: it is shown once. */
export function createApiToken(name: string): Promise<ApiTokenCreated> {
  return apiRequest('/auth/tokens', { method: 'POST', body: { name }, schema: ApiTokenCreated });
}

export async function revokeApiToken(id: string): Promise<void> {
  await apiRequest(`/auth/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function hasActiveAccount(email: string): Promise<boolean> {
  const answer = await apiRequest(`/user/auth/has-active-account/${encodeURIComponent(email)}`, {
    schema: HasActiveAccountResponse,
  });
  return answer.hasActiveAccount;
}

export async function signInProviders(email: string): Promise<string[]> {
  const answer = await apiRequest(`/auth/providers/users/${encodeURIComponent(email)}/by-email`, {
    schema: ProvidersByEmailResponse,
  });
  return answer.providers;
}
