import {
  CheckPasswordRequest,
  CheckPasswordResponse,
  DownloadInfo,
  DownloadLinkQuery,
  DownloadLinkResponse,
  ErrorBody,
  TransferRef,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../lib/content-disposition.js';
import type { Metrics } from '../../observability/metrics.js';
import { AppError } from '../../services/app-error.js';
import type { DownloadContext, DownloadService } from '../../services/download.service.js';
import { parseRange } from '../http-range.js';
import { errorBody } from '../plugins/errors.plugin.js';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  410: ErrorBody,
  429: ErrorBody,
};

export const downloadRoutes =
  (
    downloads: DownloadService,
    originOf: (host: string, protocol: string) => string,
    metrics: Metrics,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: {
      ip: string;
      headers: Record<string, unknown>;
      host: string;
      protocol: string;
      auth?: { user: { id: string } } | null;
    }): DownloadContext => ({
      ip: r.ip,
      userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : undefined,
      origin: originOf(r.host, r.protocol),
      viewerId: r.auth?.user.id ?? null,
    });

    app.get(
      '/api/transfer/downloads/info',
      {
        schema: {
          tags: ['downloads'],
          querystring: z.object({
            transferId: TransferRef,
            password: z.string().max(256).optional(),
            userSecret: z.string().max(200).optional(),
            purchaseToken: z.string().max(300).optional(),
          }),
          response: { 200: DownloadInfo, ...errors },
        },
      },
      async (request) => downloads.info(request.query, ctx(request)),
    );

    app.get(
      '/api/transfer/downloads/link',
      {
        // A HEAD here answers 405 and counts nothing (http/head-requests.ts).
        schema: {
          tags: ['downloads'],
          querystring: DownloadLinkQuery,
          response: { 200: DownloadLinkResponse, ...errors },
        },
      },
      async (request) => downloads.link(request.query, ctx(request)),
    );

    app.post(
      '/api/transfer/downloads/check-password',
      {
        schema: {
          tags: ['downloads'],
          body: CheckPasswordRequest,
          response: { 200: CheckPasswordResponse, ...errors },
        },
      },
      async (request) => {
        await downloads.checkPassword(request.body, ctx(request));
        return { ok: true as const };
      },
    );

    app.get(
      '/api/transfer/downloads/blob/:token',
      // HEAD gives the size and validators without the bytes, and counts nothing (no download is recorded here).
      {
        config: { allowHead: true },
        schema: { tags: ['downloads'], params: z.object({ token: z.string().max(2000) }) },
      },
      async (request, reply) => {
        const body = await downloads.body(request.params.token);
        const redirect = request.method === 'GET' ? await body.redirect() : null;
        if (redirect)
          return reply.status(302).header('Cache-Control', 'no-store').header('Location', redirect).send();
        const range = parseRange(request.headers.range, body.size);
        reply
          .header('Content-Type', body.contentType)
          .header('Content-Disposition', contentDisposition(body.fileName))
          .header('Accept-Ranges', 'bytes')
          .header('ETag', body.etag)
          .header('Last-Modified', body.lastModified.toUTCString())
          .header('Cache-Control', 'private, no-transform')
          .header('Content-Security-Policy', "default-src 'none'; sandbox");
        if (range === 'unsatisfiable') {
          return reply
            .status(416)
            .header('Content-Range', `bytes */${body.size}`)
            .header('Content-Type', 'application/json')
            .header('Content-Disposition', 'inline')
            .send(errorBody(new AppError('RANGE_NOT_SATISFIABLE', `The file has ${body.size} bytes.`)));
        }
        const ifRange = request.headers['if-range'];
        const useRange = range && (!ifRange || ifRange === body.etag) ? range : undefined;
        if (useRange) {
          reply.status(206).header('Content-Range', `bytes ${useRange.start}-${useRange.end}/${body.size}`);
          reply.header('Content-Length', String(useRange.end - useRange.start + 1));
        } else {
          reply.header('Content-Length', String(body.size));
        }
        if (request.method === 'HEAD' || body.size === 0) return reply.send();
        // Count the bytes as they flow, from the moment Fastify pipes the body (listening earlier would start the
        // stream before anyone reads it), and the download as streaming until its response closes (sent or not).
        reply.raw.once('pipe', (source) => {
          metrics.streamStarted('download');
          reply.raw.once('close', () => metrics.streamEnded('download'));
          source.on('data', (chunk: Buffer) => metrics.downloadBytes.inc(chunk.length));
        });
        return reply.send(await body.open(useRange));
      },
    );
  };
