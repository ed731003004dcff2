import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { isWebRoute } from '@ferry/core';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../services/app-error.js';
import { errorBody } from './errors.plugin.js';

/**
 * Serves the built web app: hashed assets cached for a year, each file as the `.br` or `.gz` copy the build
 * made beside it when the client accepts that encoding, and index.html for every other GET outside /api so
 * the client-side router can draw the page — with 200 for the app's routes (core's WEB_ROUTES) and 404 for
 * any other path, where the app shows its not-found page.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  const hasWeb = existsSync(index);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true, // files are looked up per request, so a rebuilt web app is served without a restart
      index: ['index.html'],
      // The build writes `<file>.br` and `<file>.gz` (apps/web/build/precompress.ts): one is sent when the
      // client accepts it (brotli first), with `Vary: Accept-Encoding`; else the file itself.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDist }, 'the web app is not built (npm run build); only the API is served');
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (hasWeb && (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/')) {
      return reply
        .status(isWebRoute(pathname) ? 200 : 404)
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html');
    }
    return reply
      .status(404)
      .send(errorBody(new AppError('NOT_FOUND', `No route ${request.method} ${pathname}.`)));
  });
}
