import type { PlanType } from '@ferry/core';
import type { UserRecord } from '../db/account.repository.js';

/**
 * The plan that holds for an account now: its stored plan type, or NONE once its end date has passed. The
 * maintenance tick writes NONE soon after (PlanService.endExpired); meanwhile nothing serves a plan that ended.
 */
export function planOf(user: Pick<UserRecord, 'planType' | 'planEndsAt'>, now: Date): PlanType {
  if (user.planEndsAt && user.planEndsAt.getTime() <= now.getTime()) return 'NONE';
  return user.planType;
}
