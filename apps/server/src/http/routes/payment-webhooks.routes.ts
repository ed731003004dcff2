import { ErrorBody } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CardProviderName, ProviderWebhooks } from '../../payments/provider-events.js';

/** Providers' events are small; anything larger is not theirs. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const Received = z.object({ received: z.literal(true), replay: z.boolean() });
const errors = { 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 500: ErrorBody };

/**
 * POST /api/pay/webhooks/stripe and /api/pay/webhooks/paypal. The body is kept raw (a Buffer) for the signature:
 * this plugin's own content-type parser takes any type, in this plugin's routes only. 200 once processed (or a
 * replay of a processed event), 400 on a missing or wrong signature, 500 when handling failed (the provider
 * retries).
 */
export const paymentWebhookRoutes =
  (webhooks: ProviderWebhooks): FastifyPluginAsyncZod =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    const route = (path: string, provider: CardProviderName) =>
      app.post(
        path,
        {
          bodyLimit: WEBHOOK_BODY_LIMIT,
          schema: {
            tags: ['pay'],
            summary: `${provider} webhook (signed)`,
            response: { 200: Received, ...errors },
          },
        },
        async (request) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const outcome = await webhooks.receive(provider, raw, request.headers);
          return { received: true as const, replay: outcome === 'replay' };
        },
      );
    route('/api/pay/webhooks/stripe', 'STRIPE');
    route('/api/pay/webhooks/paypal', 'PAYPAL');
  };
