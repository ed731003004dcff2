import {
  GB,
  type Permission,
  planLimitsOf,
  type TeamOverview,
  TeamTransferListQuery,
  type TeamTransferListResponse,
  teamLicences,
  transferListTotalCap,
} from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type { DashboardRepository, TransferListFilter } from '../db/dashboard.repository.js';
import type { PgTeamRepository } from '../db/team.repository.js';
import type { PgTeamMembersRepository } from '../db/team-members.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { DashboardContext } from './dashboard-access.js';
import { listItemOf, readCursor, writeCursor } from './dashboard-view.js';
import { planOf } from './effective-plan.js';
import type { NotificationService } from './notification.service.js';
import type { TransferRepository } from './ports.js';
import { permissionsOf } from './user.service.js';

const DAY_MS = 86_400_000;

/**
 * The team admin overview (/dashboard/admin): seats, storage of the global storage, the 7-day downloaded bytes
 * and 30 days of activity, for the manager and the members with TRANSFER_MANAGER or USER_MANAGER; and the team's
 * transfers (/dashboard/admin/transfers), for the manager and the members with TRANSFER_MANAGER, who act on each
 * through the dashboard's transfer detail (DashboardAccess lets them).
 */
export class TeamAdminService {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly teams: PgTeamRepository,
    private readonly members: Pick<PgTeamMembersRepository, 'pendingSeats'>,
    private readonly transfers: Pick<TransferRepository, 'storageUsed'>,
    private readonly list: Pick<
      DashboardRepository,
      'list' | 'count' | 'searchCandidates' | 'firstFileNames'
    >,
    private readonly links: Pick<NotificationService, 'senderLink'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async overview(auth: Authenticated | null, teamId: string): Promise<TeamOverview> {
    const manager = await this.administered(auth, teamId, ['TRANSFER_MANAGER', 'USER_MANAGER']);
    const now = this.now();
    const plan = planLimitsOf(planOf(manager, now), manager.planCode);
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const first = new Date(today - 29 * DAY_MS);
    const byDate = new Map((await this.teams.activitySince(manager.id, first)).map((d) => [d.date, d]));
    const activity = Array.from({ length: 30 }, (_, i) => {
      const date = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return byDate.get(date) ?? { date, transfersCreated: 0, bytesDownloaded: 0 };
    });
    return {
      teamId: manager.id,
      seats: {
        used: await this.teams.memberCount(manager.id),
        pending: await this.members.pendingSeats(manager.id),
        total: teamLicences(manager.planCode, manager.limitSettings.licences),
      },
      storage: {
        usedBytes: await this.transfers.storageUsed(manager.id),
        totalBytes: plan.globalStorageGB === null ? null : plan.globalStorageGB * GB,
      },
      downloaded7Days: {
        usedBytes: await this.teams.downloadedBytesSince(manager.id, new Date(now.getTime() - 7 * DAY_MS)),
        maxBytes: plan.downloadedBytes7Days,
      },
      activity,
    };
  }

  /** One page of every transfer the team's accounts own, each with its owner (or one member's, with `member`). */
  async transfersOf(
    auth: Authenticated | null,
    teamId: string,
    input: TeamTransferListQuery,
    ctx: DashboardContext,
  ): Promise<TeamTransferListResponse> {
    const manager = await this.administered(auth, teamId, ['TRANSFER_MANAGER']);
    const query = TeamTransferListQuery.parse(input);
    const team = await this.teams.accounts(manager.id);
    const owners = query.member ? team.filter((a) => a.id === query.member) : team;
    if (owners.length === 0) throw new AppError('NOT_FOUND', 'No such member in this team.');
    const ownerIds = owners.map((a) => a.id);
    const filter: TransferListFilter = {
      ownerIds,
      email: null,
      q: query.q,
      type: query.type,
      statuses: query.status,
      sort: query.sort,
      dir: query.dir,
      after: query.cursor ? readCursor(query.cursor, query.sort, query.dir) : undefined,
    };
    const cap = transferListTotalCap(query.q);
    // With the count's cap: the matches found are the count too.
    if (query.q) filter.sentMatches = await this.list.searchCandidates(filter, cap);
    const rows = await this.list.list(filter, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const total = await this.list.count(filter, cap);
    const emails = new Map(owners.map((a) => [a.id, a.email]));
    const firstFiles = await this.list.firstFileNames(page.map((r) => r.id));
    const now = this.now().getTime();
    return {
      items: page.map((r) => ({
        ...listItemOf(r, this.links.senderLink(r, ctx.origin), now),
        // A team's transfers are all sent ones: their download count is always shown.
        downloadCount: r.downloadCount,
        ownerUid: r.ownerId ?? '',
        ownerEmail: (r.ownerId && emails.get(r.ownerId)) || '',
        firstFileName: firstFiles.get(r.id) ?? null,
      })),
      nextCursor: rows.length > query.limit && last ? writeCursor(query.sort, query.dir, last) : null,
      total: Math.min(total, cap),
      totalIsCapped: total > cap,
    };
  }

  /**
   * The team's manager when the caller is it, or a member of the team with one of `permissions`. Another team
   * or no team: 404 (nothing learnt); a member without the permission: 403.
   */
  private async administered(
    auth: Authenticated | null,
    teamId: string,
    permissions: Permission[],
  ): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const caller = auth.user;
    if (caller.id !== teamId && caller.managerId !== teamId) throw new AppError('NOT_FOUND', 'No such team.');
    const manager = caller.id === teamId ? caller : await this.accounts.user(teamId);
    if (!manager || manager.managerId) throw new AppError('NOT_FOUND', 'No such team.');
    const perms = permissionsOf(caller);
    if (caller.id !== manager.id && !permissions.some((p) => perms.includes(p)))
      throw new AppError(
        'FORBIDDEN',
        permissions.includes('USER_MANAGER')
          ? "Only the team's manager, a transfer manager or a user manager sees this."
          : "Only the team's manager or a transfer manager sees the team's transfers.",
      );
    return manager;
  }
}
