import { z } from 'zod';
import { TransferListItem, TransferListQuery } from './dashboard.js';

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
  /**
   * `used`: the manager and the members (disabled ones too); `pending`: live invitations (not accepted, expired
   * or withdrawn), which hold a seat each until then. Both count against `total`.
   */
  seats: z.object({ used: z.number().int(), pending: z.number().int(), total: z.number().int().nullable() }),
  storage: z.object({ usedBytes: z.number(), totalBytes: z.number().nullable() }),
  downloaded7Days: z.object({ usedBytes: z.number(), maxBytes: z.number() }),
  /** The last 30 days, oldest first, today (UTC) last; days without activity are zeros. */
  activity: z.array(TeamActivityDay),
});
export type TeamOverview = z.infer<typeof TeamOverview>;

/**
 * GET /user/teams/{teamId}/transfers (/dashboard/admin/transfers): every transfer the team's accounts own (the
 * manager's and each member's, disabled members' too; a removed member takes theirs along), keyset-paged like
 * GET /transfer/transfers with the same `q`, `type`, `status`, `sort`, `dir`, `cursor` and `limit`, and `member`:
 * one account of the team (its uid) whose transfers alone are listed. For the manager and TRANSFER_MANAGER members.
 */
export const TeamTransferListQuery = TransferListQuery.omit({ direction: true, withFiles: true }).extend({
  member: z.string().trim().min(1).max(100).optional(),
});
export type TeamTransferListQuery = z.input<typeof TeamTransferListQuery>;

/**
 * A transfer of the list, with its owner and its first file's name (what an untitled transfer is shown as);
 * `link` is the sender's own link, as the dashboard gives it.
 */
export const TeamTransferListItem = TransferListItem.extend({
  ownerUid: z.string(),
  ownerEmail: z.string(),
  firstFileName: z.string().nullable(),
});
export type TeamTransferListItem = z.infer<typeof TeamTransferListItem>;

export const TeamTransferListResponse = z.object({
  items: z.array(TeamTransferListItem),
  /** Give it as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** How many transfers match the filters (exact up to TRANSFER_LIST_TOTAL_CAP). */
  total: z.number().int(),
  totalIsCapped: z.boolean(),
});
export type TeamTransferListResponse = z.infer<typeof TeamTransferListResponse>;
