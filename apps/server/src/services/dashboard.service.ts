import {
  type Currency,
  GB,
  PLAN_LIMITS,
  parseEventActor,
  type TransferDetail,
  TransferListQuery,
  type TransferListResponse,
  type TransferSale,
  transferListTotalCap,
  transferStatusLabel,
} from '@ferry/core';
import type { UserRecord } from '../db/account.repository.js';
import type { DashboardRepository, TransferListFilter } from '../db/dashboard.repository.js';
import type { PgAdditionRepository } from '../db/dashboard-additions.repository.js';
import type { Authenticated } from './auth.service.js';
import { type DashboardAccess, type DashboardContext, signedIn } from './dashboard-access.js';
import { buildTimelines, listItemOf, readCursor, writeCursor } from './dashboard-view.js';
import type { LimitsService } from './limits.service.js';
import type { NotificationService } from './notification.service.js';
import type { TransferRecord, TransferRepository } from './ports.js';
import { downloadLink, type TransferService, toFile } from './transfer.service.js';

export type { DashboardContext } from './dashboard-access.js';

/**
 * The dashboard's reading side (/dashboard/transfers): the signed-in user's transfers, sent and received, and one
 * transfer's detail, which every action (DashboardActionsService, TransferCloneService, FileAdditionService)
 * answers with. Only the transfer's owner, their team's manager, or a member of that team with TRANSFER_MANAGER
 * may see a detail (DashboardAccess); anyone else is told the transfer does not exist.
 */
export class DashboardService {
  constructor(
    private readonly repo: DashboardRepository,
    private readonly additions: Pick<PgAdditionRepository, 'pending'>,
    private readonly transfers: TransferRepository,
    private readonly access: DashboardAccess,
    private readonly limits: Pick<LimitsService, 'forSender'>,
    private readonly transferService: Pick<TransferService, 'summary'>,
    private readonly notifications: NotificationService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(
    auth: Authenticated | null,
    input: TransferListQuery,
    ctx: DashboardContext,
  ): Promise<TransferListResponse> {
    const user = signedIn(auth);
    const query = TransferListQuery.parse(input);
    const filter: TransferListFilter = {
      ownerIds: [user.id],
      email: user.email.toLowerCase(),
      direction: query.direction,
      q: query.q,
      type: query.type,
      statuses: query.status,
      sort: query.sort,
      dir: query.dir,
      after: query.cursor ? readCursor(query.cursor, query.sort, query.dir) : undefined,
    };
    const cap = transferListTotalCap(query.q);
    // With the count's cap: the matches found are the sent side's count too.
    if (query.q) filter.sentMatches = await this.repo.searchCandidates(filter, cap);
    const rows = await this.repo.list(filter, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const total = await this.repo.count(filter, cap);
    const files = query.withFiles ? await this.repo.filesOf(page.map((r) => r.id)) : null;
    const now = this.now().getTime();
    return {
      items: page.map((r) => ({
        ...listItemOf(
          r,
          r.direction === 'sent' // the sender's own link (for S1, the one their mails carry)
            ? this.notifications.senderLink(r, ctx.origin)
            : r.type === 'S3' // received S3 transfers are the user's own
              ? downloadLink(ctx.origin, r.id, r.customLink)
              : `${downloadLink(ctx.origin, r.id, r.customLink)}?userSecret=${this.notifications.recipientSecret(r.id, user.email)}`,
          now,
        ),
        ...(files ? { files: files.get(r.id) ?? [] } : {}),
      })),
      nextCursor: rows.length > query.limit && last ? writeCursor(query.sort, query.dir, last) : null,
      total: Math.min(total, cap),
      totalIsCapped: total > cap,
      storage: await this.storage(user),
    };
  }

  async detail(
    auth: Authenticated | null,
    transferId: string,
    ctx: DashboardContext,
  ): Promise<TransferDetail> {
    const { transfer } = await this.access.check(auth, transferId);
    return this.detailOf(transfer, ctx.origin);
  }

  private salesOf: ((transferId: string) => Promise<TransferSale[]>) | null = null;

  /** Where the sales of priced transfers come from (the purchase service, when files can be sold). */
  showSales(sales: (transferId: string) => Promise<TransferSale[]>): void {
    this.salesOf = sales;
  }

  /** The detail of a transfer the caller was allowed to see (DashboardAccess); every action answers with it. */
  async detailOf(transfer: TransferRecord, origin: string): Promise<TransferDetail> {
    const files = await this.transfers.files(transfer.id);
    const statuses = await this.notifications.recipientStatuses(transfer);
    const summary = this.transferService.summary(transfer, files, origin, statuses);
    const downloads = await this.repo.downloads(transfer.id, 200);
    const timelines = buildTimelines(
      await this.repo.recipientTimelines(transfer.id),
      downloads,
      files.map((f) => f.id),
    );
    const events = await this.transfers.events(transfer.id);
    return {
      ...summary,
      statusLabel: transferStatusLabel(transfer.status),
      ownerId: transfer.ownerId,
      createdAt: transfer.createdAt.toISOString(),
      expired: transfer.expiresAt.getTime() <= this.now().getTime(),
      bytesDeletedAt: transfer.expiredAt ? transfer.expiredAt.toISOString() : null,
      message: transfer.message,
      maxDownloads: transfer.maxDownloads,
      allowPreview: transfer.allowPreview,
      passwordProtected: transfer.passwordHash !== null,
      downloadCount: transfer.downloadCount,
      fileCount: transfer.fileCount,
      recipients: statuses.map((s) => ({
        ...s,
        timeline: timelines.byEmail.get(s.email.toLowerCase()) ?? [],
      })),
      downloads: timelines.others,
      events: events.map((e) => ({
        type: e.type,
        at: e.createdAt.toISOString(),
        actor: parseEventActor(e.actor),
        data: e.data ?? {},
      })),
      // The row's cloned_from column, which TransferRecord leaves out (only the dashboard reads it).
      clonedFrom: (transfer as TransferRecord & { clonedFrom?: string | null }).clonedFrom ?? null,
      additions: (await this.additions.pending(transfer.id)).map((a) => ({
        additionId: a.id,
        createdAt: a.createdAt.toISOString(),
        files: a.files.map(toFile),
      })),
      price:
        transfer.priceAmount !== null && transfer.priceCurrency !== null
          ? { amount: transfer.priceAmount, currency: transfer.priceCurrency as Currency }
          : null,
      sales: transfer.priceAmount !== null && this.salesOf ? await this.salesOf(transfer.id) : [],
    };
  }

  private async storage(user: UserRecord): Promise<{ used: number; limit: number }> {
    const team = await this.limits.forSender(user.id);
    return {
      used: await this.transfers.storageUsed(team?.teamId ?? user.id),
      limit: (team?.storageGB ?? PLAN_LIMITS[user.planType].storageGB) * GB,
    };
  }
}
