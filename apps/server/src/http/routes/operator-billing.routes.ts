import { ErrorBody, OperatorSubscriptionList, OperatorUser, type SetPlanRequest } from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OperatorBillingService } from '../../services/operator-billing.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
const tags = ['operator'];

/** The operators' plan routes (404 to anyone who is not an operator). */
export const operatorBillingRoutes =
  (billing: OperatorBillingService): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      '/api/operator/users/:uid/plan',
      {
        schema: {
          tags,
          params: z.object({ uid: z.string().min(1).max(100) }),
          // Checked by the service after the operator check: to others the route does not exist, whatever is sent.
          body: z.unknown(),
          response: { 200: OperatorUser, ...errors },
        },
      },
      async (request) => billing.setPlan(request.auth, request.params.uid, request.body as SetPlanRequest),
    );
    app.get(
      '/api/operator/subscriptions',
      {
        schema: {
          tags,
          querystring: z.object({ status: z.string().max(30).optional() }),
          response: { 200: OperatorSubscriptionList, ...errors },
        },
      },
      async (request) => billing.listSubscriptions(request.auth, request.query.status ?? null),
    );
  };
