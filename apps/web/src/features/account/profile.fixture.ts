import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  EMPTY_TEMPLATE,
  type UserProfile,
} from '@ferry/core';

/** For tests: a GET/PATCH /api/user/users/{id} answer of the signed-in fixture user (test/fixtures.ts). */
export function userProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    uid: 'u_1',
    email: 'ada@example.com',
    info: { firstname: 'Ada' },
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    lastNotificationsChecked: null,
    addressBookSettings: { autoSave: false },
    uploaderTemplate: EMPTY_TEMPLATE,
    receiverTemplate: EMPTY_TEMPLATE,
    uploaderSettings: DEFAULT_UPLOADER_SETTINGS,
    ...overrides,
  };
}
