import { describe, expect, it } from 'vitest';
import {
  AUTH_REDIRECT_COOKIE_DAYS,
  DEFAULT_TRANSFER_VALIDITY_MAX_DAYS,
  DEVICE_ID_COOKIE_DAYS,
  EXPIRY_CHECK_FIRST_MS,
  EXPIRY_CHECK_INTERVAL_MS,
  FILE_ID_LENGTH,
  FILE_NAME_DISPLAY_LIMIT,
  FILE_NAME_MAX_BYTES,
  LOCALES,
  MOBILE_BREAKPOINT_PX,
  PLAN_MISMATCH_MAX_RETRIES,
  PLAN_POLL_INTERVAL_MS,
  RECEIVE_DEFAULT_DAYS_FREE,
  RECEIVE_DEFAULT_DAYS_PAYING,
  SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
  SIGN_BACK_IN_THRESHOLD_MS,
  SLIDER_ANIMATION_DELAY_MS,
  TOAST_AUTO_CLOSE_MS,
} from './constants.js';
import { PLAN_CODES, PLAN_TYPES, type PlanCode, type PlanType, TEAM_PLANS } from './enums.js';
import {
  GB,
  isPayingPlan,
  PLAN_LIMITS,
  planLimitsOf,
  planTypeOfCode,
  storageGBOfCode,
  teamLicences,
} from './plans.js';

describe('PLAN_LIMITS (spec §9)', () => {
  it('has exactly the four plan types', () => {
    expect(Object.keys(PLAN_LIMITS).sort()).toEqual([...PLAN_TYPES].sort());
  });

  it('NONE: 250 / 7 / 500 / 10 / 5 / 100 / 3e11, no global storage', () => {
    expect(PLAN_LIMITS.NONE).toEqual({
      files: 250,
      fileValidityInDays: 7,
      messageLength: 500,
      recipients: 10,
      uploadSizeGB: 5,
      storageGB: 100,
      downloadedBytes7Days: 3e11,
      globalStorageGB: null,
    });
  });

  it('PREMIUM: 5000 / 365 / 1000 / 50 / 250 / 1000 / 6e11, no global storage', () => {
    expect(PLAN_LIMITS.PREMIUM).toEqual({
      files: 5000,
      fileValidityInDays: 365,
      messageLength: 1000,
      recipients: 50,
      uploadSizeGB: 250,
      storageGB: 1000,
      downloadedBytes7Days: 6e11,
      globalStorageGB: null,
    });
  });

  it('TEAM: 5000 / 365 / 1000 / 50 / 500 / 2000 / 6e11, global storage 2000', () => {
    expect(PLAN_LIMITS.TEAM).toEqual({
      files: 5000,
      fileValidityInDays: 365,
      messageLength: 1000,
      recipients: 50,
      uploadSizeGB: 500,
      storageGB: 2000,
      downloadedBytes7Days: 6e11,
      globalStorageGB: 2000,
    });
  });

  it('ENTERPRISE: same as TEAM, global storage included', () => {
    expect(PLAN_LIMITS.ENTERPRISE).toEqual(PLAN_LIMITS.TEAM);
    expect(PLAN_LIMITS.ENTERPRISE.globalStorageGB).toBe(2000);
  });

  it('uses units of 1e9 for GB', () => {
    expect(GB).toBe(1e9);
    expect(PLAN_LIMITS.NONE.uploadSizeGB * GB).toBe(5_000_000_000);
  });
});

describe('planTypeOfCode (spec §3, §6)', () => {
  it.each<[PlanCode, PlanType]>([
    ['CUSTOM', 'ENTERPRISE'],
    ['TEAM', 'TEAM'],
    ['TEAM10', 'TEAM'],
    ['TEAM25', 'TEAM'],
    ['PREMIUM', 'PREMIUM'],
    ['PREMIUM_2TB', 'PREMIUM'],
    ['PREMIUM_5TB', 'PREMIUM'],
    ['PREMIUM_10TB', 'PREMIUM'],
  ])('%s → %s', (code, type) => {
    expect(planTypeOfCode(code)).toBe(type);
  });

  it('covers every plan code and never yields NONE', () => {
    for (const code of PLAN_CODES) {
      expect(['PREMIUM', 'TEAM', 'ENTERPRISE']).toContain(planTypeOfCode(code));
    }
  });

  it('maps the team plans list to TEAM', () => {
    expect([...TEAM_PLANS].sort()).toEqual(['TEAM10', 'TEAM25']);
    for (const code of TEAM_PLANS) expect(planTypeOfCode(code)).toBe('TEAM');
  });
});

describe('isPayingPlan (spec §6)', () => {
  it('is false only for NONE', () => {
    expect(isPayingPlan('NONE')).toBe(false);
    expect(isPayingPlan('PREMIUM')).toBe(true);
    expect(isPayingPlan('TEAM')).toBe(true);
    expect(isPayingPlan('ENTERPRISE')).toBe(true);
  });
});

describe('constants (spec §9)', () => {
  it('file id, file-name display and byte limits', () => {
    expect(FILE_ID_LENGTH).toBe(6);
    expect(FILE_NAME_DISPLAY_LIMIT).toBe(24);
    expect(FILE_NAME_MAX_BYTES).toBe(255);
  });

  it('UI timings and sizes', () => {
    expect(TOAST_AUTO_CLOSE_MS).toBe(4000);
    expect(MOBILE_BREAKPOINT_PX).toBe(768);
    expect(SLIDER_ANIMATION_DELAY_MS).toBe(300);
  });

  it('session and cookie lifetimes', () => {
    expect(SESSION_COOKIE_STAY_SIGNED_IN_MINUTES).toBe(20160);
    expect(SESSION_COOKIE_STAY_SIGNED_IN_MINUTES).toBe(14 * 24 * 60);
    expect(DEVICE_ID_COOKIE_DAYS).toBe(365);
    expect(AUTH_REDIRECT_COOKIE_DAYS).toBe(90);
  });

  it('session expiry checks and plan polling (spec §4, §9)', () => {
    expect(EXPIRY_CHECK_FIRST_MS).toBe(10_000);
    expect(EXPIRY_CHECK_INTERVAL_MS).toBe(2 * 60_000);
    expect(SIGN_BACK_IN_THRESHOLD_MS).toBe(12 * 60 * 60_000);
    expect(PLAN_POLL_INTERVAL_MS).toBe(2000);
    expect(PLAN_MISMATCH_MAX_RETRIES).toBe(5);
  });

  it('default validity days', () => {
    expect(DEFAULT_TRANSFER_VALIDITY_MAX_DAYS).toBe(21);
    expect(RECEIVE_DEFAULT_DAYS_PAYING).toBe(21);
    expect(RECEIVE_DEFAULT_DAYS_FREE).toBe(7);
  });

  it('locales exactly as the spec lists them, in order', () => {
    expect([...LOCALES]).toEqual([
      'en',
      'fr',
      'it',
      'de',
      'nl',
      'es',
      'pt',
      'sv',
      'fi',
      'da',
      'tr',
      'ru',
      'uk',
      'pl',
      'bg',
      'ro',
      'ccs',
      'el',
      'nb',
      'no',
      'hi',
      'zh',
      'ar',
      'fa',
      'th',
      'jp',
      'kr',
    ]);
    expect(new Set(LOCALES).size).toBe(27);
  });
});

describe('team licences', () => {
  it('are the number in the team plan codes, 5 for TEAM, a contract number first, none otherwise', () => {
    expect(teamLicences('TEAM10')).toBe(10);
    expect(teamLicences('TEAM25')).toBe(25);
    expect(teamLicences('TEAM')).toBe(5);
    expect(teamLicences('CUSTOM', 120)).toBe(120);
    expect(teamLicences('TEAM10', 12)).toBe(12);
    expect(teamLicences('CUSTOM')).toBeNull();
    expect(teamLicences('PREMIUM')).toBeNull();
    expect(teamLicences(null)).toBeNull();
  });
});

describe('storage of plan codes', () => {
  it('raises PREMIUM storage to 2 000 / 5 000 / 10 000 GB for the PREMIUM_xTB codes only', () => {
    expect(storageGBOfCode('PREMIUM')).toBe(1000);
    expect(storageGBOfCode('PREMIUM_2TB')).toBe(2000);
    expect(storageGBOfCode('PREMIUM_5TB')).toBe(5000);
    expect(storageGBOfCode('PREMIUM_10TB')).toBe(10000);
    expect(storageGBOfCode('TEAM10')).toBe(2000);
    expect(planLimitsOf('PREMIUM', 'PREMIUM_5TB').storageGB).toBe(5000);
    expect(planLimitsOf('PREMIUM', 'PREMIUM_5TB').uploadSizeGB).toBe(250);
    // A code left beside NONE (a plan that ended) gives nothing.
    expect(planLimitsOf('NONE', 'PREMIUM_10TB').storageGB).toBe(100);
    expect(planLimitsOf('PREMIUM', null).storageGB).toBe(1000);
  });
});
