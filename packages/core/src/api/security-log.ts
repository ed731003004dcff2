import { z } from 'zod';

/*
 * A team's security log (spec §2 /dashboard/admin/security-logs; issue "Teams a manager runs"). One entry per
 * action, kept for the team's retention (365 days by default). A team is its manager's uid; an account without a
 * team is a team of one. Actions are a fixed list: scripts filter on them (`ferry team logs --action A`).
 */
export const SECURITY_ACTIONS = [
  'sign-in',
  'sign-in-failed',
  'second-factor-enabled',
  'second-factor-disabled',
  'password-changed',
  'password-reset',
  'sessions-revoked',
  'api-key-created',
  'api-key-used',
  'api-key-revoked',
  'transfer-created',
  'transfer-downloaded',
  'transfer-disabled',
  'transfer-deleted',
  'member-invited',
  'member-joined',
  'member-removed',
  'member-disabled',
  'member-enabled',
  'permissions-changed',
  'policy-changed',
  'webhook-created',
  'webhook-removed',
] as const;
export const SecurityAction = z.enum(SECURITY_ACTIONS);
export type SecurityAction = z.infer<typeof SecurityAction>;

/** One entry as listed and exported (`ferry team logs --json` prints `{at,actor,action,ip,target}` of each). */
export const SecurityLogEntry = z.object({
  id: z.number().int(),
  at: z.string().datetime(),
  /** The acting account's e-mail, or the API token's name; null for an unknown address (a failed sign-in). */
  actor: z.string().nullable(),
  actorUserId: z.string().nullable(),
  action: SecurityAction,
  ip: z.string().nullable(),
  /** The client's device as its user agent names it. */
  userAgent: z.string().nullable(),
  /** What was acted on: a transfer id, a member's e-mail, a key's name… */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type SecurityLogEntry = z.infer<typeof SecurityLogEntry>;
