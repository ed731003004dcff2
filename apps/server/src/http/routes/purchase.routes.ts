import { ErrorBody, PurchaseState, StartPurchaseRequest, StartPurchaseResponse } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PurchaseService } from '../../services/purchase.service.js';

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody };

/** Buying a priced transfer (selling files, spec §3 price and currency): public, like the download page. */
export const purchaseRoutes =
  (purchases: PurchaseService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/pay/purchases',
      {
        schema: {
          tags: ['pay'],
          summary: 'Start paying for a priced transfer: the price, its VAT and the card payment to confirm',
          body: StartPurchaseRequest,
          response: { 201: StartPurchaseResponse, 402: ErrorBody, ...errors },
        },
      },
      async (request, reply) => {
        const language = request.headers['accept-language']?.split(',')[0]?.split(';')[0]?.trim();
        const locale = language && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language) ? language : null;
        return reply.status(201).send(await purchases.start(request.body, { ip: request.ip, locale }));
      },
    );
    app.get(
      '/api/pay/purchases/:purchaseId',
      {
        schema: {
          tags: ['pay'],
          summary: 'Where a purchase stands; once paid, the purchase token that unlocks the transfer',
          params: z.object({ purchaseId: z.string().max(64) }),
          response: { 200: PurchaseState, ...errors },
        },
      },
      async (request) => purchases.state(request.params.purchaseId),
    );
  };
