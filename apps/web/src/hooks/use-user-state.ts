import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  EMPTY_TEMPLATE,
  type NotificationSettings,
  type TransferTemplate,
  type UploaderSettings,
  type UserProfile,
} from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ACCOUNT_QUERY_KEY, useAuth } from '../features/auth/auth-context';
import { getUserProfile } from '../lib/user-api';

/** The user state of spec §4 that pages other than the account pages read. */
export interface UserState {
  /** The signed-in user's own profile; null with no user, while loading, or if it could not be loaded. */
  profile: UserProfile | null;
  /** A team member (with a managerId): uploader settings and templates are the manager's. */
  managed: boolean;
  notificationSettings: NotificationSettings;
  uploaderSettings: UploaderSettings;
  uploaderTemplate: TransferTemplate;
  /** The name to show for the user: their own display name, otherwise the profile first name (spec §4). */
  displayName: string | null;
  /** False while a profile this state depends on is still loading. */
  ready: boolean;
}

function profileQuery(viewer: string | null, id: string | null) {
  return {
    queryKey: [ACCOUNT_QUERY_KEY, viewer, 'user', id],
    queryFn: ({ signal }: { signal: AbortSignal }) => getUserProfile(id ?? '', signal),
    enabled: viewer !== null && id !== null,
    staleTime: 5 * 60_000,
  };
}

/**
 * Spec §4: the user state loads whenever the signed-in user changes. With no user the defaults apply. For a
 * team member, uploader settings and the uploader template come from the manager's account (GET
 * /user/users/{managerId}), falling back to the default team-member settings; notification settings and the
 * first name stay the member's own.
 */
export function useUserState(): UserState {
  const { state } = useAuth();
  const uid = state.user?.uid ?? null;
  const managerId = uid === null ? null : state.managerId;
  const own = useQuery(profileQuery(uid, uid));
  const manager = useQuery(profileQuery(uid, managerId));
  const displayName = state.user?.displayName ?? null;
  const ownData = uid === null ? null : (own.data ?? null);
  const managerData = managerId === null ? null : (manager.data ?? null);
  // A failed load counts as settled: the defaults then apply.
  const ready = uid === null || (!own.isPending && (managerId === null || !manager.isPending));
  return useMemo(() => {
    const managed = managerId !== null;
    const source = managed ? managerData : ownData;
    const fallback = managed ? DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS : DEFAULT_UPLOADER_SETTINGS;
    return {
      profile: ownData,
      managed,
      notificationSettings: ownData?.notificationSettings ?? DEFAULT_NOTIFICATION_SETTINGS,
      uploaderSettings: source?.uploaderSettings ?? fallback,
      uploaderTemplate: source?.uploaderTemplate ?? EMPTY_TEMPLATE,
      displayName: displayName || ownData?.info.firstname || null,
      ready,
    };
  }, [managerId, managerData, ownData, displayName, ready]);
}
