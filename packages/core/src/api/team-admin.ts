import { z } from 'zod';

/*
 * A team's admin console (spec §2 /dashboard/admin/*; issue "Teams a manager runs"). A team is its manager's uid.
 */

/** A domain as typed in the allowed-domains list: lower case, no "@", at least one dot. */
export const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a domain such as example.com');

/**
 * The team's authentication rules (/dashboard/admin/authentication), kept with the manager's account.
 * - allowedEmailDomains: members' addresses must end in one of these (empty: any address). Invitations and joins
 *   outside them are refused with EMAIL_DOMAIN_NOT_ALLOWED; members already in the team stay.
 * - requireSecondFactor: a member signing in with a password must have a second factor; one without is answered
 *   403 SECOND_FACTOR_SETUP_REQUIRED with a setup token (see SecondFactorSetupStart). A provider sign-in relies on
 *   the provider's own second factor.
 * - signInMethods: the methods members may sign in with, "password" and the ids of configured providers; null:
 *   every method. Refused with SIGN_IN_METHOD_NOT_ALLOWED. The manager is never refused (nobody could fix it).
 */
export const TeamAuthPolicy = z.object({
  allowedEmailDomains: z.array(EmailDomain).max(100),
  requireSecondFactor: z.boolean(),
  signInMethods: z.array(z.string().min(1).max(50)).min(1).max(20).nullable(),
});
export type TeamAuthPolicy = z.infer<typeof TeamAuthPolicy>;

export const DEFAULT_TEAM_AUTH_POLICY: Readonly<TeamAuthPolicy> = Object.freeze({
  allowedEmailDomains: [],
  requireSecondFactor: false,
  signInMethods: null,
});

/** GET /team/{teamId}/authentication-policy: the policy and the methods this server offers. */
export const TeamAuthPolicyResponse = z.object({
  policy: TeamAuthPolicy,
  /** "password" and each configured provider's id. */
  availableMethods: z.array(z.string()),
});
export type TeamAuthPolicyResponse = z.infer<typeof TeamAuthPolicyResponse>;

/** POST /auth/second-factor-setup/start: the setup token from SECOND_FACTOR_SETUP_REQUIRED's details. */
export const SecondFactorSetupStart = z.object({ setupToken: z.string().min(1).max(2000) });
export type SecondFactorSetupStart = z.infer<typeof SecondFactorSetupStart>;

/** POST /auth/second-factor-setup/finish: the first code of the new authenticator; answers recovery codes and an id token. */
export const SecondFactorSetupFinish = z.object({
  setupToken: z.string().min(1).max(2000),
  code: z.string().regex(/^\d{6}$/),
});
export type SecondFactorSetupFinish = z.infer<typeof SecondFactorSetupFinish>;

/** True when `email` is in one of `domains` (or a subdomain of one), or when the list is empty. */
export function emailInDomains(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** One day of a team's activity (UTC days). */
export const TeamActivityDay = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Transfers the team's members (and manager) created that day. */
  transfersCreated: z.number().int(),
  /** Bytes handed out by download links of the team's transfers that day (admin downloads included). */
  bytesDownloaded: z.number(),
});
export type TeamActivityDay = z.infer<typeof TeamActivityDay>;

/**
 * GET /team/{teamId}/overview (/dashboard/admin): for the manager and members with TRANSFER_MANAGER or
 * USER_MANAGER. `seats.total` null: no seat limit; `storage.totalBytes` null: no global storage cap.
 */
export const TeamOverview = z.object({
  teamId: z.string(),
  seats: z.object({ used: z.number().int(), total: z.number().int().nullable() }),
  storage: z.object({ usedBytes: z.number(), totalBytes: z.number().nullable() }),
  downloaded7Days: z.object({ usedBytes: z.number(), maxBytes: z.number() }),
  /** The last 30 days, oldest first, today (UTC) last; days without activity are zeros. */
  activity: z.array(TeamActivityDay),
});
export type TeamOverview = z.infer<typeof TeamOverview>;
