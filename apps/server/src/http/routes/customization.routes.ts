import {
  ErrorBody,
  OwnerCustomization,
  Theme,
  ThemeAsset,
  ThemeAssetUploadQuery,
  ThemeUpdate,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CustomizationService } from '../../services/customization.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['customization'];
const Params = z.object({ id: z.string().min(1).max(100) });

/**
 * An asset is served as an image or video only: never sniffed, never run as a document (a sandbox without
 * scripts), and loadable by mail clients and framed widgets of other origins. Its id changes on every upload,
 * so the bytes of one address never change.
 */
const ASSET_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Cache-Control': 'public, max-age=31536000, immutable',
};

/** Spec §3 Theme: the host's theme, the owner's customization, its images and video (docs/api.md "Customization"). */
export const customizationRoutes =
  (themes: CustomizationService): FastifyPluginAsyncZod =>
  async (app) => {
    // An asset upload is the file itself as the body, of any declared type: it is read as a stream and checked
    // by its content, never by its Content-Type. Only this plugin's routes take raw bodies.
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));

    app.get(
      '/api/theme',
      { schema: { tags, summary: "The theme of the host's owner (spec §3)", response: { 200: Theme } } },
      async (request) => themes.themeFor(request.hostname, request.auth),
    );
    app.get(
      '/api/theme/assets/:assetId',
      { schema: { tags, params: z.object({ assetId: z.string().max(64) }) } },
      async (request, reply) => {
        const asset = await themes.assetBody(request.params.assetId);
        reply.headers({
          ...ASSET_HEADERS,
          'Content-Type': asset.contentType,
          'Content-Length': String(asset.size),
        });
        return reply.send(await asset.open());
      },
    );
    app.get(
      '/api/user/users/:id/customization',
      { schema: { tags, params: Params, response: { 200: OwnerCustomization, ...errors } } },
      async (request) => themes.ownerCustomization(request.auth, request.params.id),
    );
    app.put(
      '/api/user/users/:id/customization',
      { schema: { tags, params: Params, body: ThemeUpdate, response: { 200: Theme, ...errors } } },
      async (request) => themes.update(request.auth, request.params.id, request.body),
    );
    app.post(
      '/api/user/users/:id/customization/assets',
      {
        schema: {
          tags,
          summary: 'Upload a logo, wallpaper, mail header image (re-encoded) or background video (MP4/WebM)',
          params: Params,
          querystring: ThemeAssetUploadQuery,
          response: { 201: ThemeAsset, ...errors, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        // A refused body may still be arriving: the connection is not kept for another request.
        reply.header('Connection', 'close');
        const asset = await themes.uploadAsset(
          request.auth,
          request.params.id,
          request.query.kind,
          request.raw,
        );
        reply.removeHeader('Connection');
        return reply.status(201).send(asset);
      },
    );
    app.delete(
      '/api/user/users/:id/customization/assets/:assetId',
      {
        schema: {
          tags,
          params: Params.extend({ assetId: z.string().max(64) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await themes.deleteAsset(request.auth, request.params.id, request.params.assetId);
        return reply.status(204).send(null);
      },
    );
  };
