import {
  ContactMessageRequest,
  ContactMessageResponse,
  EnterpriseContactRequest,
  EnterpriseContactResponse,
  ErrorBody,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SalesService } from '../../services/sales.service.js';

/** The contact forms of the marketing pages (/register/enterprise, /contact). */
export const salesRoutes =
  (sales: SalesService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/sales/enterprise-contact',
      {
        schema: {
          tags: ['sales'],
          summary: 'The enterprise contact form: kept and mailed to the sales team (SALES_EMAIL)',
          body: EnterpriseContactRequest,
          response: { 201: EnterpriseContactResponse, 400: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await sales.enterpriseContact(request.body, request.ip)),
    );
    app.post(
      '/api/sales/contact',
      {
        schema: {
          tags: ['sales'],
          summary: 'The general contact form (/contact): kept and mailed to SUPPORT_EMAIL (else SALES_EMAIL)',
          body: ContactMessageRequest,
          response: { 201: ContactMessageResponse, 400: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => reply.status(201).send(await sales.contactMessage(request.body, request.ip)),
    );
  };
