import type { UserProfile } from '@ferry/core';
import { apiRequest } from './api';
import { lazySchema } from './schemas';

/**
 * GET /user/users/{id} (spec §7): the profile and settings of the signed-in user, or of their manager (a team
 * member may read their manager's record).
 */
export function getUserProfile(id: string, signal?: AbortSignal): Promise<UserProfile> {
  return apiRequest(`/user/users/${encodeURIComponent(id)}`, { schema: lazySchema('UserProfile'), signal });
}
