import { z } from 'zod';
import { PLAN_TYPES } from '../enums.js';

/**
 * GET /api/transfer/limits/{id} (spec §3 limits, shape "not shown"): what a user (or a team manager's account)
 * may do. Sizes in bytes. `forced*`, `forcedRegion` and `disableSSEC` are the account's own settings within
 * its plan, set with PUT /api/transfer/limits/{id}/by-user.
 */
export const Limits = z.object({
  planType: z.enum(PLAN_TYPES),
  files: z.number().int(),
  fileValidityInDays: z.number().int(),
  /** Every transfer of this account gets this validity (days) unless it asks for less; null: the default rule. */
  forcedFileValidityInDays: z.number().int().nullable(),
  messageLength: z.number().int(),
  recipients: z.number().int(),
  uploadSize: z.number(),
  storage: z.number(),
  /** Storage in use now (bytes of transfers not yet expired or deleted). */
  storageUsed: z.number(),
  globalStorage: z.number().nullable(),
  downloadedBytes7Days: z.number(),
  /** Bytes downloaded from this account's transfers over the last 7 days. */
  downloadedBytes7DaysUsed: z.number(),
  /** Storage region every transfer of this account is kept in (a name from the server's S3_REGIONS). */
  forcedRegion: z.string().nullable(),
  disableSSEC: z.boolean(),
});
export type Limits = z.infer<typeof Limits>;

/** PUT /api/transfer/limits/{id}/by-user: the settings an account may choose itself (each only when set). */
export const LimitsUpdate = z.object({
  forcedFileValidityInDays: z.number().int().min(1).max(3650).nullable().optional(),
  forcedRegion: z.string().max(63).nullable().optional(),
  disableSSEC: z.boolean().optional(),
});
export type LimitsUpdate = z.input<typeof LimitsUpdate>;
