import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Metrics } from '../../observability/metrics.js';
import { constantTimeEqual } from '../../security/secrets.js';
import { AppError } from '../../services/app-error.js';

const ReadyResponse = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.record(z.string(), z.string()),
});

/** Readiness (every peer reachable) and Prometheus metrics behind METRICS_TOKEN, for load balancers and monitoring. */
export const opsRoutes =
  (
    metrics: Metrics,
    readiness: Record<string, () => Promise<void>>,
    metricsToken: string | null,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/ready',
      {
        config: { allowHead: true },
        schema: { tags: ['ops'], response: { 200: ReadyResponse, 503: ReadyResponse } },
      },
      async (request, reply) => {
        const checks: Record<string, string> = {};
        await Promise.all(
          Object.entries(readiness).map(async ([name, check]) => {
            try {
              await withTimeout(check(), 3000);
              checks[name] = 'ok';
            } catch (error) {
              request.log.warn({ err: error, peer: name }, 'readiness check failed');
              checks[name] = 'unreachable';
            }
          }),
        );
        const ready = Object.values(checks).every((c) => c === 'ok');
        return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
      },
    );

    // On the main port only with METRICS_TOKEN; otherwise on its own loopback listener (http/metrics-server.ts).
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!metricsToken)
        throw new AppError(
          'NOT_FOUND',
          'Metrics are served on their own port (METRICS_PORT), or here with METRICS_TOKEN.',
        );
      const given = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!constantTimeEqual(given, metricsToken))
        return reply.status(401).header('WWW-Authenticate', 'Bearer').send();
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  };

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
