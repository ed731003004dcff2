import { Readable } from 'node:stream';
import {
  ErrorBody,
  SecurityLogExportQuery,
  SecurityLogPage,
  SecurityLogQuery,
  SecurityLogSettings,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../lib/content-disposition.js';
import type { SecurityLogAdminService } from '../../services/security-log-admin.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const Params = z.object({ teamId: z.string().min(1).max(100) });
const tags = ['security-log'];

/** A team's security log: list, export (CSV or JSON, streamed) and retention (docs/api.md "Security log"). */
export const securityLogRoutes =
  (logs: SecurityLogAdminService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/team/:teamId/security-logs',
      {
        schema: {
          tags,
          summary: "The team's security log, newest first",
          params: Params,
          querystring: SecurityLogQuery,
          response: { 200: SecurityLogPage, ...errors },
        },
      },
      async (request) => logs.list(request.auth, request.params.teamId, request.query),
    );
    app.get(
      '/api/team/:teamId/security-logs/export',
      {
        schema: {
          tags,
          summary: "The team's security log as a CSV or JSON file (same filters as the list)",
          params: Params,
          querystring: SecurityLogExportQuery,
          response: { 200: z.any().describe('text/csv or application/json, streamed'), ...errors },
        },
      },
      async (request, reply) => {
        const file = await logs.export(request.auth, request.params.teamId, request.query);
        return reply
          .type(file.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('Content-Disposition', contentDisposition(file.fileName))
          .header('Cache-Control', 'no-store')
          .send(Readable.from(file.chunks));
      },
    );
    app.get(
      '/api/team/:teamId/security-log-settings',
      {
        schema: { tags, params: Params, response: { 200: SecurityLogSettings, ...errors } },
      },
      async (request) => logs.settings(request.auth, request.params.teamId),
    );
    app.put(
      '/api/team/:teamId/security-log-settings',
      {
        schema: {
          tags,
          params: Params,
          body: SecurityLogSettings,
          response: { 200: SecurityLogSettings, ...errors },
        },
      },
      async (request) => logs.updateSettings(request.auth, request.params.teamId, request.body),
    );
  };
