import { z } from 'zod';
import { LOCALES } from '../constants.js';
import { PERMISSIONS } from '../enums.js';
import { Email, PersonName } from './transfer.js';

export {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  defaultTransferType,
  EMPTY_TEMPLATE,
} from './user-defaults.js';

/** Spec §3 uploaderSettings (the full flag set of "Uploader settings"). */
export const UploaderSettings = z.object({
  allowS1: z.boolean(),
  allowS2: z.boolean(),
  allowInboxS1: z.boolean(),
  allowInboxS2: z.boolean(),
  passwordOpt: z.boolean(),
  requirePassword: z.boolean(),
  notificationOpt: z.boolean(),
  downloadLimitOpt: z.boolean(),
  filePreviewOpt: z.boolean(),
  allowCustomization: z.boolean(),
  requireForceEmailWhenDownloadS2: z.boolean(),
  sendAllowedExtensions: z.array(z.string().max(20)).max(200),
  receiveAllowedExtensions: z.array(z.string().max(20)).max(200),
  receivePasswordOpt: z.boolean(),
  receiveRequirePassword: z.boolean(),
  receiveNotificationOpt: z.boolean(),
  receiveFilePreviewOpt: z.boolean(),
  receiveAllowCustomization: z.boolean(),
  receiveAvailabilityOpt: z.boolean(),
});
export type UploaderSettings = z.infer<typeof UploaderSettings>;

export const NotificationSettings = z.object({
  transfer: z.object({
    summary: z.boolean(),
    expiryReminder: z.boolean(),
    downloadConfirmation: z.boolean(),
    downloadConfirmationS2: z.boolean(),
  }),
  receive: z.object({ expiryReminder: z.boolean(), upload: z.boolean() }),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/** Spec §3 uploaderTemplate / receiverTemplate. */
export const TransferTemplate = z.object({
  name: text(255).nullable(),
  message: text(5000).nullable(),
  recipients: z.array(Email).max(50),
  password: text(256).nullable(),
  /** Days; capped at the validity limit when applied (spec §5). */
  defaultAvailability: z.number().int().min(1).max(3650).nullable(),
  s2AsDefault: z.boolean(),
});
export type TransferTemplate = z.infer<typeof TransferTemplate>;

export const AddressBookSettings = z.object({
  /** Save the recipients of sent transfers to the address book automatically. */
  autoSave: z.boolean(),
});

/** GET /api/user/users/{id}: the user profile of spec §3. */
export const UserProfile = z.object({
  uid: z.string(),
  email: z.string(),
  info: z.object({ firstname: z.string().nullable() }),
  notificationSettings: NotificationSettings,
  lastNotificationsChecked: z.string().nullable(),
  addressBookSettings: AddressBookSettings,
  uploaderTemplate: TransferTemplate,
  receiverTemplate: TransferTemplate,
  uploaderSettings: UploaderSettings,
});
export type UserProfile = z.infer<typeof UserProfile>;

/** PATCH /api/user/users/{id}: any part of the profile; nested objects are merged. */
export const UserProfileUpdate = z.object({
  info: z.object({ firstname: PersonName().nullable() }).optional(),
  /** The account's language (spec §9 code): mails and, on bare paths, the web app speak it. */
  locale: z.enum(LOCALES).optional(),
  notificationSettings: z
    .object({
      transfer: NotificationSettings.shape.transfer.partial().optional(),
      receive: NotificationSettings.shape.receive.partial().optional(),
    })
    .optional(),
  lastNotificationsChecked: z.string().datetime().optional(),
  addressBookSettings: AddressBookSettings.partial().optional(),
  uploaderTemplate: TransferTemplate.partial().optional(),
  receiverTemplate: TransferTemplate.partial().optional(),
});
export type UserProfileUpdate = z.input<typeof UserProfileUpdate>;

export const CountryResponse = z.object({ country: z.string().length(2) });

/**
 * GET /api/user/teams/{teamId}/members/{uid} → TeamMembership. A team is identified by its manager's uid
 * (spec §6: "the manager id identifies the owner for team-wide calls"); the manager is a member of their own
 * team with every permission. Readable by the member themself and by the team's manager or a USER_MANAGER of
 * the team; anyone else gets 404 NOT_FOUND (the team's members are not disclosed).
 */
export const TeamMembership = z.object({
  teamId: z.string(),
  uid: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  isManager: z.boolean(),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type TeamMembership = z.infer<typeof TeamMembership>;

/** GET /api/user/teams/{teamId}/uploader-settings → the team's uploaderSettings (spec §7). */
export const TeamUploaderSettingsResponse = z.object({ uploaderSettings: UploaderSettings });
export type TeamUploaderSettingsResponse = z.infer<typeof TeamUploaderSettingsResponse>;
