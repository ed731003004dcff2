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

/** A day (YYYY-MM-DD, UTC) or an instant: `from` is the first day's start, a day as `to` is included whole. */
const DayOrInstant = z.union([
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  z.string().datetime({ offset: true }),
]);

/** GET /api/team/{teamId}/security-logs: filters, newest first, paged by an opaque cursor. */
export const SecurityLogQuery = z.object({
  /** A member's uid (the acting account). */
  member: z.string().min(1).max(100).optional(),
  action: SecurityAction.optional(),
  from: DayOrInstant.optional(),
  to: DayOrInstant.optional(),
  /** Searched in the actor, the target and the IP address (case-insensitive, part of the text). */
  q: z.string().trim().min(1).max(200).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type SecurityLogQuery = z.input<typeof SecurityLogQuery>;

export const SecurityLogPage = z.object({
  entries: z.array(SecurityLogEntry),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SecurityLogPage = z.infer<typeof SecurityLogPage>;

export const SecurityLogExportQuery = SecurityLogQuery.omit({ cursor: true, limit: true }).extend({
  format: z.enum(['csv', 'json']).default('csv'),
});
export type SecurityLogExportQuery = z.input<typeof SecurityLogExportQuery>;

export const SECURITY_LOG_RETENTION_DAYS = { min: 30, max: 3650, default: 365 } as const;

/** GET/PUT /api/team/{teamId}/security-log-settings: how long entries are kept. */
export const SecurityLogSettings = z.object({
  retentionDays: z.number().int().min(SECURITY_LOG_RETENTION_DAYS.min).max(SECURITY_LOG_RETENTION_DAYS.max),
});
export type SecurityLogSettings = z.infer<typeof SecurityLogSettings>;
