import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  defaultTransferType,
  UploaderSettings,
  UserProfileUpdate,
} from './user.js';

describe('uploader settings defaults (spec §3)', () => {
  it('are all true except the four named flags, with empty extension lists', () => {
    const falses = Object.entries(DEFAULT_UPLOADER_SETTINGS)
      .filter(([, v]) => v === false)
      .map(([k]) => k)
      .sort();
    expect(falses).toEqual(
      [
        'allowCustomization',
        'receiveRequirePassword',
        'requireForceEmailWhenDownloadS2',
        'requirePassword',
      ].sort(),
    );
    expect(DEFAULT_UPLOADER_SETTINGS.sendAllowedExtensions).toEqual([]);
    expect(DEFAULT_UPLOADER_SETTINGS.receiveAllowedExtensions).toEqual([]);
    expect(UploaderSettings.parse(DEFAULT_UPLOADER_SETTINGS)).toEqual(DEFAULT_UPLOADER_SETTINGS);
  });

  it('the team-member set differs only in inbox uploads', () => {
    const diff = Object.keys(DEFAULT_UPLOADER_SETTINGS).filter(
      (k) =>
        JSON.stringify(DEFAULT_UPLOADER_SETTINGS[k as keyof typeof DEFAULT_UPLOADER_SETTINGS]) !==
        JSON.stringify(DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS[k as keyof typeof DEFAULT_UPLOADER_SETTINGS]),
    );
    expect(diff.sort()).toEqual(['allowInboxS1', 'allowInboxS2']);
    expect(DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS.allowInboxS1).toBe(false);
  });
});

describe('default transfer type (spec §4)', () => {
  const base = {
    page: 'uploader' as const,
    s2AsDefault: false,
    managed: false,
    allowS1: true,
    allowS2: true,
  };
  it('is S1, S2 when the template says so, and S3 on /push and widgets', () => {
    expect(defaultTransferType(base)).toBe('S1');
    expect(defaultTransferType({ ...base, s2AsDefault: true })).toBe('S2');
    expect(defaultTransferType({ ...base, page: 'push' })).toBe('S3');
    expect(defaultTransferType({ ...base, page: 'widget', s2AsDefault: true })).toBe('S3');
  });
  it('gives a managed user only an allowed type', () => {
    expect(defaultTransferType({ ...base, managed: true, allowS1: false })).toBe('S2');
    expect(defaultTransferType({ ...base, managed: true, s2AsDefault: true, allowS2: false })).toBe('S1');
    expect(defaultTransferType({ ...base, managed: true })).toBe('S1');
    // Restrictions apply to managed users only.
    expect(defaultTransferType({ ...base, allowS1: false })).toBe('S1');
  });
});

describe('profile updates', () => {
  it('accept partial nested objects and refuse bad recipients', () => {
    expect(UserProfileUpdate.parse({ notificationSettings: { transfer: { summary: false } } })).toEqual({
      notificationSettings: { transfer: { summary: false } },
    });
    expect(() => UserProfileUpdate.parse({ uploaderTemplate: { recipients: ['nope'] } })).toThrow();
  });
});
