import {
  defaultTransferType,
  EMPTY_TEMPLATE,
  isPayingPlan,
  type NotificationSettings,
  type PlanLimits,
  type ReceiveLinkMode,
  type TransferTemplate,
  type UploaderSettings,
} from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { usePlanLimits } from '../../hooks/use-plan-limits';
import { useUserState } from '../../hooks/use-user-state';
import { getUserProfile } from '../../lib/user-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import type { RequestDefaults } from './request-form-state';

/** What the receive form is set up with for the signed-in user. */
export interface ReceiveSetup {
  limits: Readonly<PlanLimits>;
  settings: Readonly<UploaderSettings>;
  defaults: RequestDefaults;
  /** The link modes the requester may use (spec §3 allowInboxS1 / allowInboxS2); may be empty. */
  available: readonly ReceiveLinkMode[];
  /** The mode without a #S1/#S2 hash (spec §4). */
  defaultMode: ReceiveLinkMode;
  ready: boolean;
}

/**
 * Spec §4: receive link mode starts "on" (by link, S2) when inbox S1 is disallowed for a managed user, "off"
 * (by e-mail, S1) when S2 is disallowed, otherwise as the receiver template says (s2AsDefault).
 */
export function defaultLinkMode(
  settings: Pick<UploaderSettings, 'allowInboxS1' | 'allowInboxS2'>,
  s2AsDefault: boolean,
  managed: boolean,
): ReceiveLinkMode {
  const type = defaultTransferType({
    page: 'uploader',
    s2AsDefault,
    managed,
    allowS1: settings.allowInboxS1,
    allowS2: settings.allowInboxS2,
  });
  return type === 'S2' ? 'S2' : 'S1';
}

/** The modes the server accepts for this account: each needs its allowInbox setting. */
export function availableLinkModes(
  settings: Pick<UploaderSettings, 'allowInboxS1' | 'allowInboxS2'>,
): ReceiveLinkMode[] {
  return (['S1', 'S2'] as const).filter((m) => (m === 'S1' ? settings.allowInboxS1 : settings.allowInboxS2));
}

export function requestDefaultsOf(input: {
  limits: Pick<PlanLimits, 'fileValidityInDays'>;
  payingUser: boolean;
  template: TransferTemplate;
  notifications: NotificationSettings['receive'];
  settings: Pick<UploaderSettings, 'receivePasswordOpt' | 'receiveRequirePassword'>;
  senderName: string;
  senderEmail: string;
}): RequestDefaults {
  const { template } = input;
  const passwordShown = input.settings.receivePasswordOpt || input.settings.receiveRequirePassword;
  return {
    validityDays: input.limits.fileValidityInDays,
    payingUser: input.payingUser,
    template: {
      ...(template.name ? { subject: template.name } : {}),
      ...(template.message ? { message: template.message } : {}),
      recipients: template.recipients,
      // A hidden password field never carries a password the requester cannot see.
      ...(template.password && passwordShown ? { password: template.password } : {}),
      ...(template.defaultAvailability !== null
        ? { defaultAvailabilityDays: template.defaultAvailability }
        : {}),
    },
    notifications: { expiryReminder: input.notifications.expiryReminder, upload: input.notifications.upload },
    senderName: input.senderName,
    senderEmail: input.senderEmail,
  };
}

/**
 * The receive form's setup (spec §3, §4): the plan's limits, the (team's) uploader settings, the receiver
 * template — a team member's comes from the manager's profile, as the uploader template does — and the
 * account's notificationSettings.receive.
 */
export function useReceiveSetup(): ReceiveSetup {
  const { state } = useAuth();
  const { limits } = usePlanLimits();
  const user = useUserState();
  const uid = state.user?.uid ?? null;
  const managerId = uid === null ? null : state.managerId;
  // The same query (and cache) as the user state's profile of the manager.
  const manager = useQuery({
    queryKey: [ACCOUNT_QUERY_KEY, uid, 'user', managerId],
    queryFn: ({ signal }) => getUserProfile(managerId ?? '', signal),
    enabled: uid !== null && managerId !== null,
    staleTime: 5 * 60_000,
  });
  const source = managerId === null ? user.profile : (manager.data ?? null);
  const template = source?.receiverTemplate ?? EMPTY_TEMPLATE;
  const paying = state.payingUser || isPayingPlan(state.planType);
  const email = state.user?.email ?? '';
  return useMemo(() => {
    const settings = user.uploaderSettings;
    const available = availableLinkModes(settings);
    const wanted = defaultLinkMode(settings, template.s2AsDefault, user.managed);
    return {
      limits,
      settings,
      defaults: requestDefaultsOf({
        limits,
        payingUser: paying,
        template,
        notifications: user.notificationSettings.receive,
        settings,
        senderName: user.displayName ?? '',
        senderEmail: email,
      }),
      available,
      defaultMode: available.includes(wanted) ? wanted : (available[0] ?? wanted),
      ready: user.ready,
    };
  }, [limits, user, template, paying, email]);
}
