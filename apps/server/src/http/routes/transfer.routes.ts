import {
  ErrorBody,
  TransferCompleteRequest,
  TransferCreateRequest,
  TransferCreateResponse,
  TransferId,
  TransferSummary,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor, TransferService } from '../../services/transfer.service.js';

const UploadTokenHeaders = z.object({ 'x-upload-token': z.string().max(200).optional() });
const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody };

export const transferRoutes =
  (transfers: TransferService, originOf: (host: string, protocol: string) => string): FastifyPluginAsyncZod =>
  async (app) => {
    const actorOf = (r: { ip: string; host: string; protocol: string }): Actor => ({
      userId: null,
      plan: 'NONE',
      ip: r.ip,
      origin: originOf(r.host, r.protocol),
    });

    app.post(
      '/api/transfer/transfers',
      {
        schema: {
          tags: ['transfers'],
          body: TransferCreateRequest,
          response: { 201: TransferCreateResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await transfers.create(request.body, actorOf(request))),
    );

    app.get(
      '/api/transfer/transfers/:transferId/upload-state',
      {
        schema: {
          tags: ['transfers'],
          params: z.object({ transferId: TransferId }),
          headers: UploadTokenHeaders,
          response: { 200: TransferSummary, ...errors },
        },
      },
      async (request) =>
        transfers.uploadState(
          request.params.transferId,
          request.headers['x-upload-token'],
          actorOf(request).origin,
        ),
    );

    app.post(
      '/api/transfer/transfers/:transferId/complete',
      {
        schema: {
          tags: ['transfers'],
          params: z.object({ transferId: TransferId }),
          headers: UploadTokenHeaders,
          body: TransferCompleteRequest,
          response: { 200: TransferSummary, ...errors },
        },
      },
      async (request) =>
        transfers.complete(
          request.params.transferId,
          request.headers['x-upload-token'],
          request.body.files ?? [],
          actorOf(request),
        ),
    );
  };
