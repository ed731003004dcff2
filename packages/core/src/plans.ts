import type { PlanCode, PlanType } from './enums.js';

/** Limits of one plan (spec §9). Upload size and storage in GB (units of 1e9 bytes). */
export interface PlanLimits {
  files: number;
  fileValidityInDays: number;
  messageLength: number;
  recipients: number;
  uploadSizeGB: number;
  storageGB: number;
  downloadedBytes7Days: number;
  globalStorageGB: number | null;
}

const TEAM_LIMITS: PlanLimits = {
  files: 5000,
  fileValidityInDays: 365,
  messageLength: 1000,
  recipients: 50,
  uploadSizeGB: 500,
  storageGB: 2000,
  downloadedBytes7Days: 6e11,
  globalStorageGB: 2000,
};

export const PLAN_LIMITS: Readonly<Record<PlanType, Readonly<PlanLimits>>> = {
  NONE: {
    files: 250,
    fileValidityInDays: 7,
    messageLength: 500,
    recipients: 10,
    uploadSizeGB: 5,
    storageGB: 100,
    downloadedBytes7Days: 3e11,
    globalStorageGB: null,
  },
  PREMIUM: {
    files: 5000,
    fileValidityInDays: 365,
    messageLength: 1000,
    recipients: 50,
    uploadSizeGB: 250,
    storageGB: 1000,
    downloadedBytes7Days: 6e11,
    globalStorageGB: null,
  },
  TEAM: TEAM_LIMITS,
  ENTERPRISE: TEAM_LIMITS,
};

export const GB = 1e9;

/** Session plan type of a subscription plan code: CUSTOM maps to ENTERPRISE (spec §6). */
export function planTypeOfCode(code: PlanCode): PlanType {
  if (code === 'CUSTOM') return 'ENTERPRISE';
  if (code.startsWith('TEAM')) return 'TEAM';
  return 'PREMIUM';
}

/**
 * Seats of the team plans (the spec shows the codes, not the numbers): the number in the code; TEAM alone is 5.
 * A seat is the manager's or one member's. Other codes have no team to count.
 */
export const TEAM_PLAN_LICENCES: Readonly<Partial<Record<PlanCode, number>>> = Object.freeze({
  TEAM: 5,
  TEAM10: 10,
  TEAM25: 25,
});

/**
 * How many accounts a team may sign in: a contract's own number (CUSTOM/ENTERPRISE) first, else the plan code's;
 * null when nothing caps it.
 */
export function teamLicences(code: PlanCode | null, contractLicences?: number | null): number | null {
  if (contractLicences !== undefined && contractLicences !== null) return contractLicences;
  return code ? (TEAM_PLAN_LICENCES[code] ?? null) : null;
}

/** Storage in GB a plan code gives (spec §3, §9): the PREMIUM_xTB codes raise PREMIUM's 1 000. */
export const PLAN_CODE_STORAGE_GB: Readonly<Partial<Record<PlanCode, number>>> = Object.freeze({
  PREMIUM_2TB: 2000,
  PREMIUM_5TB: 5000,
  PREMIUM_10TB: 10000,
});

/** Storage (GB) of a plan code; the plan type's own storage for the codes that do not raise it. */
export function storageGBOfCode(code: PlanCode): number {
  return PLAN_CODE_STORAGE_GB[code] ?? PLAN_LIMITS[planTypeOfCode(code)].storageGB;
}

/**
 * The limits an account is held to: its plan type's, with the storage its plan code gives (a plan code only
 * counts when it belongs to that plan type: a stale code beside NONE gives nothing).
 */
export function planLimitsOf(planType: PlanType, planCode: PlanCode | null | undefined): PlanLimits {
  const limits = PLAN_LIMITS[planType];
  if (!planCode || planTypeOfCode(planCode) !== planType) return limits;
  return { ...limits, storageGB: storageGBOfCode(planCode) };
}

export function isPayingPlan(plan: PlanType): boolean {
  return plan !== 'NONE';
}
