import { z } from 'zod';
import { TRANSFER_STATUSES, TRANSFER_TYPES } from '../enums.js';
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '../rules/report.js';
import { Email, TransferId } from './transfer.js';

/*
 * Moderation of transfers: anyone who can see a transfer's id reports abuse (POST /api/transfer/reports); the
 * operators (OPERATOR_EMAILS) work the queue under /api/operator/moderation/… A transfer under review is MODERATING
 * (shown as pending, spec §2) and answers 403 TRANSFER_UNDER_REVIEW to every download; a retained one is RETAINED
 * (shown as deleted to everyone), its files kept RETENTION_DAYS for legal requests, then purged.
 */

export { REPORT_DETAILS_MAX, REPORT_REASONS };
export const ReportReason = z.enum(REPORT_REASONS);
export type ReportReason = z.infer<typeof ReportReason>;

/**
 * POST /api/transfer/reports → 202 { received: true }, whether or not the transfer exists (the answer tells
 * nothing the download page does not). 429 RATE_LIMITED past the limits per client address and per transfer.
 */
export const TransferReportRequest = z.object({
  transferId: TransferId,
  reason: ReportReason,
  details: z.string().trim().max(REPORT_DETAILS_MAX).optional(),
  /** Where the operators may answer the reporter; optional. */
  email: z.union([Email, z.literal('')]).optional(),
});
export type TransferReportRequest = z.input<typeof TransferReportRequest>;
export const TransferReportResponse = z.object({ received: z.literal(true) });

/** Why a transfer is in the queue: reports, an operator's hold, or an automatic rule before delivery. */
export const ModerationHoldSource = z.enum(['reports', 'operator', 'rule']);
export type ModerationHoldSource = z.infer<typeof ModerationHoldSource>;

export const ModerationReport = z.object({
  id: z.number().int(),
  reason: ReportReason,
  details: z.string().nullable(),
  reporterEmail: z.string().nullable(),
  /** The reporter was signed in (their account's address is reporterEmail when they gave none). */
  signedIn: z.boolean(),
  at: z.string().datetime(),
});
export type ModerationReport = z.infer<typeof ModerationReport>;

/** One transfer in the queue: under review, or with open reports, or both. */
export const ModerationCase = z.object({
  transferId: TransferId,
  type: z.enum(TRANSFER_TYPES),
  status: z.enum(TRANSFER_STATUSES),
  name: z.string().nullable(),
  message: z.string().nullable(),
  senderEmail: z.string().nullable(),
  senderName: z.string().nullable(),
  /** The owner's account address; null for an anonymous transfer. */
  ownerEmail: z.string().nullable(),
  fileCount: z.number().int(),
  totalSize: z.number(),
  files: z.array(
    z.object({ id: z.string(), name: z.string(), size: z.number(), sha256: z.string().nullable() }),
  ),
  recipientCount: z.number().int(),
  createdAt: z.string().datetime(),
  expiresAt: z.string().datetime(),
  sentAt: z.string().datetime().nullable(),
  /** Held: why and since when (null when it is not under review). */
  hold: z
    .object({
      source: ModerationHoldSource,
      at: z.string().datetime(),
      by: z.string(),
      details: z.record(z.string(), z.unknown()),
    })
    .nullable(),
  /** Open reports, newest first. */
  reports: z.array(ModerationReport),
  /** Distinct reporters of the open reports. */
  reporters: z.number().int(),
});
export type ModerationCase = z.infer<typeof ModerationCase>;

/** GET /api/operator/moderation → 200 { cases }: held transfers first, then by the latest report. */
export const ModerationQueue = z.object({ cases: z.array(ModerationCase) });
export type ModerationQueue = z.infer<typeof ModerationQueue>;

/*
 * GET  /api/operator/moderation/{transferId}          → 200 ModerationCase (any transfer, in the queue or not)
 * POST /api/operator/moderation/{transferId}/hold     → 200 ModerationCase (→ MODERATING)
 * POST /api/operator/moderation/{transferId}/release  → 200 ModerationCase (→ ENABLED, delivered if never sent)
 * POST /api/operator/moderation/{transferId}/retain   → 200 ModerationCase (→ RETAINED, RETAINED event)
 * POST /api/operator/moderation/{transferId}/dismiss  → 200 ModerationCase (open reports closed, status kept)
 * Each takes an optional { note } kept in the operators' journal.
 */
export const ModerationDecision = z.object({ note: z.string().trim().max(500).optional() });
export type ModerationDecision = z.input<typeof ModerationDecision>;
