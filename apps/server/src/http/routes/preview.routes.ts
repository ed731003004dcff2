import { ErrorBody, ThumbnailLinksQuery, ThumbnailLinksRequest, ThumbnailLinksResponse } from '@ferry/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../services/app-error.js';
import type { DownloadContext } from '../../services/download.service.js';
import type { PreviewService } from '../../services/preview.service.js';
import { parseRange } from '../http-range.js';
import { errorBody } from '../plugins/errors.plugin.js';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  402: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  410: ErrorBody,
  429: ErrorBody,
};

/**
 * What a rendition may do in a browser: nothing. Opened on its own it is a sandboxed document (unique origin, no
 * script) that may show only itself; it is never HTML (images, MP4, text/plain), and never sniffed as such.
 */
export const RENDITION_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

export const previewRoutes =
  (
    previews: PreviewService,
    originOf: (host: string, protocol: string) => string,
    /** Renditions are served on PREVIEW_ORIGIN, for Ferry's pages to load from there. */
    separateOrigin = false,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: FastifyRequest): DownloadContext => ({
      ip: r.ip,
      userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : undefined,
      origin: originOf(r.host, r.protocol),
      viewerId: r.auth?.user.id ?? null,
    });

    app.post(
      '/api/transfer/downloads/thumbnail-links',
      {
        schema: {
          tags: ['downloads'],
          querystring: ThumbnailLinksQuery,
          body: ThumbnailLinksRequest,
          response: { 200: ThumbnailLinksResponse, ...errors },
        },
      },
      async (request) => previews.thumbnailLinks(request.query, request.body, ctx(request)),
    );

    app.get(
      '/api/transfer/downloads/renditions/:token',
      {
        config: { allowHead: true },
        schema: { tags: ['downloads'], params: z.object({ token: z.string().max(2000) }) },
      },
      async (request, reply) => {
        const body = await previews.rendition(request.params.token);
        reply
          .header('Content-Type', body.contentType)
          .header('Content-Disposition', 'inline')
          .header('Content-Security-Policy', RENDITION_CSP)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Accept-Ranges', 'bytes')
          .header('ETag', body.etag)
          .header('Cache-Control', 'private, max-age=300, no-transform');
        // The URL is the capability (no cookie is sent or read): the app's pages may load it from their origin.
        if (separateOrigin)
          reply
            .header('Cross-Origin-Resource-Policy', 'cross-origin')
            .header('Access-Control-Allow-Origin', '*');
        const range = parseRange(request.headers.range, body.size);
        if (range === 'unsatisfiable')
          return reply
            .status(416)
            .header('Content-Range', `bytes */${body.size}`)
            .header('Content-Type', 'application/json')
            .send(errorBody(new AppError('RANGE_NOT_SATISFIABLE', `The preview has ${body.size} bytes.`)));
        if (range) {
          reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${body.size}`);
          reply.header('Content-Length', String(range.end - range.start + 1));
        } else reply.header('Content-Length', String(body.size));
        if (request.method === 'HEAD' || body.size === 0) return reply.send();
        return reply.send(await body.open(range ?? undefined));
      },
    );
  };
