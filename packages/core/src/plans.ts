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

export function isPayingPlan(plan: PlanType): boolean {
  return plan !== 'NONE';
}
