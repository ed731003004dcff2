import {
  CheckPasswordResponse,
  ErrorBody,
  InboxSlug,
  ReceiveCheckPasswordRequest,
  ReceivedUploadView,
  ReceivePointPublic,
  ReceiveReceipt,
  ReceiveRequestCreate,
  ReceiveRequestId,
  ReceiveRequestListResponse,
  ReceiveRequestView,
  ReceiveUploadComplete,
  ReceiveUploadCreate,
  ReceiveUploadCreateResponse,
  TransferId,
  WidgetId,
} from '@ferry/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReceiveContext, ReceiveService } from '../../services/receive.service.js';
import type { ReceiveRequestService } from '../../services/receive-request.service.js';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  410: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
};
const tags = ['receive'];
const RequestParams = z.object({ requestId: ReceiveRequestId });
const UploadParams = z.object({ transferId: TransferId });
const UploadTokenHeaders = z.object({ 'x-upload-token': z.string().max(200).optional() });

/** Receiving files (docs/api.md "Receiving files (S3)"): file requests, public receive pages and uploads. */
export const receiveRoutes =
  (
    receive: ReceiveService,
    requests: ReceiveRequestService,
    /** Where links start: the verified host the request came to, else the public origin. */
    publicOrigin: (request?: FastifyRequest) => string,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: FastifyRequest): ReceiveContext => ({
      origin: publicOrigin(r),
      ip: r.ip,
      host: r.servedHost?.host ?? null,
      hostOwnerId: r.servedHost?.ownerId ?? null,
    });

    // --- file requests (signed in) ---
    app.post(
      '/api/receive/requests',
      { schema: { tags, body: ReceiveRequestCreate, response: { 201: ReceiveRequestView, ...errors } } },
      async (request, reply) =>
        reply.status(201).send(await requests.createRequest(request.auth, request.body, ctx(request))),
    );
    app.get(
      '/api/receive/requests',
      { schema: { tags, response: { 200: ReceiveRequestListResponse, ...errors } } },
      async (request) => requests.requests(request.auth),
    );
    app.get(
      '/api/receive/requests/:requestId',
      { schema: { tags, params: RequestParams, response: { 200: ReceiveRequestView, ...errors } } },
      async (request) => requests.request(request.auth, request.params.requestId),
    );
    app.post(
      '/api/receive/requests/:requestId/close',
      { schema: { tags, params: RequestParams, response: { 200: ReceiveRequestView, ...errors } } },
      async (request) => requests.closeRequest(request.auth, request.params.requestId),
    );

    // --- public pages (no cookie needed) ---
    const point = { 200: ReceivePointPublic, ...errors };
    app.get(
      '/api/receive/points/request/:requestId',
      {
        schema: {
          tags,
          params: RequestParams,
          querystring: z.object({ userSecret: z.string().max(200).optional() }),
          response: point,
        },
      },
      async (request) =>
        receive.point(
          { kind: 'request', requestId: request.params.requestId, userSecret: request.query.userSecret },
          ctx(request),
        ),
    );
    app.get(
      '/api/receive/points/inbox/:slug',
      { schema: { tags, params: z.object({ slug: InboxSlug }), response: point } },
      async (request) => receive.point({ kind: 'inbox', slug: request.params.slug }, ctx(request)),
    );
    app.get(
      '/api/receive/points/widget/:widgetId',
      { schema: { tags, params: z.object({ widgetId: WidgetId }), response: point } },
      async (request) => receive.point({ kind: 'widget', widgetId: request.params.widgetId }, ctx(request)),
    );
    app.get(
      '/api/receive/push',
      { schema: { tags, querystring: z.object({ to: z.string().trim().min(1).max(320) }), response: point } },
      async (request) => receive.point({ kind: 'push', to: request.query.to }, ctx(request)),
    );
    app.post(
      '/api/receive/check-password',
      {
        schema: {
          tags,
          body: ReceiveCheckPasswordRequest,
          response: { 200: CheckPasswordResponse, ...errors },
        },
      },
      async (request) => {
        await receive.checkPassword(request.body, ctx(request));
        return { ok: true as const };
      },
    );

    // --- uploads ---
    app.post(
      '/api/receive/uploads',
      {
        schema: {
          tags,
          body: ReceiveUploadCreate,
          response: { 201: ReceiveUploadCreateResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await receive.createUpload(request.body, ctx(request))),
    );
    app.get(
      '/api/receive/uploads/:transferId',
      {
        schema: {
          tags,
          params: UploadParams,
          headers: UploadTokenHeaders,
          response: { 200: ReceiveReceipt, ...errors },
        },
      },
      async (request) => receive.receipt(request.params.transferId, request.headers['x-upload-token']),
    );
    app.post(
      '/api/receive/uploads/:transferId/complete',
      {
        schema: {
          tags,
          params: UploadParams,
          headers: UploadTokenHeaders,
          body: ReceiveUploadComplete,
          response: { 200: ReceiveReceipt, ...errors },
        },
      },
      async (request) =>
        receive.completeUpload(
          request.params.transferId,
          request.headers['x-upload-token'],
          request.body.files ?? [],
          ctx(request),
        ),
    );

    // --- what the owner received ---
    app.get(
      '/api/receive/received/:transferId',
      { schema: { tags, params: UploadParams, response: { 200: ReceivedUploadView, ...errors } } },
      async (request) => receive.receivedView(request.auth, request.params.transferId),
    );
  };
