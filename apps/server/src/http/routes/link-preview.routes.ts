import { ErrorBody, TransferId, TransferOpenGraph, TransferOpenGraphView } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LinkPreviewService } from '../../services/link-preview.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const Params = z.object({ transferId: TransferId });
const tags = ['dashboard'];

/** A transfer's link preview (spec §3 open-graph customization; docs/api.md "Link previews"). */
export const linkPreviewRoutes =
  (previews: LinkPreviewService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/transfer/transfers/:transferId/open-graph',
      {
        schema: {
          tags,
          summary: "The link preview chosen for a transfer's download page (null fields: the defaults)",
          params: Params,
          response: { 200: TransferOpenGraphView, ...errors },
        },
      },
      async (request) => previews.choice(request.auth, request.params.transferId),
    );
    app.put(
      '/api/transfer/transfers/:transferId/open-graph',
      {
        schema: {
          tags,
          summary: "Chooses the title and description of a transfer's link preview (owner, paid plan)",
          params: Params,
          body: TransferOpenGraph,
          response: { 200: TransferOpenGraphView, ...errors },
        },
      },
      async (request) => previews.choose(request.auth, request.params.transferId, request.body),
    );
  };
