import {
  type TeamInviteRequest,
  TeamInviteResponse,
  TeamMember,
  TeamMembersResponse,
  type TeamMemberUpdate,
} from '@ferry/core';
import { apiRequest } from './api';

/** Team members and invitations (docs/api.md "Team members, invitations and user groups"). */

const team = (teamId: string) => `/user/teams/${encodeURIComponent(teamId)}`;

export const listTeamMembers = (teamId: string, signal?: AbortSignal) =>
  apiRequest(`${team(teamId)}/members`, { schema: TeamMembersResponse, signal });

export const inviteTeamMembers = (teamId: string, body: TeamInviteRequest) =>
  apiRequest(`${team(teamId)}/invitations`, { method: 'POST', body, schema: TeamInviteResponse });

export const withdrawTeamInvitation = (teamId: string, invitationId: string) =>
  apiRequest(`${team(teamId)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });

export const updateTeamMember = (teamId: string, uid: string, body: TeamMemberUpdate) =>
  apiRequest(`${team(teamId)}/members/${encodeURIComponent(uid)}`, {
    method: 'PATCH',
    body,
    schema: TeamMember,
  });

export const removeTeamMember = (teamId: string, uid: string) =>
  apiRequest(`${team(teamId)}/members/${encodeURIComponent(uid)}`, { method: 'DELETE' });
