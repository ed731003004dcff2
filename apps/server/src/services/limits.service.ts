import { GB, type Limits, LimitsUpdate, PLAN_LIMITS } from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { TransferRepository } from './ports.js';

/**
 * The limits of spec §3/§9 for one account: the plan's caps, what is in use, and the settings the account
 * chooses itself within them. A team member reads their manager's (spec §4: limits use the manager's id).
 */
export class LimitsService {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly transfers: TransferRepository,
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
    // Only the account itself (a manager for their team, later) changes its settings.
    if (user.id !== auth!.user.id)
      throw new AppError('FORBIDDEN', 'Only the account owner can change these.');
    const plan = PLAN_LIMITS[user.planType];
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

  private async readable(auth: Authenticated | null, id: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    // Another account's limits are not found, whether or not it exists.
    if (id !== auth.user.id && id !== auth.user.managerId)
      throw new AppError('NOT_FOUND', 'No such account.');
    const user = await this.accounts.user(id);
    if (!user) throw new AppError('NOT_FOUND', 'No such account.');
    return user;
  }

  private async of(user: UserRecord): Promise<Limits> {
    const plan = PLAN_LIMITS[user.planType];
    const since = new Date(this.now().getTime() - 7 * 86_400_000);
    return {
      planType: user.planType,
      files: plan.files,
      fileValidityInDays: plan.fileValidityInDays,
      forcedFileValidityInDays: user.limitSettings.forcedFileValidityInDays ?? null,
      messageLength: plan.messageLength,
      recipients: plan.recipients,
      uploadSize: plan.uploadSizeGB * GB,
      storage: plan.storageGB * GB,
      storageUsed: await this.transfers.storageUsed(user.id),
      globalStorage: plan.globalStorageGB === null ? null : plan.globalStorageGB * GB,
      downloadedBytes7Days: plan.downloadedBytes7Days,
      downloadedBytes7DaysUsed: await this.transfers.downloadedBytesSince(user.id, since),
      forcedRegion: user.limitSettings.forcedRegion ?? null,
      disableSSEC: user.limitSettings.disableSSEC ?? false,
    };
  }
}
