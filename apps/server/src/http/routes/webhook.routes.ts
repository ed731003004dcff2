import { ErrorBody, WebhookCreated, WebhookCreateRequest, WebhookDelivery, WebhookInfo } from '@ferry/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../services/app-error.js';
import type { Authenticated } from '../../services/auth.service.js';
import type { WebhookService } from '../../services/webhook.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['webhooks'];
const Id = z.string().min(1).max(100);

function signedIn(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
  return request.auth;
}

/** Webhooks of the signed-in user (or of their team, for a manager): an API token needs the admin scope. */
export const webhookRoutes =
  (webhooks: WebhookService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/webhooks',
      { schema: { tags, response: { 200: z.array(WebhookInfo), ...errors } } },
      async (request) => webhooks.list(signedIn(request)),
    );
    app.post(
      '/api/user/webhooks',
      { schema: { tags, body: WebhookCreateRequest, response: { 201: WebhookCreated, ...errors } } },
      async (request, reply) =>
        reply.status(201).send(await webhooks.create(signedIn(request), request.body, callerOf(request))),
    );
    app.delete(
      '/api/user/webhooks/:id',
      { schema: { tags, params: z.object({ id: Id }), response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await webhooks.remove(signedIn(request), request.params.id, callerOf(request));
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/api/user/webhooks/:id/deliveries',
      {
        schema: {
          tags,
          params: z.object({ id: Id }),
          response: { 200: z.array(WebhookDelivery), ...errors },
        },
      },
      async (request) => webhooks.deliveries(signedIn(request), request.params.id),
    );
    app.post(
      '/api/user/webhooks/deliveries/:deliveryId/replay',
      {
        schema: { tags, params: z.object({ deliveryId: Id }), response: { 200: WebhookDelivery, ...errors } },
      },
      async (request) => webhooks.replay(signedIn(request), request.params.deliveryId),
    );
  };

function callerOf(request: { ip: string; headers: Record<string, string | string[] | undefined> }) {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : undefined };
}
