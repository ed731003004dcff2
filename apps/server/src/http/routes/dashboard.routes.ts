import {
  Email,
  ErrorBody,
  FileId,
  TransferDetail,
  TransferFileUpdate,
  TransferId,
  TransferListQuery,
  TransferListResponse,
  TransferRecipientsAdd,
  TransferUpdate,
} from '@ferry/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DashboardContext, DashboardService } from '../../services/dashboard.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['dashboard'];
const Params = z.object({ transferId: TransferId });
const FileParams = z.object({ transferId: TransferId, fileId: FileId });
const detail = { 200: TransferDetail, ...errors };

/** The dashboard's transfers (docs/api.md "Dashboard"): signed in, session or API token. */
export const dashboardRoutes =
  (
    dashboard: DashboardService,
    originOf: (host: string, protocol: string) => string,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: FastifyRequest): DashboardContext => ({ origin: originOf(r.host, r.protocol), ip: r.ip });

    app.get(
      '/api/transfer/transfers',
      {
        schema: {
          tags,
          summary: "The signed-in user's transfers, sent and received (keyset pages)",
          querystring: TransferListQuery,
          response: { 200: TransferListResponse, ...errors },
        },
      },
      async (request) => dashboard.list(request.auth, request.query, ctx(request)),
    );
    app.get(
      '/api/transfer/transfers/:transferId/detail',
      { schema: { tags, params: Params, response: detail } },
      async (request) => dashboard.detail(request.auth, request.params.transferId, ctx(request)),
    );
    app.patch(
      '/api/transfer/transfers/:transferId',
      { schema: { tags, params: Params, body: TransferUpdate, response: detail } },
      async (request) =>
        dashboard.update(request.auth, request.params.transferId, request.body, ctx(request)),
    );
    app.post(
      '/api/transfer/transfers/:transferId/recipients',
      { schema: { tags, params: Params, body: TransferRecipientsAdd, response: detail } },
      async (request) =>
        dashboard.addRecipients(request.auth, request.params.transferId, request.body, ctx(request)),
    );
    app.delete(
      '/api/transfer/transfers/:transferId/recipients/:email',
      { schema: { tags, params: Params.extend({ email: Email }), response: detail } },
      async (request) =>
        dashboard.removeRecipient(
          request.auth,
          request.params.transferId,
          request.params.email,
          ctx(request),
        ),
    );
    for (const [action, enabled] of [
      ['enable', true],
      ['disable', false],
    ] as const)
      app.post(
        `/api/transfer/transfers/:transferId/${action}`,
        { schema: { tags, params: Params, response: detail } },
        async (request) =>
          dashboard.setEnabled(request.auth, request.params.transferId, enabled, ctx(request)),
      );
    app.delete(
      '/api/transfer/transfers/:transferId',
      { schema: { tags, params: Params, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await dashboard.delete(request.auth, request.params.transferId);
        return reply.status(204).send(null);
      },
    );
    app.patch(
      '/api/transfer/transfers/:transferId/files/:fileId',
      { schema: { tags, params: FileParams, body: TransferFileUpdate, response: detail } },
      async (request) =>
        dashboard.renameFile(
          request.auth,
          request.params.transferId,
          request.params.fileId,
          request.body,
          ctx(request),
        ),
    );
    app.delete(
      '/api/transfer/transfers/:transferId/files/:fileId',
      { schema: { tags, params: FileParams, response: detail } },
      async (request) =>
        dashboard.deleteFile(request.auth, request.params.transferId, request.params.fileId, ctx(request)),
    );
  };
