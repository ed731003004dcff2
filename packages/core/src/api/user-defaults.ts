import type { TransferType } from '../enums.js';
import type { NotificationSettings, TransferTemplate, UploaderSettings } from './user.js';

/*
 * The defaults of an account's settings (spec §3, §4), zod-free: the uploader draws with them before (or without)
 * an account, and does not load the settings' schemas for that (api/user.ts re-exports them).
 */

/** Spec §3: all true except requirePassword, allowCustomization, requireForceEmailWhenDownloadS2 and receiveRequirePassword; empty lists. */
export const DEFAULT_UPLOADER_SETTINGS: Readonly<UploaderSettings> = Object.freeze({
  allowS1: true,
  allowS2: true,
  allowInboxS1: true,
  allowInboxS2: true,
  passwordOpt: true,
  requirePassword: false,
  notificationOpt: true,
  downloadLimitOpt: true,
  filePreviewOpt: true,
  allowCustomization: false,
  requireForceEmailWhenDownloadS2: false,
  sendAllowedExtensions: [],
  receiveAllowedExtensions: [],
  receivePasswordOpt: true,
  receiveRequirePassword: false,
  receiveNotificationOpt: true,
  receiveFilePreviewOpt: true,
  receiveAllowCustomization: true,
  receiveAvailabilityOpt: true,
});

/** Spec §3: the default set for team members is the same without inbox uploads. */
export const DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS: Readonly<UploaderSettings> = Object.freeze({
  ...DEFAULT_UPLOADER_SETTINGS,
  allowInboxS1: false,
  allowInboxS2: false,
});

/** What a new account starts with ("not shown" in the spec): every mail on except S2 download confirmations. */
export const DEFAULT_NOTIFICATION_SETTINGS: Readonly<NotificationSettings> = Object.freeze({
  transfer: {
    summary: true,
    expiryReminder: true,
    downloadConfirmation: true,
    downloadConfirmationS2: false,
  },
  receive: { expiryReminder: true, upload: true },
});

export const EMPTY_TEMPLATE: Readonly<TransferTemplate> = Object.freeze({
  name: null,
  message: null,
  recipients: [],
  password: null,
  defaultAvailability: null,
  s2AsDefault: false,
});

/**
 * The default transfer type of spec §4: S3 on /push and the widget page; otherwise S1, or S2 when the template
 * says s2AsDefault; a managed user only gets an allowed type (S1 not allowed → S2; S2 not allowed → S1).
 */
export function defaultTransferType(input: {
  page: 'uploader' | 'push' | 'widget';
  s2AsDefault: boolean;
  managed: boolean;
  allowS1: boolean;
  allowS2: boolean;
}): TransferType {
  if (input.page === 'push' || input.page === 'widget') return 'S3';
  const wanted: TransferType = input.s2AsDefault ? 'S2' : 'S1';
  if (!input.managed) return wanted;
  if (wanted === 'S1' && !input.allowS1) return 'S2';
  if (wanted === 'S2' && !input.allowS2) return 'S1';
  return wanted;
}
