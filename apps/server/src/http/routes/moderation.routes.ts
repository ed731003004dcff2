import {
  ErrorBody,
  ModerationCase,
  type ModerationDecision,
  ModerationQueue,
  TransferReportRequest,
  TransferReportResponse,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModerationService } from '../../services/moderation.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
// Any id passes here: the service answers 404 to a non-operator before it looks at one.
const Params = z.object({ transferId: z.string() });
const tags = ['moderation'];

/** Abuse reports (anyone) and the operators' moderation queue (docs/api.md "Moderation"); operators only: 404. */
export const moderationRoutes =
  (moderation: ModerationService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/transfer/reports',
      { schema: { tags, body: TransferReportRequest, response: { 202: TransferReportResponse, ...errors } } },
      async (request, reply) => {
        const user = request.auth?.user;
        const answer = await moderation.report(request.body, {
          ip: request.ip,
          userId: user?.id ?? null,
          email: user?.email ?? null,
        });
        return reply.status(202).send(answer);
      },
    );
    app.get(
      '/api/operator/moderation',
      { schema: { tags, response: { 200: ModerationQueue, ...errors } } },
      async (request) => moderation.queue(request.auth),
    );
    app.get(
      '/api/operator/moderation/:transferId',
      { schema: { tags, params: Params, response: { 200: ModerationCase, ...errors } } },
      async (request) => moderation.case(request.auth, request.params.transferId),
    );
    const decisions = ['hold', 'release', 'retain', 'dismiss'] as const;
    for (const decision of decisions)
      app.post(
        `/api/operator/moderation/:transferId/${decision}`,
        // The body is read by the service, after the operator check: a non-operator gets 404, never a 400.
        { schema: { tags, params: Params, response: { 200: ModerationCase, ...errors } } },
        async (request) =>
          moderation[decision](request.auth, request.params.transferId, request.body as ModerationDecision),
      );
  };
