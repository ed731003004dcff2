import { ErrorBody, Limits, LimitsUpdate } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LimitsService } from '../../services/limits.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const Params = z.object({ id: z.string().min(1).max(100) });

/** Spec §7: GET /transfer/limits/{id} and PUT /transfer/limits/{id}/by-user. */
export const limitsRoutes =
  (limits: LimitsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/transfer/limits/:id',
      { schema: { tags: ['limits'], params: Params, response: { 200: Limits, ...errors } } },
      async (request) => limits.get(request.auth, request.params.id),
    );
    app.put(
      '/api/transfer/limits/:id/by-user',
      {
        schema: {
          tags: ['limits'],
          params: Params,
          body: LimitsUpdate,
          response: { 200: Limits, ...errors },
        },
      },
      async (request) => limits.update(request.auth, request.params.id, request.body),
    );
  };
