import { GB, isPayingPlan, type Limits, PLAN_LIMITS, type PlanLimits } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ACCOUNT_QUERY_KEY, useAuth } from '../features/auth/auth-context';
import { getLimits } from '../lib/transfer-api';

/** The answer of GET /transfer/limits/{id} (sizes in bytes) in the shape of the plan table (sizes in GB). */
export function planLimitsOf(limits: Limits): PlanLimits {
  return {
    files: limits.files,
    fileValidityInDays: limits.fileValidityInDays,
    messageLength: limits.messageLength,
    recipients: limits.recipients,
    uploadSizeGB: limits.uploadSize / GB,
    storageGB: limits.storage / GB,
    downloadedBytes7Days: limits.downloadedBytes7Days,
    globalStorageGB: limits.globalStorage === null ? null : limits.globalStorage / GB,
  };
}

export interface PlanLimitsState {
  limits: Readonly<PlanLimits>;
  /** The account's answer, when it was loaded (paying users only). */
  loaded: Limits | null;
}

/**
 * The limits that apply to the signed-in user (spec §4): loaded only for paying users, from the manager's id
 * when there is one, else the user's uid; cached per user and dropped at sign-out (ACCOUNT_QUERY_KEY).
 * Anonymous and NONE users get the plan NONE limits without a call; while the answer is on its way (or if it
 * fails) the plan's own row of spec §9 applies, which is what the server enforces.
 */
export function usePlanLimits(): PlanLimitsState {
  const { state } = useAuth();
  const uid = state.user?.uid ?? null;
  const paying = uid !== null && isPayingPlan(state.planType);
  const owner = state.managerId ?? uid ?? '';
  const query = useQuery({
    queryKey: [ACCOUNT_QUERY_KEY, uid, 'limits', owner],
    queryFn: ({ signal }) => getLimits(owner, signal),
    enabled: paying,
    staleTime: 5 * 60_000,
  });
  const data = paying ? (query.data ?? null) : null;
  const plan = paying ? state.planType : 'NONE';
  return useMemo(
    () => ({ limits: data ? planLimitsOf(data) : PLAN_LIMITS[plan], loaded: data }),
    [data, plan],
  );
}
