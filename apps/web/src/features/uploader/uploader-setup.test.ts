import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  EMPTY_TEMPLATE,
  PLAN_LIMITS,
} from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { uploaderSetupOf } from './uploader-setup';

const anonymous = {
  managed: false,
  notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
  uploaderSettings: DEFAULT_UPLOADER_SETTINGS,
  uploaderTemplate: EMPTY_TEMPLATE,
  displayName: null,
};

describe('uploaderSetupOf', () => {
  it('anonymous: both types, S1 first, no template, notification defaults', () => {
    const setup = uploaderSetupOf(anonymous, PLAN_LIMITS.NONE);
    expect(setup.available).toEqual(['S1', 'S2']);
    expect(setup.defaultType).toBe('S1');
    expect(setup.defaults.template).toEqual({
      recipients: [],
      notifications: {
        downloadConfirmation: true,
        downloadConfirmationS2: false,
        expiryReminder: true,
        forceEmailWhenDownloadS2: false,
      },
    });
  });

  it('a team member: only the allowed type; a required downloader e-mail is on', () => {
    const setup = uploaderSetupOf(
      {
        ...anonymous,
        managed: true,
        uploaderSettings: {
          ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
          allowS1: false,
          requireForceEmailWhenDownloadS2: true,
        },
      },
      PLAN_LIMITS.TEAM,
    );
    expect(setup.available).toEqual(['S2']);
    expect(setup.defaultType).toBe('S2');
    expect(setup.defaults.template.notifications?.forceEmailWhenDownloadS2).toBe(true);
  });

  it('the same restrictions on an unmanaged account do not apply to its owner (spec: "for team members")', () => {
    const setup = uploaderSetupOf(
      {
        ...anonymous,
        uploaderSettings: {
          ...DEFAULT_UPLOADER_SETTINGS,
          allowS1: false,
          requireForceEmailWhenDownloadS2: true,
        },
      },
      PLAN_LIMITS.PREMIUM,
    );
    expect(setup.available).toEqual(['S1', 'S2']);
    expect(setup.settings.requireForceEmailWhenDownloadS2).toBe(false);
  });

  it('takes the template (s2AsDefault, availability) and leaves out its password when the field is hidden', () => {
    const template = {
      ...EMPTY_TEMPLATE,
      name: 'Report',
      password: 'tpl',
      defaultAvailability: 90,
      s2AsDefault: true,
    };
    const shown = uploaderSetupOf({ ...anonymous, uploaderTemplate: template }, PLAN_LIMITS.PREMIUM);
    expect(shown.defaultType).toBe('S2');
    expect(shown.defaults.template).toMatchObject({
      name: 'Report',
      password: 'tpl',
      defaultAvailabilityDays: 90,
    });
    const hidden = uploaderSetupOf(
      {
        ...anonymous,
        uploaderTemplate: template,
        uploaderSettings: { ...DEFAULT_UPLOADER_SETTINGS, passwordOpt: false },
      },
      PLAN_LIMITS.PREMIUM,
    );
    expect(hidden.defaults.template.password).toBeUndefined();
  });
});
