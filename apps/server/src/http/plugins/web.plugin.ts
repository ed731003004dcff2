import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { isWebRoute } from '@ferry/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../services/app-error.js';
import type { LinkPreviewService } from '../../services/link-preview.service.js';
import { SCREENSHOTS_DIR } from '../../site/assets.js';
import { downloadPageId } from '../../site/link-preview-head.js';
import type { PublicSite } from '../../site/public-site.js';
import type { Visit } from '../../site/render.js';
import { SESSION_COOKIE } from '../routes/auth.routes.js';
import { errorBody } from './errors.plugin.js';
import { type CspSources, contentSecurityPolicy } from './security-headers.plugin.js';

export interface WebOptions {
  webDist: string;
  site: PublicSite;
  /** PUBLIC_URL's host: the main domain, where the "made in" banner shows. Null: every host is the main one. */
  mainHost: string | null;
  csp: CspSources;
  /** What a download page's link preview may say (its head is read by chat apps and social sites). */
  linkPreviews?: Pick<LinkPreviewService, 'preview'>;
  /** On the main host, the origin of the home host the auth-redirect cookie remembers (if still verified). */
  homeOf?: (request: FastifyRequest) => Promise<string | null>;
}

/** Pages are drawn from a few variants (path × language × banner), so their compressed copies are kept. */
const compressed = new Map<string, Buffer>();
const COMPRESSED_KEPT = 2000;

/** A text answer compressed as the client accepts (brotli first, then gzip), with `Vary: Accept-Encoding`. */
function sendText(
  request: FastifyRequest,
  reply: FastifyReply,
  html: string,
  type = 'text/html; charset=utf-8',
  vary = 'Accept-Encoding, Accept-Language, Cookie',
): FastifyReply {
  reply.header('Vary', vary).type(type);
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  if (!encoding) return reply.send(html);
  const key = `${encoding}|${createHash('sha256').update(html).digest('base64')}`;
  let body = compressed.get(key);
  if (!body) {
    body =
      encoding === 'br'
        ? zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } })
        : zlib.gzipSync(html, { level: 6 });
    if (compressed.size >= COMPRESSED_KEPT) compressed.delete(compressed.keys().next().value!);
    compressed.set(key, body);
  }
  return reply.header('Content-Encoding', encoding).send(body);
}

/**
 * Serves the public site and the built web app:
 * - the site's pages (core SITE_PAGES, in every language) as complete HTML rendered on the server, with
 *   sitemap.xml, robots.txt and the site's script, styles and guide screenshots under /site/;
 * - the web app: hashed assets cached for a year, each file as the `.br` or `.gz` copy the build made beside it
 *   when the client accepts that encoding, and index.html (with the page's language and head lines, the
 *   consent widget and the site script added) for every other GET outside /api so the client-side router can
 *   draw the page — with 200 for the app's routes (core's WEB_ROUTES) and 404 for any other path, where the app
 *   shows its not-found page.
 */
export async function registerWeb(app: FastifyInstance, options: WebOptions): Promise<void> {
  const { webDist, site, mainHost } = options;
  const index = path.join(webDist, 'index.html');
  const hasWeb = existsSync(index);
  const siteCsp = contentSecurityPolicy(options.csp).replace(
    "style-src 'self'",
    `style-src 'self' '${site.files.styleHash}'`,
  );
  const visitOf = (request: FastifyRequest): Visit => ({
    signedIn: Boolean(request.cookies?.[SESSION_COOKIE]),
    mainDomain:
      !request.servedHost &&
      (mainHost === null || request.hostname.split(':')[0]!.toLowerCase() === mainHost),
    ownHost: request.servedHost !== null,
    consentChosen: /^(all|necessary)$/.test(request.cookies?.ferry_consent ?? ''),
  });
  const text = (request: FastifyRequest, reply: FastifyReply, type: string, body: string, cache: string) =>
    sendText(request, reply.header('Cache-Control', cache), body, type, 'Accept-Encoding');

  app.get('/sitemap.xml', (request, reply) =>
    text(request, reply, 'application/xml; charset=utf-8', site.sitemap(), 'public, max-age=3600'),
  );
  app.get('/robots.txt', (request, reply) =>
    text(request, reply, 'text/plain; charset=utf-8', site.robots(), 'public, max-age=3600'),
  );
  app.get(site.files.scriptPath, (request, reply) =>
    text(
      request,
      reply,
      'text/javascript; charset=utf-8',
      site.files.script,
      'public, max-age=31536000, immutable',
    ),
  );
  app.get(site.files.consentCssPath, (request, reply) =>
    text(
      request,
      reply,
      'text/css; charset=utf-8',
      site.files.consentCss,
      'public, max-age=31536000, immutable',
    ),
  );
  // The default link-preview image: under its hash for a year; under its plain name (which site pages name) a day.
  for (const [imagePath, cache] of [
    [site.files.ogImagePath, 'public, max-age=31536000, immutable'],
    ['/site/og-image.png', 'public, max-age=86400'],
  ] as const)
    app.get(imagePath, (_request, reply) =>
      reply.header('Cache-Control', cache).type('image/png').send(site.files.ogImage),
    );
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: new URL(SCREENSHOTS_DIR).pathname,
      prefix: '/site/screenshots/',
      decorateReply: false,
      setHeaders(res) {
        res.header('Cache-Control', 'public, max-age=86400');
      },
    });
  });

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true, // files are looked up per request, so a rebuilt web app is served without a restart
      index: false,
      // The build writes `<file>.br` and `<file>.gz` (apps/web/build/precompress.ts): one is sent when the
      // client accepts it (brotli first), with `Vary: Accept-Encoding`; else the file itself.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(
      { webDist },
      'the web app is not built (npm run build); only the API and the site are served',
    );
  }
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0]!;
    const readable = request.method === 'GET' || request.method === 'HEAD';
    if (readable && !pathname.startsWith('/api/')) {
      // An account's or team's own host shows no marketing: its paths are the app's.
      const page = request.servedHost ? null : site.page(pathname, visitOf(request));
      if (page !== null) {
        reply.status(200).header('Cache-Control', 'no-cache').header('Content-Security-Policy', siteCsp);
        return sendText(request, reply, page);
      }
      if (hasWeb) {
        // Read per request, like the app's other files, so a rebuilt app is served without a restart.
        const transferId = options.linkPreviews ? downloadPageId(pathname) : null;
        const homeOrigin = (await options.homeOf?.(request)) ?? null;
        const html = site.appShell(
          await readFile(index, 'utf8'),
          pathname,
          request.headers['accept-language'],
          { ...visitOf(request), homeOrigin },
          transferId && options.linkPreviews
            ? { transferId, preview: await options.linkPreviews.preview(transferId) }
            : undefined,
        );
        reply.status(isWebRoute(pathname) ? 200 : 404).header('Cache-Control', 'no-cache');
        return sendText(request, reply, html);
      }
    }
    return reply
      .status(404)
      .send(errorBody(new AppError('NOT_FOUND', `No route ${request.method} ${pathname}.`)));
  };
  // The web root is a folder of the build: answered here, not by the static files (which list no folder).
  app.get('/', serve);
  app.setNotFoundHandler(serve);
}
