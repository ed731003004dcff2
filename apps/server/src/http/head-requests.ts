import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This GET under /api is also meant to answer HEAD (a blob's size and validators, a health probe). */
    allowHead?: boolean;
    /** Set by {@link refuseApiHead} on the HEAD twin Fastify makes of every other GET under /api. */
    refusedHead?: boolean;
  }
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/');

/**
 * Fastify answers HEAD with the GET handler, so a HEAD would do whatever the GET does: mark a recipient's link
 * opened, count a download, sign out, take an id token for a session, finish a sign-in. Link checkers and mail
 * scanners send HEADs freely. One rule instead of a patch per route: under /api, HEAD answers 405 (Allow: GET)
 * before any other hook or the handler runs, except on GETs that declare `config: { allowHead: true }`; routes
 * that register HEAD themselves (tus) are theirs to answer. Must be called before any route is registered.
 */
export function refuseApiHead(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // Fastify's own HEAD twin of a GET is a copy of the GET's options with method HEAD; tus lists its methods.
    if (route.method !== 'HEAD' || !isApi(route.url) || route.config?.allowHead) return;
    route.config = { ...route.config, refusedHead: true };
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'HEAD' && request.routeOptions.config?.refusedHead)
      return reply.status(405).header('Allow', 'GET').send();
  });
}
