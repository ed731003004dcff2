import { TeamUploaderSettingsResponse, UploaderSettings } from '@ferry/core';
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
