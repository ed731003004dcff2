import { CurrentHost, CustomDomainAddRequest, CustomDomainView, DomainsView, ErrorBody } from '@ferry/core';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainsService } from '../../services/domains.service.js';
import type { HostDirectory, HostOwner } from '../../services/host-ports.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The verified host (an owner's subdomain or custom domain) this request came to, found in Ferry's table of
     * hosts; null for the main host and for any host the table does not know, which are served as the main one.
     * `request.hostname` follows X-Forwarded-Host only from TRUST_PROXY's proxies.
     */
    servedHost: HostOwner | null;
  }
}

/** The auth-redirect domain cookie (spec §4, §9): the home host of a user who stays signed in, kept 90 days. */
export const AUTH_REDIRECT_COOKIE = 'ferry_auth_domain';

/** Matches every request's host against the directory, once, before anything else reads it. */
export function registerServedHost(app: FastifyInstance, hosts: HostDirectory): void {
  app.decorateRequest('servedHost', null);
  app.addHook('onRequest', async (request) => {
    request.servedHost = await hosts.ownerOf(request.hostname);
  });
}

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};
const tags = ['hosts'];
const UidParams = z.object({ id: z.string().min(1).max(100) });
const DomainParams = UidParams.extend({ domain: z.string().min(1).max(260) });

export const hostsRoutes =
  (
    domains: DomainsService,
    hosts: HostDirectory,
    originOf: (host: string) => string,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/hosts/current',
      { schema: { tags, summary: 'The host this request came to (public)', response: { 200: CurrentHost } } },
      async (request) => {
        const served = request.servedHost;
        const remembered = served ? null : request.cookies[AUTH_REDIRECT_COOKIE];
        const home = remembered ? await hosts.ownerOf(remembered) : null;
        return {
          main: served === null,
          host: served?.host ?? null,
          ownerId: served?.ownerId ?? null,
          authRedirect: home ? originOf(home.host) : null,
        };
      },
    );
    app.get(
      '/api/hosts/tls-ask',
      {
        schema: {
          tags,
          summary: "The reverse proxy's on-demand TLS check: 200 for a verified host, else 404",
          querystring: z.object({ domain: z.string().min(1).max(260) }),
          response: { 200: z.object({ domain: z.string() }), ...errors },
        },
      },
      async (request, reply) => {
        if (await domains.tlsAsk(request.query.domain, request.ip)) return { domain: request.query.domain };
        return reply.status(404).send({ status: 404, error: 'NOT_FOUND', message: 'Not a verified host.' });
      },
    );

    app.get(
      '/api/user/users/:id/domains',
      { schema: { tags, params: UidParams, response: { 200: DomainsView, ...errors } } },
      async (request) => domains.list(request.auth, request.params.id),
    );
    app.put(
      '/api/user/users/:id/domains/subdomain',
      {
        schema: {
          tags,
          summary: 'Claims the subdomain {name}.BASE_DOMAIN (replacing the one claimed before)',
          params: UidParams,
          body: z.object({ name: z.string().max(253) }),
          response: { 200: DomainsView, ...errors },
        },
      },
      async (request) => domains.claimSubdomain(request.auth, request.params.id, request.body.name),
    );
    app.delete(
      '/api/user/users/:id/domains/subdomain',
      { schema: { tags, params: UidParams, response: { 200: DomainsView, ...errors } } },
      async (request) => domains.claimSubdomain(request.auth, request.params.id, null),
    );
    app.post(
      '/api/user/users/:id/domains',
      {
        schema: {
          tags,
          params: UidParams,
          body: CustomDomainAddRequest,
          response: { 201: CustomDomainView, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await domains.add(request.auth, request.params.id, request.body.domain)),
    );
    app.post(
      '/api/user/users/:id/domains/:domain/verify',
      { schema: { tags, params: DomainParams, response: { 200: CustomDomainView, ...errors } } },
      async (request) => domains.verify(request.auth, request.params.id, request.params.domain),
    );
    app.delete(
      '/api/user/users/:id/domains/:domain',
      { schema: { tags, params: DomainParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await domains.remove(request.auth, request.params.id, request.params.domain);
        return reply.status(204).send(null);
      },
    );
  };
