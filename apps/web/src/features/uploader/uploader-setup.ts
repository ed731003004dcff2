import type { NotificationSettings, PlanLimits, TransferTemplate, UploaderSettings } from '@ferry/core';
import { useMemo } from 'react';
import { usePlanLimits } from '../../hooks/use-plan-limits';
import { type UserState, useUserState } from '../../hooks/use-user-state';
import { availableUploadTypes, defaultUploadType } from './transfer-type';
import {
  type FormDefaults,
  type FormSettings,
  type FormTemplate,
  passwordShown,
  type UploadType,
} from './uploader-state';

/** What the uploader page is set up with for the signed-in user (or an anonymous visitor). */
export interface UploaderSetup {
  /** Every limit the uploader checks: files, validity days offered, message, recipients, upload size. */
  limits: Readonly<PlanLimits>;
  /** The uploader settings that apply to this sender. */
  settings: Readonly<UploaderSettings>;
  /** What a fresh form (on load and on every reset) is filled with. */
  defaults: FormDefaults;
  available: readonly UploadType[];
  /** The type without a #S1/#S2 hash. */
  defaultType: UploadType;
  /** The name to fill an empty sender name with. */
  senderName: string | null;
}

/**
 * The settings that apply: a team member's are their manager's as loaded; the allowed types and the required
 * downloader e-mail of S2 restrict managed users only (spec §4 "for team members", §5 "for managed users").
 */
export function effectiveUploaderSettings(settings: UploaderSettings, managed: boolean): UploaderSettings {
  if (managed) return settings;
  return { ...settings, allowS1: true, allowS2: true, requireForceEmailWhenDownloadS2: false };
}

/** The uploader template and notification defaults as the form's template (spec §3, §4). */
export function formTemplateOf(
  template: TransferTemplate,
  notifications: NotificationSettings['transfer'],
  settings: FormSettings,
): FormTemplate {
  const form: FormTemplate = {
    recipients: template.recipients,
    notifications: {
      downloadConfirmation: notifications.downloadConfirmation,
      downloadConfirmationS2: notifications.downloadConfirmationS2,
      expiryReminder: notifications.expiryReminder,
      forceEmailWhenDownloadS2: settings.requireForceEmailWhenDownloadS2,
    },
  };
  if (template.name) form.name = template.name;
  if (template.message) form.message = template.message;
  // A hidden password field never carries a password the sender cannot see.
  if (template.password && passwordShown(settings)) form.password = template.password;
  if (template.defaultAvailability !== null) form.defaultAvailabilityDays = template.defaultAvailability;
  return form;
}

/** The whole setup from the user state and the limits. */
export function uploaderSetupOf(
  user: Pick<
    UserState,
    'managed' | 'notificationSettings' | 'uploaderSettings' | 'uploaderTemplate' | 'displayName'
  >,
  limits: Readonly<PlanLimits>,
): UploaderSetup {
  const settings = effectiveUploaderSettings(user.uploaderSettings, user.managed);
  const defaultType = defaultUploadType(settings, user.uploaderTemplate.s2AsDefault, user.managed);
  return {
    limits,
    settings,
    defaults: {
      limits,
      template: formTemplateOf(user.uploaderTemplate, user.notificationSettings.transfer, settings),
    },
    available: availableUploadTypes(settings, user.managed, defaultType),
    defaultType,
    senderName: user.displayName,
  };
}

/** The uploader's setup, loaded per signed-in user (profile, manager's settings, limits). */
export function useUploaderSetup(): UploaderSetup {
  const { limits } = usePlanLimits();
  const user = useUserState();
  return useMemo(() => uploaderSetupOf(user, limits), [user, limits]);
}
