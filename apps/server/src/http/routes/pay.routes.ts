import {
  BillingCustomer,
  ChangeSubscriptionRequest,
  ChangeSubscriptionResponse,
  CurrentSubscription,
  ErrorBody,
  PaymentInfos,
  PlanCatalogue,
  StartSubscriptionRequest,
  StartSubscriptionResponse,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SubscriptionService } from '../../services/subscription.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const Id = z.object({ id: z.string().min(1).max(100) });
const Manager = z.object({ managerId: z.string().min(1).max(100) });
const tags = ['pay'];

/** Spec §7 /pay/*: the catalogue, subscriptions, the billing customer and its payment infos. */
export const payRoutes =
  (subscriptions: SubscriptionService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/pay/plans', { schema: { tags, response: { 200: PlanCatalogue } } }, async () =>
      subscriptions.catalogueOf(),
    );
    app.post(
      '/api/pay/subscriptions',
      {
        schema: {
          tags,
          body: StartSubscriptionRequest,
          response: { 201: StartSubscriptionResponse, ...errors },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return subscriptions.start(request.auth, request.body);
      },
    );
    app.get(
      '/api/pay/subscriptions/current',
      { schema: { tags, response: { 200: CurrentSubscription, ...errors } } },
      async (request) => subscriptions.current(request.auth),
    );
    app.patch(
      '/api/pay/subscriptions/:id',
      {
        schema: {
          tags,
          params: Id,
          body: ChangeSubscriptionRequest,
          response: { 200: ChangeSubscriptionResponse, ...errors },
        },
      },
      async (request) => subscriptions.change(request.auth, request.params.id, request.body),
    );
    app.post(
      '/api/pay/subscriptions/:id/cancel',
      { schema: { tags, params: Id, response: { 200: CurrentSubscription, ...errors } } },
      async (request) => subscriptions.cancel(request.auth, request.params.id),
    );
    app.post(
      '/api/pay/subscriptions/:id/resume',
      { schema: { tags, params: Id, response: { 200: CurrentSubscription, ...errors } } },
      async (request) => subscriptions.resume(request.auth, request.params.id),
    );
    app.get(
      '/api/pay/customers/:managerId',
      { schema: { tags, params: Manager, response: { 200: BillingCustomer, ...errors } } },
      async (request) => subscriptions.customer(request.auth, request.params.managerId),
    );
    app.get(
      '/api/pay/customers/:managerId/payment-infos',
      { schema: { tags, params: Manager, response: { 200: PaymentInfos, ...errors } } },
      async (request) => subscriptions.paymentInfos(request.auth, request.params.managerId),
    );
  };
