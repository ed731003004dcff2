import { GB, type InboxListResponse } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { usePlanLimits } from '../../hooks/use-plan-limits';
import { useUserState } from '../../hooks/use-user-state';
import { listInboxes } from '../../lib/inbox-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import type { InboxCaps } from './inbox-form-state';

/**
 * Query keys of the signed-in user's inboxes and widgets, under ACCOUNT_QUERY_KEY (dropped when the user
 * changes). The list's key is the inbox panel's (features/receive/inbox-panel.tsx): one cache entry for both,
 * and every key here starts with it, so refreshing it refreshes them all.
 */
export function inboxKeys(uid: string | null) {
  const list = [ACCOUNT_QUERY_KEY, uid, 'receive-inboxes'] as const;
  return {
    list,
    inbox: (inboxId: string) => [...list, 'inbox', inboxId] as const,
    widgets: (inboxId: string) => [...list, 'widgets', inboxId] as const,
    widget: (widgetId: string) => [...list, 'widget', widgetId] as const,
  };
}

export function useInboxKeys() {
  const uid = useAuth().state.user?.uid ?? null;
  return useMemo(() => inboxKeys(uid), [uid]);
}

/** GET /receive/inboxes: the user's inboxes and what their (team's) settings allow. */
export function useInboxList() {
  const keys = useInboxKeys();
  return useQuery({ queryKey: keys.list, queryFn: ({ signal }) => listInboxes(signal) });
}

/** Refreshes every inbox and widget query after a change. */
export function useRefreshInboxes(): () => Promise<void> {
  const client = useQueryClient();
  const keys = useInboxKeys();
  return useCallback(() => client.invalidateQueries({ queryKey: keys.list }), [client, keys]);
}

/**
 * What the owner may set on an inbox (null until the list answered): the receive rules of their (a member:
 * their manager's) uploader settings, as the list reports them, plus the notification and availability switches
 * of the user state, and the plan's upload size and validity.
 */
export function useInboxCaps(list: InboxListResponse | undefined): InboxCaps | null {
  const user = useUserState();
  const { limits } = usePlanLimits();
  const settings = user.uploaderSettings;
  return useMemo(() => {
    if (!list) return null;
    const rules = list.inboxUpload;
    return {
      allowInboxS1: rules.allowInboxS1,
      allowInboxS2: rules.allowInboxS2,
      passwordOpt: rules.receivePasswordOpt,
      requirePassword: rules.receiveRequirePassword,
      allowCustomization: rules.receiveAllowCustomization,
      notificationOpt: settings.receiveNotificationOpt,
      availabilityOpt: settings.receiveAvailabilityOpt,
      teamExtensions: rules.receiveAllowedExtensions,
      maxUploadBytes: limits.uploadSizeGB * GB,
      validityDays: limits.fileValidityInDays,
      managed: user.managed,
    };
  }, [list, settings, limits, user.managed]);
}
