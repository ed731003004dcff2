import {
  ApiTokenCreated,
  type ApiTokenCreateRequest,
  ApiTokenInfo,
  type TeamAuthPolicy,
  TeamAuthPolicyResponse,
  TeamOverview,
  type TeamTransferListQuery,
  TeamTransferListResponse,
  TeamUploaderSettingsResponse,
  UploaderSettings,
} from '@ferry/core';
import { apiRequest } from '../../lib/api';

/** GET /user/teams/{teamId}/uploader-settings: what the team's members may do (spec §3, §4). */
export async function getTeamUploaderSettings(
  teamId: string,
  signal?: AbortSignal,
): Promise<UploaderSettings> {
  const answer = await apiRequest(`/user/teams/${encodeURIComponent(teamId)}/uploader-settings`, {
    schema: TeamUploaderSettingsResponse,
    signal,
  });
  return answer.uploaderSettings;
}

/** PUT /user/users/{managerId}/uploader-settings: the manager or a transfer manager sets the team's policy. */
export function putTeamUploaderSettings(
  teamId: string,
  settings: UploaderSettings,
): Promise<UploaderSettings> {
  return apiRequest(`/user/users/${encodeURIComponent(teamId)}/uploader-settings`, {
    method: 'PUT',
    body: settings,
    schema: UploaderSettings,
  });
}

/** GET /team/{teamId}/authentication-policy: the team's rules and the sign-in methods this server offers. */
export function getTeamAuthPolicy(teamId: string, signal?: AbortSignal): Promise<TeamAuthPolicyResponse> {
  return apiRequest(`/team/${encodeURIComponent(teamId)}/authentication-policy`, {
    schema: TeamAuthPolicyResponse,
    signal,
  });
}

/** PUT /team/{teamId}/authentication-policy: the manager or a USER_MANAGER member changes the rules. */
export function putTeamAuthPolicy(teamId: string, policy: TeamAuthPolicy): Promise<TeamAuthPolicyResponse> {
  return apiRequest(`/team/${encodeURIComponent(teamId)}/authentication-policy`, {
    method: 'PUT',
    body: policy,
    schema: TeamAuthPolicyResponse,
  });
}

/** GET /team/{teamId}/overview: seats, storage, 7-day bytes and 30 days of activity (/dashboard/admin). */
export function getTeamOverview(teamId: string, signal?: AbortSignal): Promise<TeamOverview> {
  return apiRequest(`/team/${encodeURIComponent(teamId)}/overview`, { schema: TeamOverview, signal });
}

const TeamTokenList = ApiTokenInfo.array();

/** GET /team/{teamId}/tokens: the team's tokens (its manager only). */
export function listTeamTokens(teamId: string): Promise<ApiTokenInfo[]> {
  return apiRequest(`/team/${encodeURIComponent(teamId)}/tokens`, { schema: TeamTokenList });
}

/** POST /team/{teamId}/tokens: the token itself is in this answer only. */
export function createTeamToken(teamId: string, request: ApiTokenCreateRequest): Promise<ApiTokenCreated> {
  return apiRequest(`/team/${encodeURIComponent(teamId)}/tokens`, {
    method: 'POST',
    body: request,
    schema: ApiTokenCreated,
  });
}

export async function revokeTeamToken(teamId: string, id: string): Promise<void> {
  await apiRequest(`/team/${encodeURIComponent(teamId)}/tokens/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });
}

/**
 * GET /user/teams/{teamId}/transfers: one page of every transfer of the team's accounts, or of one `member`'s
 * (/dashboard/admin/transfers); for the manager and transfer managers.
 */
export function listTeamTransfers(
  teamId: string,
  query: TeamTransferListQuery,
  signal?: AbortSignal,
): Promise<TeamTransferListResponse> {
  const { status, limit, ...rest } = query;
  return apiRequest(`/user/teams/${encodeURIComponent(teamId)}/transfers`, {
    query: {
      ...rest,
      limit: typeof limit === 'number' ? limit : undefined,
      status: Array.isArray(status) ? status.join(',') : status,
    },
    schema: TeamTransferListResponse,
    signal,
  });
}
