import { HealthResponse } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes =
  (version: string): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      { config: { allowHead: true }, schema: { tags: ['ops'], response: { 200: HealthResponse } } },
      async () => ({
        status: 'ok' as const,
        version,
      }),
    );
  };
