import { z } from 'zod';
import { SESSION_COOKIE_STAY_SIGNED_IN_MINUTES } from '../constants.js';
import { BILLING_FREQUENCIES, PERMISSIONS, PLAN_CODES, PLAN_TYPES, type PlanCode } from '../enums.js';
import { ApiTokenScope, ApiTokenScopes } from './api-keys.js';
import { Email, PersonName } from './transfer.js';

/*
 * Accounts and sessions. The spec's session calls (§7: /auth/auth/session-cookie, set-session, sign-out,
 * id-token, /auth/providers/users/{email}/by-email, /user/auth/has-active-account/{email}) are implemented as
 * listed; the sign-up and sign-in calls the spec leaves "not shown" are Ferry's own, below.
 *
 * Sign-in gives an **id token** (short-lived, 1 hour); the client trades it at
 * GET /api/auth/auth/session-cookie (header `id-token`) for the **session token**, which is also set as the
 * `ferry_session` cookie (HttpOnly). Both are signed JWTs (three dot-separated parts, spec §5). API clients
 * (the CLI) send either `Authorization: Bearer <session token>` or a personal API token `Authorization: Bearer
 * fry_…`.
 */

/** Passwords: 10 to 256 characters (long passphrases welcome); nothing else is imposed. */
export const Password = z
  .string()
  .min(10, 'use at least 10 characters')
  .max(256)
  .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/** Names shown to others (first name, API token name, company): one line, no control characters. */
const name = PersonName();

/** Plan codes sold through checkout: every code of spec §3 but CUSTOM (sold by contact, /register/enterprise). */
export const SELF_SERVICE_PLAN_CODES = PLAN_CODES.filter(
  (code): code is Exclude<PlanCode, 'CUSTOM'> => code !== 'CUSTOM',
) as [Exclude<PlanCode, 'CUSTOM'>, ...Exclude<PlanCode, 'CUSTOM'>[]];

/**
 * The plan chosen on /register?type=…&frequency=…&trial=… (kept for the billing step). The spec shows
 * PREMIUM|TEAM10; every self-service plan code is accepted.
 */
export const ChosenPlan = z.object({
  type: z.enum(SELF_SERVICE_PLAN_CODES),
  frequency: z.enum(BILLING_FREQUENCIES).optional(),
  trial: z.boolean().optional(),
});
export type ChosenPlan = z.infer<typeof ChosenPlan>;

/** POST /api/auth/register → 202 RegisterResponse (the same answer whether or not the address has an account). */
export const RegisterRequest = z.object({
  email: Email,
  password: Password,
  firstname: name.optional(),
  locale: z.string().max(35).optional(),
  plan: ChosenPlan.optional(),
});
export type RegisterRequest = z.input<typeof RegisterRequest>;
export const RegisterResponse = z.object({ sentTo: z.string() });

/** POST /api/auth/verify-email { token } (from the link /verify-email?token=… mailed at sign-up) → IdTokenResponse. */
export const VerifyEmailRequest = z.object({ token: z.string().min(1).max(2000) });

/**
 * POST /api/auth/signin → IdTokenResponse. Errors: 401 INVALID_CREDENTIALS (wrong e-mail or password, the same
 * for both), 403 EMAIL_NOT_VERIFIED (a new link was mailed), 401 SECOND_FACTOR_REQUIRED (give `totp`),
 * 429 RATE_LIMITED (Retry-After) after repeated failures for the address or from the client.
 */
export const SignInRequest = z.object({
  email: Email,
  password: z.string().min(1).max(256),
  /** A 6-digit TOTP code or a recovery code, when the account has a second factor. */
  totp: z.string().trim().max(40).optional(),
});
export type SignInRequest = z.input<typeof SignInRequest>;

export const IdTokenResponse = z.object({
  idToken: z.string(),
  /** ISO time the id token stops being accepted (1 hour). */
  expiresAt: z.string(),
});
export type IdTokenResponse = z.infer<typeof IdTokenResponse>;

/** POST /api/auth/password/forgot { email } → 202 (always; a reset link is mailed when the account exists). */
export const ForgotPasswordRequest = z.object({ email: Email, locale: z.string().max(35).optional() });
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordRequest>;
/**
 * POST /api/auth/password/reset { token, password, totp? } → IdTokenResponse; every session is signed out and
 * every id token voided. An account with a second factor answers 401 SECOND_FACTOR_REQUIRED until `totp` is
 * given (the link stays usable until then).
 */
export const ResetPasswordRequest = z.object({
  token: z.string().min(1).max(2000),
  password: Password,
  /** A 6-digit TOTP code or a recovery code, when the account has a second factor. */
  totp: z.string().trim().max(40).optional(),
});
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;

/** Query of GET /api/auth/auth/session-cookie (header `id-token`). */
export const SessionCookieQuery = z.object({
  /** Session length; 20160 (14 days) when the user stays signed in. Default 1440 (one day). */
  expiresInMinutes: z.coerce.number().int().min(5).max(SESSION_COOKIE_STAY_SIGNED_IN_MINUTES).default(1440),
  currentDomain: z.string().max(253).optional(),
  deviceId: z.string().uuid().optional(),
});

/**
 * 200 answer of session-cookie. On 400 the body is the §8 coded error with `codes` USER_NOT_FOUND or
 * MAX_LICENCES_REACHED (handled gracefully by the client) or another code.
 */
export const SessionCookieResponse = z.object({
  sessionCookie: z.string(),
  /** Epoch milliseconds the session ends (the state's `sessionExpireTimestamp`). */
  sessionExpireTimestamp: z.number().int(),
  /**
   * With `currentDomain`: the user's account or team is served at another host (its subdomain or custom domain).
   * The client goes to `{redirectOrigin}/…?customToken=…&authRedir=true[&staySignedIn=true]` (spec §4).
   */
  redirectDomain: z.string().optional(),
  redirectOrigin: z.string().optional(),
  /** The one-time hand-off token for redirectDomain (60 s; redeemed at POST /api/auth/auth/custom-token there). */
  customToken: z.string().optional(),
});
export type SessionCookieResponse = z.infer<typeof SessionCookieResponse>;

/** The signed-in state (spec §3 auth state) — GET /api/auth/me; the anonymous state is `{ user: null, … }`. */
export const AuthState = z.object({
  user: z
    .object({
      uid: z.string(),
      email: z.string(),
      displayName: z.string().nullable(),
      /** The account's language (a spec locale code chosen in the profile or the switcher; null: none chosen). */
      locale: z.string().nullable(),
    })
    .nullable(),
  planType: z.enum(PLAN_TYPES),
  payingUser: z.boolean(),
  managerId: z.string().nullable(),
  lastLogin: z.string().nullable(),
  currentSignInProvider: z.string().nullable(),
  authorization: z.object({
    managerId: z.string().nullable(),
    permissions: z.array(z.enum(PERMISSIONS)),
  }),
  sessionExpireTimestamp: z.number().int().nullable(),
  /** The plan chosen at sign-up, waiting for the billing step. */
  chosenPlan: ChosenPlan.nullable(),
});
export type AuthState = z.infer<typeof AuthState>;

/** The session token's claims (spec §3). */
export interface SessionClaims {
  user_id: string;
  email: string;
  name: string | null;
  plan_type: (typeof PLAN_TYPES)[number];
  manager_id: string | null;
  authorization: { manager_id: string | null; permissions: Array<(typeof PERMISSIONS)[number]> };
  iat: number;
  exp: number;
  /** Session id (server-side record: sign-out revokes it). */
  sid: string;
  /** Provider claim: how the user signed in (`password`, `google`, `api_token`, …). */
  sign_in_provider: string;
}

/** An active session, for /account/security. */
export const SessionInfo = z.object({
  id: z.string(),
  deviceId: z.string().nullable(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** Personal API tokens (/account/integrations; the CLI's `ferry login --token`). */
export const ApiTokenCreateRequest = z.object({
  name: name.pipe(z.string().min(1)),
  /** Default: every scope but admin (DEFAULT_API_TOKEN_SCOPES). */
  scopes: ApiTokenScopes.optional(),
});
export type ApiTokenCreateRequest = z.input<typeof ApiTokenCreateRequest>;
export const ApiTokenInfo = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(ApiTokenScope),
  /** The first characters, to recognise it (`fry_ab12…`). */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiTokenInfo = z.infer<typeof ApiTokenInfo>;
/** The token itself is shown once, at creation. */
export const ApiTokenCreated = ApiTokenInfo.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof ApiTokenCreated>;

export const HasActiveAccountResponse = z.object({ hasActiveAccount: z.boolean() });
export const ProvidersByEmailResponse = z.object({ providers: z.array(z.string()) });

/** Second factor (/account/security): TOTP (RFC 6238, 30 s, 6 digits) with one-time recovery codes. */
export const TotpStatus = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() });
export type TotpStatus = z.infer<typeof TotpStatus>;
/** POST /api/auth/totp/setup: a new secret to scan (not active until confirmed with a code). */
export const TotpSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetupResponse = z.infer<typeof TotpSetupResponse>;
/** POST /api/auth/totp/enable and /recovery-codes: a current code from the app. */
export const TotpCodeRequest = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'the code has 6 digits'),
});
/** Ten recovery codes, shown once; each signs in once instead of a TOTP code. */
export const RecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;
/** POST /api/auth/totp/disable: the password again. */
export const TotpDisableRequest = z.object({ password: z.string().min(1).max(256) });

/** GET /api/auth/auth/sign-out → how many sessions ended. */
export const SignOutResponse = z.object({ revoked: z.number().int() });
export type SignOutResponse = z.infer<typeof SignOutResponse>;

/**
 * POST /api/auth/password/change (signed in) → 200 SignOutResponse: the other sessions of the account are
 * revoked (the calling one stays). Errors: 401 INVALID_CREDENTIALS (wrong current password), 429 RATE_LIMITED.
 */
export const ChangePasswordRequest = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: Password,
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

/**
 * POST /api/sales/enterprise-contact (anyone; rate limited) → 201 { id }: the /register/enterprise form, stored
 * and mailed to SALES_EMAIL.
 */
export const EnterpriseContactRequest = z.object({
  name: name.pipe(z.string().min(1)),
  email: Email,
  company: name.pipe(z.string().min(1)),
  phone: z.string().trim().max(40).optional(),
  teamSize: z.number().int().min(1).max(1_000_000).optional(),
  message: z
    .string()
    .trim()
    .max(5000)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .optional(),
  locale: z.string().max(35).optional(),
});
export type EnterpriseContactRequest = z.input<typeof EnterpriseContactRequest>;
export const EnterpriseContactResponse = z.object({ id: z.string() });
export type EnterpriseContactResponse = z.infer<typeof EnterpriseContactResponse>;

/**
 * POST /api/sales/contact (anyone; rate limited) → 201 { id }: the general form of /contact, stored and mailed to
 * SUPPORT_EMAIL (SALES_EMAIL when unset). The subject is one line (it becomes the mail's subject).
 */
export const ContactMessageRequest = z.object({
  name: name.pipe(z.string().min(1)),
  email: Email,
  subject: PersonName(200).pipe(z.string().min(1)),
  message: z
    .string()
    .trim()
    .min(1)
    .max(5000)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters'),
  locale: z.string().max(35).optional(),
});
export type ContactMessageRequest = z.input<typeof ContactMessageRequest>;
export const ContactMessageResponse = z.object({ id: z.string() });
export type ContactMessageResponse = z.infer<typeof ContactMessageResponse>;
