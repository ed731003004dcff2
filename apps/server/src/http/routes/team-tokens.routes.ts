import { ApiTokenCreated, ApiTokenCreateRequest, ApiTokenInfo, ErrorBody } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TeamTokenService } from '../../services/team-tokens.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['team'];
const Params = z.object({ teamId: z.string().min(1).max(100) });

/** A team's tokens (/dashboard/admin/api), managed by its manager in the browser (docs/api.md "Team tokens"). */
export const teamTokenRoutes =
  (tokens: TeamTokenService): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (request: { ip: string; headers: Record<string, string | string[] | undefined> }) => {
      const agent = request.headers['user-agent'];
      return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null };
    };
    app.get(
      '/api/team/:teamId/tokens',
      { schema: { tags, params: Params, response: { 200: z.array(ApiTokenInfo), ...errors } } },
      async (request) => tokens.list(request.auth, request.params.teamId),
    );
    app.post(
      '/api/team/:teamId/tokens',
      {
        schema: {
          tags,
          params: Params,
          body: ApiTokenCreateRequest,
          response: { 201: ApiTokenCreated, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await tokens.create(request.auth, request.params.teamId, request.body, ctx(request))),
    );
    app.delete(
      '/api/team/:teamId/tokens/:id',
      {
        schema: {
          tags,
          params: Params.extend({ id: z.string().min(1).max(100) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await tokens.revoke(request.auth, request.params.teamId, request.params.id, ctx(request));
        return reply.status(204).send(null);
      },
    );
  };
