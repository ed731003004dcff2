import {
  type ApiTokenCreated,
  type ApiTokenCreateRequest,
  type ApiTokenInfo,
  type AuthState,
  type ChangePasswordRequest,
  type ChosenPlan,
  type EnterpriseContactRequest,
  type IdTokenResponse,
  type RecoveryCodesResponse,
  type RegisterRequest,
  SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
  type SessionCookieResponse,
  type SessionInfo,
  type SignInRequest,
  type TotpSetupResponse,
  type TotpStatus,
  type UserProfile,
  type UserProfileUpdate,
} from '@ferry/core';
import { API_PREFIX, apiRequest, buildQuery } from './api';
import { lazySchema } from './schemas';

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
  return apiRequest('/auth/register', {
    method: 'POST',
    body: request,
    schema: lazySchema('RegisterResponse'),
  });
}

/** The token of the mailed `/verify-email?token=…` link → an id token (401 INVALID_TOKEN when used/expired). */
export function verifyEmail(token: string): Promise<IdTokenResponse> {
  return apiRequest('/auth/verify-email', {
    method: 'POST',
    body: { token },
    schema: lazySchema('IdTokenResponse'),
  });
}

/**
 * E-mail and password (and the second factor when asked) → an id token. 401 INVALID_CREDENTIALS,
 * 403 EMAIL_NOT_VERIFIED (a new link was mailed), 401 SECOND_FACTOR_REQUIRED, 429 RATE_LIMITED.
 */
export function signIn(request: SignInRequest): Promise<IdTokenResponse> {
  return apiRequest('/auth/signin', { method: 'POST', body: request, schema: lazySchema('IdTokenResponse') });
}

/** 202 always; a reset link is mailed when the account exists. */
export async function forgotPassword(email: string, locale?: string): Promise<void> {
  await apiRequest('/auth/password/forgot', { method: 'POST', body: { email, locale } });
}

/**
 * The token of the mailed `/reset-password?token=…` link and the new password → an id token. An account with
 * a second factor answers 401 SECOND_FACTOR_REQUIRED until `totp` (a code or a recovery code) is given.
 */
export function resetPassword(token: string, password: string, totp?: string): Promise<IdTokenResponse> {
  return apiRequest('/auth/password/reset', {
    method: 'POST',
    body: { token, password, totp },
    schema: lazySchema('IdTokenResponse'),
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
    schema: lazySchema('SessionCookieResponse'),
  });
}

/**
 * Redeems the one-time custom token of the cross-domain sign-in (spec §4) at the host it was made for: a session
 * here (its cookie set by the answer); 400 when it is invalid, expired, used or meant for another host.
 */
export function redeemCustomToken(customToken: string, deviceId?: string): Promise<SessionCookieResponse> {
  return apiRequest('/auth/auth/custom-token', {
    method: 'POST',
    body: { customToken, deviceId },
    schema: lazySchema('SessionCookieResponse'),
  });
}

/**
 * Sets the session cookie from a session token handed over from another domain (spec §4 `sessionCookie`);
 * 400 for a token that does not check out.
 */
export function setSession(sessionToken: string, expiresTimestamp?: number): Promise<SessionCookieResponse> {
  return apiRequest('/auth/auth/set-session', {
    headers: { 'session-token': sessionToken },
    query: { expiresTimestamp },
    schema: lazySchema('SessionCookieResponse'),
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
  return apiRequest('/auth/auth/id-token', { schema: lazySchema('IdTokenResponse') });
}

/** The spec §3 auth state of this browser's session; the anonymous state when there is none. */
export function getAuthState(signal?: AbortSignal): Promise<AuthState> {
  return apiRequest('/auth/me', { schema: lazySchema('AuthState'), signal });
}

export function listSessions(): Promise<SessionInfo[]> {
  return apiRequest('/auth/sessions', { schema: lazySchema('SessionList') });
}

export async function revokeSession(id: string): Promise<void> {
  await apiRequest(`/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function listApiTokens(): Promise<ApiTokenInfo[]> {
  return apiRequest('/auth/tokens', { schema: lazySchema('ApiTokenList') });
}

/** The token itself is in this answer only: it is shown once. */
export function createApiToken(request: ApiTokenCreateRequest): Promise<ApiTokenCreated> {
  return apiRequest('/auth/tokens', { method: 'POST', body: request, schema: lazySchema('ApiTokenCreated') });
}

export async function revokeApiToken(id: string): Promise<void> {
  await apiRequest(`/auth/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function hasActiveAccount(email: string): Promise<boolean> {
  const answer = await apiRequest(`/user/auth/has-active-account/${encodeURIComponent(email)}`, {
    schema: lazySchema('HasActiveAccountResponse'),
  });
  return answer.hasActiveAccount;
}

export async function signInProviders(email: string): Promise<string[]> {
  const answer = await apiRequest(`/auth/providers/users/${encodeURIComponent(email)}/by-email`, {
    schema: lazySchema('ProvidersByEmailResponse'),
  });
  return answer.providers;
}

/** An OpenID Connect provider the server offers (GET /api/auth/oidc/providers): its name and its label. */
export interface OidcProvider {
  name: string;
  label: string;
}

/** The server's schema lives with its routes, not in @ferry/core: the answer is checked here, field by field. */
const OidcProviderList = {
  parse(value: unknown): OidcProvider[] {
    if (!Array.isArray(value)) throw new Error('not a list');
    return value.map((item: unknown) => {
      const { name, label } = (item ?? {}) as Record<string, unknown>;
      if (typeof name !== 'string' || typeof label !== 'string') throw new Error('not a provider');
      return { name, label };
    });
  },
};

export function listOidcProviders(signal?: AbortSignal): Promise<OidcProvider[]> {
  return apiRequest('/auth/oidc/providers', { schema: OidcProviderList, signal });
}

/**
 * Where the browser goes (a navigation, never a fetch) to sign in at a provider: the server answers 302 to it,
 * and its callback sets the session cookie and lands on `next` (or on /signin?error=<code>). `plan` (picked on
 * /register) goes as `plan=&frequency=&trial=` and becomes the account's chosen plan, as with a password sign-up.
 */
export function oidcStartUrl(
  name: string,
  options: { next?: string; staySignedIn?: boolean; deviceId?: string; plan?: ChosenPlan },
): string {
  const query = buildQuery({
    next: options.next && options.next !== '/' ? options.next : undefined,
    staySignedIn: options.staySignedIn ? true : undefined,
    deviceId: options.deviceId,
    plan: options.plan?.type,
    frequency: options.plan?.frequency,
    trial: options.plan?.trial,
  });
  return `${API_PREFIX}/auth/oidc/${encodeURIComponent(name)}/start${query}`;
}

/** POST /auth/password/change: every other session of the account is signed out; resolves with how many. */
export async function changePassword(request: ChangePasswordRequest): Promise<number> {
  const answer = await apiRequest('/auth/password/change', {
    method: 'POST',
    body: request,
    schema: lazySchema('SignOutResponse'),
  });
  return answer.revoked;
}

export function getTotpStatus(): Promise<TotpStatus> {
  return apiRequest('/auth/totp', { schema: lazySchema('TotpStatus') });
}

/** A new secret to scan; the second factor is on only once a code from it is confirmed (409 when on already). */
export function setupTotp(): Promise<TotpSetupResponse> {
  return apiRequest('/auth/totp/setup', { method: 'POST', schema: lazySchema('TotpSetupResponse') });
}

/** Confirms the set-up with a code of the app → the recovery codes (shown once). */
export function enableTotp(code: string): Promise<RecoveryCodesResponse> {
  return apiRequest('/auth/totp/enable', {
    method: 'POST',
    body: { code },
    schema: lazySchema('RecoveryCodesResponse'),
  });
}

/** New recovery codes (the old ones stop working), against a current code of the app. */
export function regenerateRecoveryCodes(code: string): Promise<RecoveryCodesResponse> {
  return apiRequest('/auth/totp/recovery-codes', {
    method: 'POST',
    body: { code },
    schema: lazySchema('RecoveryCodesResponse'),
  });
}

/** Turns the second factor off (204); 401 INVALID_CREDENTIALS for a wrong password. */
export async function disableTotp(password: string): Promise<void> {
  await apiRequest('/auth/totp/disable', { method: 'POST', body: { password } });
}

/**
 * PATCH /user/users/{id}: any part of the profile (nested objects merged) → the whole profile. (Reading it is
 * lib/user-api.ts's getUserProfile.)
 */
export function updateUserProfile(uid: string, update: UserProfileUpdate): Promise<UserProfile> {
  return apiRequest(`/user/users/${encodeURIComponent(uid)}`, {
    method: 'PATCH',
    body: update,
    schema: lazySchema('UserProfile'),
  });
}

/** The /register/enterprise form (anyone; rate limited, 429): stored and mailed to the sales team → 201 { id }. */
export function sendEnterpriseContact(request: EnterpriseContactRequest): Promise<{ id: string }> {
  return apiRequest('/sales/enterprise-contact', {
    method: 'POST',
    body: request,
    schema: lazySchema('EnterpriseContactResponse'),
  });
}
