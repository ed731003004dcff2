import {
  addDays,
  type ModerationCase,
  ModerationDecision,
  type ModerationQueue,
  type ReportReason,
  type TransferReportRequest,
  TransferReportRequest as TransferReportSchema,
  type TransferStatus,
} from '@ferry/core';
import {
  type CaseTransfer,
  HOLDABLE,
  type HoldRecord,
  type PgModerationRepository,
  RETAINABLE,
  type ReportOutcome,
  type ReportRecord,
} from '../db/moderation.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { OperatorAccess } from './operator-access.js';
import type { RateLimiter } from './ports.js';

/** Reports per client address and per transfer, each per hour: enough for people, not for a flood. */
export const REPORT_LIMITS = {
  perClient: 10,
  perTransfer: 30,
  windowSeconds: 3600,
} as const;
const QUEUE_SIZE = 200;
/** Reports are taken for transfers a download page can show (any other id is answered alike and dropped). */
const REPORTABLE: readonly TransferStatus[] = ['ENABLED', 'MODERATING', 'SCANNING', 'PENDING', 'DISABLED'];

export interface ModerationSettings {
  /** How long a RETAINED transfer's files are kept before the expiry sweep purges them. */
  retentionDays: number;
  /** Distinct reporters whose open reports put a transfer under review by themselves; 0: never. */
  reportsToHold: number;
}

/** Who reports: their client address and, when signed in, their account. */
export interface Reporter {
  ip: string;
  userId: string | null;
  email: string | null;
}

/** Told about each new report (the operators' mail); never fails a report. */
export interface ReportListener {
  reported(transferId: string, reason: ReportReason, held: boolean): Promise<void>;
}

/**
 * Moderation of transfers: abuse reports from anyone who has the link, and the operators' queue where a transfer
 * is put under review (MODERATING), released (TransferService.releaseHeld: ENABLED, and delivered if it never went
 * out), retained (RETAINED, files kept RETENTION_DAYS) or its reports dismissed. Every operator method asks
 * OperatorAccess first (404 to anyone else) and writes the operators' journal.
 */
export class ModerationService {
  constructor(
    private readonly repo: PgModerationRepository,
    private readonly access: OperatorAccess,
    private readonly transfers: { releaseHeld(transferId: string): Promise<TransferStatus | null> },
    private readonly limiter: RateLimiter,
    /** A keyed hash of a client address: distinct reporters are counted without keeping their addresses. */
    private readonly reporterKey: (ip: string) => string,
    private readonly settings: ModerationSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private listener: ReportListener | null = null;

  onReport(listener: ReportListener): void {
    this.listener = listener;
  }

  /** POST /api/transfer/reports: always `received` (nothing said about the transfer), or 429. */
  async report(input: TransferReportRequest, reporter: Reporter): Promise<{ received: true }> {
    const request = TransferReportSchema.parse(input);
    await this.limit(`report-client:${reporter.ip}`, REPORT_LIMITS.perClient);
    await this.limit(`report-transfer:${request.transferId}`, REPORT_LIMITS.perTransfer);
    const status = await this.repo.status(request.transferId);
    if (!status || !REPORTABLE.includes(status)) return { received: true };
    const reporters = await this.repo.addReport({
      transferId: request.transferId,
      reason: request.reason,
      details: request.details || null,
      reporterEmail: request.email || reporter.email || null,
      reporterUserId: reporter.userId,
      reporterKey: reporter.userId ? `user:${reporter.userId}` : `ip:${this.reporterKey(reporter.ip)}`,
    });
    let held = false;
    if (
      this.settings.reportsToHold > 0 &&
      reporters >= this.settings.reportsToHold &&
      this.access.configured &&
      HOLDABLE.includes(status)
    )
      held = await this.repo.startHold(
        { transferId: request.transferId, source: 'reports', heldBy: 'system', details: { reporters } },
        null,
      );
    await this.listener?.reported(request.transferId, request.reason, held).catch(() => undefined);
    return { received: true };
  }

  private async limit(key: string, max: number): Promise<void> {
    const hit = await this.limiter.hit(key, max, REPORT_LIMITS.windowSeconds);
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many reports: try again later.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
  }

  async queue(auth: Authenticated | null): Promise<ModerationQueue> {
    this.access.require(auth);
    return { cases: await this.cases(await this.repo.queue(QUEUE_SIZE)) };
  }

  async case(auth: Authenticated | null, transferId: string): Promise<ModerationCase> {
    this.access.require(auth);
    return this.caseOf(transferId);
  }

  /** Puts a transfer under review: MODERATING (one still uploading is held when its upload completes). */
  async hold(auth: Authenticated | null, transferId: string, body: unknown): Promise<ModerationCase> {
    const operator = this.access.require(auth);
    const { note } = ModerationDecision.parse(body ?? {});
    const transfer = await this.found(transferId);
    if (![...HOLDABLE, 'UPLOADING'].includes(transfer.status) || (await this.repo.hold(transferId)))
      throw new AppError('CONFLICT', `A ${transfer.status} transfer cannot be put under review.`, {
        details: { status: transfer.status },
      });
    await this.repo.startHold(
      { transferId, source: 'operator', heldBy: operator.user.email, details: note ? { note } : {} },
      this.entry(operator, 'moderation-hold', transferId, note),
    );
    return this.caseOf(transferId);
  }

  /** Ends the review: back to ENABLED through TransferService (delivered now if it never went out). */
  async release(auth: Authenticated | null, transferId: string, body: unknown): Promise<ModerationCase> {
    const operator = this.access.require(auth);
    const { note } = ModerationDecision.parse(body ?? {});
    const transfer = await this.found(transferId);
    const hold = await this.repo.hold(transferId);
    if (!hold && transfer.status !== 'MODERATING')
      throw new AppError('CONFLICT', 'This transfer is not under review.', {
        details: { status: transfer.status },
      });
    await this.end(transfer, 'released', operator, note);
    return this.caseOf(transferId);
  }

  /** RETAINED: gone for every user (shown as deleted), files kept RETENTION_DAYS for legal requests, then purged. */
  async retain(auth: Authenticated | null, transferId: string, body: unknown): Promise<ModerationCase> {
    const operator = this.access.require(auth);
    const { note } = ModerationDecision.parse(body ?? {});
    const transfer = await this.found(transferId);
    const until = addDays(this.now(), this.settings.retentionDays);
    const retained =
      RETAINABLE.includes(transfer.status) &&
      (await this.repo.retain(
        transferId,
        until,
        { type: 'RETAINED', actor: 'system', data: {} },
        operator.user.email,
        this.entry(operator, 'moderation-retain', transferId, note, { retainedUntil: until.toISOString() }),
      ));
    if (!retained)
      throw new AppError(
        'CONFLICT',
        `A ${transfer.status} transfer cannot be retained: its files are gone.`,
        {
          details: { status: transfer.status },
        },
      );
    return this.caseOf(transferId);
  }

  /** Closes the open reports; a transfer held by those reports alone is released with them. */
  async dismiss(auth: Authenticated | null, transferId: string, body: unknown): Promise<ModerationCase> {
    const operator = this.access.require(auth);
    const { note } = ModerationDecision.parse(body ?? {});
    const transfer = await this.found(transferId);
    const hold = await this.repo.hold(transferId);
    if (hold?.source === 'reports') await this.end(transfer, 'dismissed', operator, note);
    else
      await this.repo.dismiss(
        transferId,
        operator.user.email,
        this.entry(operator, 'moderation-dismiss', transferId, note),
      );
    return this.caseOf(transferId);
  }

  private async end(
    transfer: CaseTransfer,
    outcome: Exclude<ReportOutcome, 'retained'>,
    operator: Authenticated,
    note: string | undefined,
  ): Promise<void> {
    const action = outcome === 'released' ? 'moderation-release' : 'moderation-dismiss';
    await this.repo.endHold(
      transfer.id,
      outcome,
      operator.user.email,
      this.entry(operator, action, transfer.id, note),
    );
    if (transfer.status === 'MODERATING') await this.transfers.releaseHeld(transfer.id);
  }

  private async found(transferId: string): Promise<CaseTransfer> {
    const transfer = /^[A-Za-z0-9]{1,64}$/.test(transferId) ? await this.repo.transfer(transferId) : null;
    if (!transfer) throw new AppError('NOT_FOUND', 'No such transfer.');
    return transfer;
  }

  private async caseOf(transferId: string): Promise<ModerationCase> {
    const [one] = await this.cases([await this.found(transferId)]);
    return one!;
  }

  private async cases(transfers: CaseTransfer[]): Promise<ModerationCase[]> {
    if (transfers.length === 0) return [];
    const ids = transfers.map((t) => t.id);
    const [reports, holds, files] = await Promise.all([
      this.repo.openReports(ids),
      this.repo.holds(ids),
      this.repo.files(ids),
    ]);
    return transfers.map((t) => view(t, reports, holds, files));
  }

  private entry(
    operator: Authenticated,
    action: string,
    transferId: string,
    note: string | undefined,
    details: Record<string, unknown> = {},
  ) {
    return {
      operatorId: operator.user.id,
      operatorEmail: operator.user.email,
      action,
      target: transferId,
      details: { ...details, ...(note ? { note } : {}) },
    };
  }
}

function view(
  t: CaseTransfer,
  reports: ReportRecord[],
  holds: HoldRecord[],
  files: Array<{ transferId: string; id: string; name: string; size: number; sha256: string | null }>,
): ModerationCase {
  const own = reports.filter((r) => r.transferId === t.id);
  const hold = holds.find((h) => h.transferId === t.id);
  return {
    transferId: t.id,
    type: t.type,
    status: t.status,
    name: t.name,
    message: t.message,
    senderEmail: t.senderEmail,
    senderName: t.senderName,
    ownerEmail: t.ownerEmail,
    fileCount: t.fileCount,
    totalSize: t.totalSize,
    files: files.filter((f) => f.transferId === t.id).map(({ transferId: _, ...f }) => f),
    recipientCount: t.recipientCount,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt.toISOString(),
    sentAt: t.sentAt?.toISOString() ?? null,
    hold:
      hold && t.status !== 'RETAINED' && t.status !== 'DELETED'
        ? { source: hold.source, at: hold.heldAt.toISOString(), by: hold.heldBy, details: hold.details }
        : null,
    reports: own.map((r) => ({
      id: r.id,
      reason: r.reason,
      details: r.details,
      reporterEmail: r.reporterEmail,
      signedIn: r.reporterUserId !== null,
      at: r.createdAt.toISOString(),
    })),
    reporters: new Set(own.map((r) => r.reporterKey)).size,
  };
}
