import {
  ErrorBody,
  IdTokenResponse,
  TeamInvitationAccept,
  TeamInvitationView,
  TeamInviteRequest,
  TeamInviteResponse,
  TeamMember,
  TeamMembersResponse,
  TeamMemberUpdate,
  UserGroup,
  UserGroupCreate,
  UserGroupList,
  UserGroupUpdate,
} from '@ferry/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TeamMembersService, TeamRequestContext } from '../../services/team-members.service.js';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  410: ErrorBody,
};
const Team = z.object({ teamId: z.string().min(1).max(100) });
const Member = Team.extend({ uid: z.string().min(1).max(100) });
const Group = Team.extend({ groupId: z.string().min(1).max(100) });
const Invitation = Team.extend({ invitationId: z.string().min(1).max(100) });

/** Team members and invitations (issue "Teams a manager runs"; docs/api.md "Team members"). */
export const teamMembersRoutes =
  (members: TeamMembersService, publicOrigin: () => string): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: FastifyRequest): TeamRequestContext => ({
      ip: r.ip,
      userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : null,
      origin: publicOrigin(),
    });
    app.get(
      '/api/user/teams/:teamId/members',
      { schema: { tags: ['team'], params: Team, response: { 200: TeamMembersResponse, ...errors } } },
      async (request) => members.members(request.auth, request.params.teamId),
    );
    app.post(
      '/api/user/teams/:teamId/invitations',
      {
        bodyLimit: 2 * 1024 * 1024,
        schema: {
          tags: ['team'],
          params: Team,
          body: TeamInviteRequest,
          response: { 200: TeamInviteResponse, ...errors },
        },
      },
      async (request) => members.invite(request.auth, request.params.teamId, request.body, ctx(request)),
    );
    app.delete(
      '/api/user/teams/:teamId/invitations/:invitationId',
      { schema: { tags: ['team'], params: Invitation, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await members.withdraw(request.auth, request.params.teamId, request.params.invitationId);
        return reply.status(204).send(null);
      },
    );
    app.patch(
      '/api/user/teams/:teamId/members/:uid',
      {
        schema: {
          tags: ['team'],
          params: Member,
          body: TeamMemberUpdate,
          response: { 200: TeamMember, ...errors },
        },
      },
      async (request) =>
        members.update(request.auth, request.params.teamId, request.params.uid, request.body, ctx(request)),
    );
    app.delete(
      '/api/user/teams/:teamId/members/:uid',
      { schema: { tags: ['team'], params: Member, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await members.remove(request.auth, request.params.teamId, request.params.uid, ctx(request));
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/api/user/teams/:teamId/groups',
      { schema: { tags: ['team'], params: Team, response: { 200: UserGroupList, ...errors } } },
      async (request) => members.groups(request.auth, request.params.teamId),
    );
    app.post(
      '/api/user/teams/:teamId/groups',
      {
        schema: {
          tags: ['team'],
          params: Team,
          body: UserGroupCreate,
          response: { 201: UserGroup, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await members.createGroup(request.auth, request.params.teamId, request.body, ctx(request))),
    );
    app.patch(
      '/api/user/teams/:teamId/groups/:groupId',
      {
        schema: {
          tags: ['team'],
          params: Group,
          body: UserGroupUpdate,
          response: { 200: UserGroup, ...errors },
        },
      },
      async (request) =>
        members.updateGroup(
          request.auth,
          request.params.teamId,
          request.params.groupId,
          request.body,
          ctx(request),
        ),
    );
    app.delete(
      '/api/user/teams/:teamId/groups/:groupId',
      { schema: { tags: ['team'], params: Group, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await members.deleteGroup(request.auth, request.params.teamId, request.params.groupId);
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/api/user/team-invitations/:token',
      {
        schema: {
          tags: ['team'],
          params: z.object({ token: z.string().min(1).max(200) }),
          response: { 200: TeamInvitationView, ...errors },
        },
      },
      async (request) => members.view(request.params.token),
    );
    app.post(
      '/api/user/team-invitations/accept',
      {
        schema: {
          tags: ['team'],
          body: TeamInvitationAccept,
          response: { 200: IdTokenResponse, ...errors },
        },
      },
      async (request) => members.accept(request.auth, request.body, ctx(request)),
    );
  };
