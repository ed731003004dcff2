import {
  GB,
  type Limits,
  LimitsUpdate,
  PLAN_LIMITS,
  type PlanType,
  planLimitsOf,
  type UploaderSettings,
} from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type { PgTeamRepository } from '../db/team.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { planOf } from './effective-plan.js';
import type { TransferRepository } from './ports.js';
import { teamMemberUploaderSettings } from './user.service.js';

const WEEK_MS = 7 * 86_400_000;

/** What a signed-in sender's new transfers are held to (TransferService.create). */
export interface SenderLimits {
  /** The plan of the sender's team: their manager's for a team member (spec §4). */
  plan: PlanType;
  forcedFileValidityInDays: number | null;
  forcedRegion: string | null;
  /** The team's limit settings say its transfers are stored without SSE-C. */
  disableSSEC: boolean;
  /** Storage (GB) of the team's plan code (PREMIUM_5TB raises PREMIUM's): what new uploads are held to. */
  storageGB: number;
  /** The sender's team (its manager's uid; their own for an account without a manager): one storage pool. */
  teamId: string;
  /** For a team member: what the manager lets members do (spec §4, §5), enforced on their transfers. */
  memberSettings: UploaderSettings | null;
}

/**
 * The limits of spec §3/§9 for one account: the plan's caps, what is in use, and the settings the account
 * chooses itself within them. A team member is held to their manager's (spec §4: limits use the manager's id),
 * and storage and 7-day downloaded bytes count over the whole team.
 */
export class LimitsService {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly teams: PgTeamRepository,
    private readonly transfers: Pick<TransferRepository, 'storageUsed'>,
    /** Names of the configured storage regions (`default` and the keys of S3_REGIONS). */
    private readonly regions: readonly string[],
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(auth: Authenticated | null, id: string): Promise<Limits> {
    return this.of(await this.readable(auth, id));
  }

  async update(auth: Authenticated | null, id: string, input: LimitsUpdate): Promise<Limits> {
    const patch = LimitsUpdate.parse(input);
    const user = await this.readable(auth, id);
    // Only the account itself changes its settings; a member's come from their manager.
    if (user.id !== auth!.user.id)
      throw new AppError('FORBIDDEN', 'Only the account owner can change these.');
    if (user.managerId) throw new AppError('FORBIDDEN', "Your team's manager sets these.");
    const plan = PLAN_LIMITS[planOf(user, this.now())];
    const next = { ...user.limitSettings };
    if (patch.forcedFileValidityInDays !== undefined) {
      if (patch.forcedFileValidityInDays !== null && patch.forcedFileValidityInDays > plan.fileValidityInDays)
        throw new AppError('LIMIT_EXCEEDED', 'Longer than your plan allows.', {
          limitErrors: [
            {
              limit: 'fileValidityInDays',
              max: plan.fileValidityInDays,
              actual: patch.forcedFileValidityInDays,
            },
          ],
        });
      next.forcedFileValidityInDays = patch.forcedFileValidityInDays;
    }
    if (patch.forcedRegion !== undefined) {
      if (patch.forcedRegion !== null && !this.regions.includes(patch.forcedRegion))
        throw new AppError(
          'VALIDATION_FAILED',
          `Unknown storage region (known: ${this.regions.join(', ')}).`,
        );
      next.forcedRegion = patch.forcedRegion;
    }
    if (patch.disableSSEC !== undefined) next.disableSSEC = patch.disableSSEC;
    await this.accounts.setLimitSettings(user.id, next);
    return this.of({ ...user, limitSettings: next });
  }

  /** The limits a signed-in sender's new transfer is checked against; null for an unknown account. */
  async forSender(userId: string): Promise<SenderLimits | null> {
    const user = await this.accounts.user(userId);
    if (!user) return null;
    const team = await this.teamAccount(user);
    const plan = planOf(team, this.now());
    return {
      plan,
      storageGB: planLimitsOf(plan, team.planCode).storageGB,
      forcedFileValidityInDays: team.limitSettings.forcedFileValidityInDays ?? null,
      forcedRegion: team.limitSettings.forcedRegion ?? null,
      disableSSEC: team.limitSettings.disableSSEC ?? false,
      teamId: team.id,
      // A member's: the team's settings, then their user group's overrides over them.
      memberSettings:
        team.id === user.id
          ? null
          : { ...teamMemberUploaderSettings(team), ...(await this.teams.groupOverridesOf(user.id)) },
    };
  }

  /** The plan a transfer owner's downloads are held to (their team's); null for an unknown account. */
  async planOf(userId: string): Promise<PlanType | null> {
    const user = await this.accounts.user(userId);
    return user ? planOf(await this.teamAccount(user), this.now()) : null;
  }

  /** Bytes downloaded since `since` from the transfers of the owner's whole team. */
  async teamDownloadedBytesSince(ownerId: string, since: Date): Promise<number> {
    const user = await this.accounts.user(ownerId);
    const teamId = user ? (await this.teamAccount(user)).id : ownerId;
    return this.teams.downloadedBytesSince(teamId, since);
  }

  private async readable(auth: Authenticated | null, id: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    // Another account's limits are not found, whether or not it exists.
    if (id !== auth.user.id && id !== auth.user.managerId)
      throw new AppError('NOT_FOUND', 'No such account.');
    const user = await this.accounts.user(id);
    if (!user) throw new AppError('NOT_FOUND', 'No such account.');
    return user;
  }

  /** The account whose plan and settings hold for a user: their manager's when they have one. */
  private async teamAccount(user: UserRecord): Promise<UserRecord> {
    if (!user.managerId) return user;
    return (await this.accounts.user(user.managerId)) ?? user;
  }

  private async of(user: UserRecord): Promise<Limits> {
    const team = await this.teamAccount(user);
    const planType = planOf(team, this.now());
    const plan = planLimitsOf(planType, team.planCode);
    const since = new Date(this.now().getTime() - WEEK_MS);
    return {
      planType,
      files: plan.files,
      fileValidityInDays: plan.fileValidityInDays,
      forcedFileValidityInDays: team.limitSettings.forcedFileValidityInDays ?? null,
      messageLength: plan.messageLength,
      recipients: plan.recipients,
      uploadSize: plan.uploadSizeGB * GB,
      storage: plan.storageGB * GB,
      storageUsed: await this.transfers.storageUsed(team.id),
      globalStorage: plan.globalStorageGB === null ? null : plan.globalStorageGB * GB,
      downloadedBytes7Days: plan.downloadedBytes7Days,
      downloadedBytes7DaysUsed: await this.teams.downloadedBytesSince(team.id, since),
      forcedRegion: team.limitSettings.forcedRegion ?? null,
      disableSSEC: team.limitSettings.disableSSEC ?? false,
    };
  }
}

/**
 * The transfer repository as the download service sees it: bytes downloaded count over the owner's whole team
 * (DownloadService checks the 7-day allowance with `downloadedBytesSince`); every other call is the repository's.
 */
export function withTeamDownloads<T extends Pick<TransferRepository, 'downloadedBytesSince'>>(
  repo: T,
  limits: LimitsService,
): T {
  const teamAware = Object.create(repo) as T;
  teamAware.downloadedBytesSince = (ownerId, since) => limits.teamDownloadedBytesSince(ownerId, since);
  return teamAware;
}
