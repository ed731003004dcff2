import {
  type OperatorSubscription,
  type OperatorUser,
  SetPlanRequest,
  SubscriptionStatus,
} from '@ferry/core';
import type pg from 'pg';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type { PgOperatorLog } from '../db/operator-log.repository.js';
import type { PgSubscriptionRepository } from '../db/subscription.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { planOf } from './effective-plan.js';
import type { OperatorAccess } from './operator-access.js';
import type { PlanService } from './plan.service.js';
import type { SubscriptionService } from './subscription.service.js';

/** The end of a YYYY-MM-DD day in UTC; null when the date does not exist (2026-02-30). */
export function endOfDayUtc(day: string): Date | null {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) return null;
  return new Date(start.getTime() + 86_400_000 - 1);
}

/**
 * The operators' plan routes: set any plan code (with an end date, and seats for CUSTOM) and list the
 * subscriptions. Each change is one journal row, written in the change's transaction.
 */
export class OperatorBillingService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly operators: OperatorAccess,
    private readonly accounts: Pick<PgAccountRepository, 'user'>,
    private readonly plans: PlanService,
    private readonly subscriptions: SubscriptionService,
    private readonly repo: PgSubscriptionRepository,
    private readonly log: PgOperatorLog,
    private readonly storageUsed: (userId: string) => Promise<number>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async setPlan(auth: Authenticated | null, uid: string, input: SetPlanRequest): Promise<OperatorUser> {
    const operator = this.operators.require(auth);
    const request = SetPlanRequest.parse(input);
    const user = await this.accounts.user(uid);
    if (!user) throw new AppError('NOT_FOUND', 'No such account.');
    if (request.seats !== undefined && request.planCode !== 'CUSTOM')
      throw new AppError('VALIDATION_FAILED', 'Seats are set for CUSTOM plans only.', {
        details: { field: 'seats' },
      });
    const until = request.until ? endOfDayUtc(request.until) : null;
    if (request.until && (!until || until.getTime() <= this.now().getTime()))
      throw new AppError('VALIDATION_FAILED', 'The end date must be a real day, today or later.', {
        details: { field: 'until' },
      });
    const planCode = request.planCode === 'NONE' ? null : request.planCode;
    // NONE ends the plan now, and the subscription paying for it with it.
    if (!planCode) await this.subscriptions.cancelNow(uid);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await this.plans.assign(
        uid,
        { planCode, until, seats: request.seats ?? null, reason: 'operator' },
        client,
      );
      await this.log.record(
        {
          operatorId: operator.user.id,
          operatorEmail: operator.user.email,
          action: 'set-plan',
          target: user.email,
          targetUserId: uid,
          details: {
            planCode: request.planCode,
            until: until?.toISOString() ?? null,
            ...(request.seats !== undefined ? { seats: request.seats } : {}),
            previous: { planCode: user.planCode, planType: user.planType },
          },
        },
        client,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    const updated = await this.accounts.user(uid);
    return this.operatorUser(updated ?? user);
  }

  async listSubscriptions(auth: Authenticated | null, status: string | null) {
    this.operators.require(auth);
    const rows = await this.repo.list(SubscriptionStatus.nullable().parse(status));
    return {
      subscriptions: rows.map(
        (s): OperatorSubscription => ({
          id: s.id,
          uid: s.userId,
          email: s.email,
          planCode: s.planCode,
          frequency: s.frequency,
          provider: s.provider,
          status: s.status,
          currency: s.currency,
          amount: s.amount,
          currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
          createdAt: s.createdAt.toISOString(),
        }),
      ),
    };
  }

  /** The console's view of an account (storage used counts the transfers the account owns). */
  private async operatorUser(user: UserRecord): Promise<OperatorUser> {
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    return {
      uid: user.id,
      email: user.email,
      firstname: user.firstname,
      planType: planOf(user, this.now()),
      planCode: user.planCode,
      planEndsAt: iso(user.planEndsAt),
      licences: user.planCode === 'CUSTOM' ? (user.limitSettings.licences ?? null) : null,
      managerId: user.managerId,
      storageUsed: await this.storageUsed(user.id),
      lastLoginAt: iso(user.lastLoginAt),
      createdAt: user.createdAt.toISOString(),
      emailVerified: user.emailVerifiedAt !== null,
      suspended: user.suspendedAt !== null,
      suspendedAt: iso(user.suspendedAt),
    };
  }
}
