import {
  CountryResponse,
  ErrorBody,
  TeamMembership,
  TeamUploaderSettingsResponse,
  UploaderSettings,
  UserProfile,
  UserProfileUpdate,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserService } from '../../services/user.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['users'];

const Id = z.string().min(1).max(100);

/** Spec §7 user and team calls, plus PATCH of the profile. */
export const userRoutes =
  (users: UserService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/users/:id',
      {
        schema: {
          tags,
          params: z.object({ id: z.string().max(100) }),
          response: { 200: UserProfile, ...errors },
        },
      },
      async (request) => users.profile(request.auth, request.params.id),
    );
    app.patch(
      '/api/user/users/:id',
      {
        schema: {
          tags,
          params: z.object({ id: z.string().max(100) }),
          body: UserProfileUpdate,
          response: { 200: UserProfile, ...errors },
        },
      },
      async (request) => users.update(request.auth, request.params.id, request.body),
    );
    app.put(
      '/api/user/users/:managerId/uploader-settings',
      {
        schema: {
          tags,
          params: z.object({ managerId: z.string().max(100) }),
          body: UploaderSettings,
          response: { 200: UploaderSettings, ...errors },
        },
      },
      async (request) =>
        users.putUploaderSettings(request.auth, request.params.managerId, request.body, {
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        }),
    );
    app.get(
      '/api/user/teams/:teamId/uploader-settings',
      {
        schema: {
          tags,
          summary: "The team's uploader settings (a team is its manager's uid)",
          params: z.object({ teamId: Id }),
          response: { 200: TeamUploaderSettingsResponse, ...errors },
        },
      },
      async (request) => ({
        uploaderSettings: await users.teamUploaderSettings(request.auth, request.params.teamId),
      }),
    );
    app.get(
      '/api/user/teams/:teamId/members/:uid',
      {
        schema: {
          tags,
          params: z.object({ teamId: Id, uid: Id }),
          response: { 200: TeamMembership, ...errors },
        },
      },
      async (request) => users.teamMembership(request.auth, request.params.teamId, request.params.uid),
    );
    app.get(
      '/api/user/locations/country',
      { schema: { tags, response: { 200: CountryResponse } } },
      async (request) => ({ country: users.country(request.headers) }),
    );
  };
