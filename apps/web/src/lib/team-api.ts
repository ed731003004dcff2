import {
  IdTokenResponse,
  type TeamInvitationAccept,
  TeamInvitationView,
  type TeamInviteRequest,
  TeamInviteResponse,
  TeamMember,
  TeamMembersResponse,
  type TeamMemberUpdate,
  UserGroup,
  type UserGroupCreate,
  UserGroupList,
  type UserGroupUpdate,
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

export const viewTeamInvitation = (token: string, signal?: AbortSignal) =>
  apiRequest(`/user/team-invitations/${encodeURIComponent(token)}`, { schema: TeamInvitationView, signal });

export const acceptTeamInvitation = (body: TeamInvitationAccept) =>
  apiRequest('/user/team-invitations/accept', { method: 'POST', body, schema: IdTokenResponse });

export const listUserGroups = (teamId: string, signal?: AbortSignal) =>
  apiRequest(`${team(teamId)}/groups`, { schema: UserGroupList, signal });

export const createUserGroup = (teamId: string, body: UserGroupCreate) =>
  apiRequest(`${team(teamId)}/groups`, { method: 'POST', body, schema: UserGroup });

export const updateUserGroup = (teamId: string, groupId: string, body: UserGroupUpdate) =>
  apiRequest(`${team(teamId)}/groups/${encodeURIComponent(groupId)}`, {
    method: 'PATCH',
    body,
    schema: UserGroup,
  });

export const deleteUserGroup = (teamId: string, groupId: string) =>
  apiRequest(`${team(teamId)}/groups/${encodeURIComponent(groupId)}`, { method: 'DELETE' });
