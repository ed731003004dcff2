import {
  AdditionId,
  Email,
  ErrorBody,
  FileId,
  TransferCloneRequest,
  TransferDetail,
  TransferFilesAdd,
  TransferFilesAddResponse,
  TransferFilesComplete,
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
import type { DashboardService } from '../../services/dashboard.service.js';
import type { DashboardContext } from '../../services/dashboard-access.js';
import type { DashboardActionsService } from '../../services/dashboard-actions.service.js';
import type { FileAdditionService } from '../../services/dashboard-additions.service.js';
import type { TransferCloneService } from '../../services/dashboard-clone.service.js';

/** The dashboard's services: reading, the changes to a transfer, cloning, adding files. */
export interface DashboardServices {
  read: DashboardService;
  actions: DashboardActionsService;
  clones: TransferCloneService;
  additions: FileAdditionService;
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['dashboard'];
const Params = z.object({ transferId: TransferId });
const FileParams = z.object({ transferId: TransferId, fileId: FileId });
const detail = { 200: TransferDetail, ...errors };
const AdditionParams = z.object({ transferId: TransferId, additionId: AdditionId });

/** The dashboard's transfers (docs/api.md "Dashboard"): signed in, session or API token. */
export const dashboardRoutes =
  (
    { read, actions, clones, additions }: DashboardServices,
    publicOrigin: () => string,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: FastifyRequest): DashboardContext => ({ origin: publicOrigin(), ip: r.ip });

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
      async (request) => read.list(request.auth, request.query, ctx(request)),
    );
    app.get(
      '/api/transfer/transfers/:transferId/detail',
      { schema: { tags, params: Params, response: detail } },
      async (request) => read.detail(request.auth, request.params.transferId, ctx(request)),
    );
    app.patch(
      '/api/transfer/transfers/:transferId',
      { schema: { tags, params: Params, body: TransferUpdate, response: detail } },
      async (request) => actions.update(request.auth, request.params.transferId, request.body, ctx(request)),
    );
    app.post(
      '/api/transfer/transfers/:transferId/recipients',
      { schema: { tags, params: Params, body: TransferRecipientsAdd, response: detail } },
      async (request) =>
        actions.addRecipients(request.auth, request.params.transferId, request.body, ctx(request)),
    );
    app.delete(
      '/api/transfer/transfers/:transferId/recipients/:email',
      { schema: { tags, params: Params.extend({ email: Email }), response: detail } },
      async (request) =>
        actions.removeRecipient(request.auth, request.params.transferId, request.params.email, ctx(request)),
    );
    for (const [action, enabled] of [
      ['enable', true],
      ['disable', false],
    ] as const)
      app.post(
        `/api/transfer/transfers/:transferId/${action}`,
        { schema: { tags, params: Params, response: detail } },
        async (request) => actions.setEnabled(request.auth, request.params.transferId, enabled, ctx(request)),
      );
    app.delete(
      '/api/transfer/transfers/:transferId',
      { schema: { tags, params: Params, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await actions.delete(request.auth, request.params.transferId);
        return reply.status(204).send(null);
      },
    );
    app.patch(
      '/api/transfer/transfers/:transferId/files/:fileId',
      { schema: { tags, params: FileParams, body: TransferFileUpdate, response: detail } },
      async (request) =>
        actions.renameFile(
          request.auth,
          request.params.transferId,
          request.params.fileId,
          request.body,
          ctx(request),
        ),
    );
    app.post(
      '/api/transfer/transfers/:transferId/clone',
      {
        schema: {
          tags,
          summary:
            'A new transfer with the same files, copied inside the storage (status CLONING, then ENABLED)',
          params: Params,
          body: TransferCloneRequest,
          response: { 201: TransferDetail, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await clones.clone(request.auth, request.params.transferId, request.body, ctx(request))),
    );
    app.post(
      '/api/transfer/transfers/:transferId/files',
      {
        schema: {
          tags,
          summary: 'Announces files to add; upload each with tus and the answer’s token, then complete',
          params: Params,
          body: TransferFilesAdd,
          response: { 201: TransferFilesAddResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await additions.add(request.auth, request.params.transferId, request.body)),
    );
    app.post(
      '/api/transfer/transfers/:transferId/additions/:additionId/complete',
      { schema: { tags, params: AdditionParams, body: TransferFilesComplete, response: detail } },
      async (request) =>
        additions.complete(
          request.auth,
          request.params.transferId,
          request.params.additionId,
          request.body,
          ctx(request),
        ),
    );
    app.delete(
      '/api/transfer/transfers/:transferId/additions/:additionId',
      { schema: { tags, params: AdditionParams, response: detail } },
      async (request) =>
        additions.cancel(request.auth, request.params.transferId, request.params.additionId, ctx(request)),
    );
    app.delete(
      '/api/transfer/transfers/:transferId/files/:fileId',
      { schema: { tags, params: FileParams, response: detail } },
      async (request) =>
        actions.deleteFile(request.auth, request.params.transferId, request.params.fileId, ctx(request)),
    );
  };
