import { GB, planLimitsOf, type TeamOverview, teamLicences } from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type { PgTeamRepository } from '../db/team.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { planOf } from './effective-plan.js';
import type { TransferRepository } from './ports.js';
import { permissionsOf } from './user.service.js';

const DAY_MS = 86_400_000;

/**
 * The team admin overview (/dashboard/admin): seats, storage of the global storage, the 7-day downloaded bytes
 * and 30 days of activity. For the manager and the members with TRANSFER_MANAGER or USER_MANAGER.
 */
export class TeamAdminService {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly teams: PgTeamRepository,
    private readonly transfers: Pick<TransferRepository, 'storageUsed'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async overview(auth: Authenticated | null, teamId: string): Promise<TeamOverview> {
    const manager = await this.administered(auth, teamId);
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

  private async administered(auth: Authenticated | null, teamId: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const caller = auth.user;
    if (caller.id !== teamId && caller.managerId !== teamId) throw new AppError('NOT_FOUND', 'No such team.');
    const manager = caller.id === teamId ? caller : await this.accounts.user(teamId);
    if (!manager || manager.managerId) throw new AppError('NOT_FOUND', 'No such team.');
    const perms = permissionsOf(caller);
    if (caller.id !== manager.id && !perms.includes('TRANSFER_MANAGER') && !perms.includes('USER_MANAGER'))
      throw new AppError(
        'FORBIDDEN',
        "Only the team's manager, a transfer manager or a user manager sees this.",
      );
    return manager;
  }
}
