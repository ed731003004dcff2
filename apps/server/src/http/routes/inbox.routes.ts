import {
  ErrorBody,
  InboxCreate,
  InboxId,
  InboxListResponse,
  InboxUpdate,
  InboxView,
  WidgetCreate,
  WidgetId,
  WidgetListResponse,
  WidgetUpdate,
  WidgetView,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InboxService } from '../../services/inbox.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['receive'];
const InboxParams = z.object({ inboxId: InboxId });
const WidgetParams = z.object({ widgetId: WidgetId });

/** Upload inboxes and their widgets, for their owner (signed in: session or API token). */
export const inboxRoutes =
  (inboxes: InboxService, publicOrigin: () => string): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/receive/inboxes',
      { schema: { tags, response: { 200: InboxListResponse, ...errors } } },
      async (request) => inboxes.list(request.auth, publicOrigin()),
    );
    app.post(
      '/api/receive/inboxes',
      { schema: { tags, body: InboxCreate, response: { 201: InboxView, ...errors } } },
      async (request, reply) =>
        reply.status(201).send(await inboxes.create(request.auth, request.body, publicOrigin())),
    );
    app.get(
      '/api/receive/inboxes/:inboxId',
      { schema: { tags, params: InboxParams, response: { 200: InboxView, ...errors } } },
      async (request) => inboxes.get(request.auth, request.params.inboxId, publicOrigin()),
    );
    app.patch(
      '/api/receive/inboxes/:inboxId',
      { schema: { tags, params: InboxParams, body: InboxUpdate, response: { 200: InboxView, ...errors } } },
      async (request) => inboxes.update(request.auth, request.params.inboxId, request.body, publicOrigin()),
    );
    app.delete(
      '/api/receive/inboxes/:inboxId',
      { schema: { tags, params: InboxParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await inboxes.remove(request.auth, request.params.inboxId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/receive/inboxes/:inboxId/widgets',
      { schema: { tags, params: InboxParams, response: { 200: WidgetListResponse, ...errors } } },
      async (request) => inboxes.widgets(request.auth, request.params.inboxId, publicOrigin()),
    );
    app.post(
      '/api/receive/inboxes/:inboxId/widgets',
      { schema: { tags, params: InboxParams, body: WidgetCreate, response: { 201: WidgetView, ...errors } } },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await inboxes.createWidget(request.auth, request.params.inboxId, request.body, publicOrigin()),
          ),
    );
    app.get(
      '/api/receive/widgets/:widgetId',
      { schema: { tags, params: WidgetParams, response: { 200: WidgetView, ...errors } } },
      async (request) => inboxes.getWidget(request.auth, request.params.widgetId, publicOrigin()),
    );
    app.patch(
      '/api/receive/widgets/:widgetId',
      {
        schema: { tags, params: WidgetParams, body: WidgetUpdate, response: { 200: WidgetView, ...errors } },
      },
      async (request) =>
        inboxes.updateWidget(request.auth, request.params.widgetId, request.body, publicOrigin()),
    );
    app.delete(
      '/api/receive/widgets/:widgetId',
      { schema: { tags, params: WidgetParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await inboxes.removeWidget(request.auth, request.params.widgetId);
        return reply.status(204).send(null);
      },
    );
  };
