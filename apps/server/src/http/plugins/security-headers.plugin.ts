import type { FastifyInstance } from 'fastify';

const BASE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'", // WebAssembly SHA-256 in the upload worker; no JS eval
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** Origins a configured provider's script needs besides 'self' (Stripe.js: its script, frames and API). */
export interface CspSources {
  script: string[];
  frame: string[];
  connect: string[];
  /** Where images and media come from besides 'self' (PREVIEW_ORIGIN: thumbnails and previews). */
  media?: string[];
}

export function contentSecurityPolicy(extra: CspSources = { script: [], frame: [], connect: [] }): string {
  const add = (directive: string, sources: string[]) =>
    sources.length ? `${directive} ${sources.join(' ')}` : directive;
  const media = extra.media ?? [];
  const policy = BASE_CSP.map((d) =>
    d.startsWith('script-src ')
      ? add(d, extra.script)
      : d.startsWith('connect-src ')
        ? add(d, [...extra.connect, ...media])
        : d.startsWith('img-src ')
          ? add(d, media)
          : d,
  );
  if (media.length) policy.push(`media-src 'self' ${media.join(' ')}`);
  if (extra.frame.length) policy.push(`frame-src ${extra.frame.join(' ')}`);
  return policy.join('; ');
}

/** The upload widget's page: the one page other sites may frame (docs/api.md "Widgets"). */
const WIDGET_PAGE = /^\/widgets\/[^/?#]+\/?(?:[?#]|$)/;

/** Strict headers on every answer; the API docs page brings its own CSP. */
export function registerSecurityHeaders(app: FastifyInstance, https: boolean, extra?: CspSources): void {
  const CSP = contentSecurityPolicy(extra);
  const WIDGET_CSP = CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');
  app.addHook('onSend', async (request, reply) => {
    const widgetPage = WIDGET_PAGE.test(request.url);
    // The embed script is loaded by other sites' pages, the widget page framed by them.
    const embeddable = widgetPage || request.url.split('?')[0] === '/widget.js';
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (!widgetPage) reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    // A route that is meant to be loaded by another origin (renditions on PREVIEW_ORIGIN) says so itself.
    if (!reply.hasHeader('Cross-Origin-Resource-Policy'))
      reply.header('Cross-Origin-Resource-Policy', embeddable ? 'cross-origin' : 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (!request.url.startsWith('/api/docs') && !reply.hasHeader('Content-Security-Policy')) {
      reply.header('Content-Security-Policy', widgetPage ? WIDGET_CSP : CSP);
    }
  });
}
