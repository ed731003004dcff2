import {
  ErrorBody,
  InvoiceList,
  OperatorInvoice,
  OperatorInvoiceList,
  TaxRate,
  TaxRateQuery,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../lib/content-disposition.js';
import type { InvoiceService } from '../../services/invoice.service.js';
import type { TaxService } from '../../services/tax.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const NumberParams = z.object({ number: z.string().min(1).max(40) });

/** Spec §7 tax-rates, the signed-in account's invoices and their PDFs, and the operators' invoices. */
export const invoiceRoutes =
  (invoices: InvoiceService, taxes: TaxService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/pay/subscriptions/tax-rates',
      {
        schema: {
          tags: ['billing'],
          summary: 'The VAT a buyer of this country (and VAT number) pays: percent, reverse charge (public)',
          querystring: TaxRateQuery,
          response: { 200: TaxRate, 400: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) => taxes.lookup(request.query.countryCode, request.query.vatNumber, request.ip),
    );

    app.get(
      '/api/pay/invoices',
      {
        schema: {
          tags: ['billing'],
          summary: "The paying account's invoices, newest first (a team member needs BILLING)",
          response: { 200: InvoiceList, ...errors },
        },
      },
      async (request) => invoices.listFor(request.auth),
    );

    app.get(
      '/api/pay/invoices/:number/pdf',
      {
        schema: {
          tags: ['billing'],
          summary: 'An invoice as PDF (its paying account with BILLING, or an operator)',
          params: NumberParams,
          produces: ['application/pdf'],
          response: { 200: z.unknown().describe('application/pdf'), ...errors },
        },
      },
      async (request, reply) => {
        const pdf = await invoices.pdf(request.auth, request.params.number);
        return reply
          .type('application/pdf')
          .header('Content-Disposition', contentDisposition(pdf.fileName))
          .header('Cache-Control', 'no-store')
          .send(pdf.body);
      },
    );

    app.get(
      '/api/operator/invoices',
      {
        schema: {
          tags: ['operator'],
          summary: 'Every invoice, newest first; open=true: only those still to be paid (operators only)',
          querystring: z.object({ open: z.enum(['true', 'false']).optional() }),
          response: { 200: OperatorInvoiceList, ...errors },
        },
      },
      async (request) => invoices.operatorList(request.auth, request.query.open === 'true'),
    );

    app.post(
      '/api/operator/invoices/:number/mark-paid',
      {
        schema: {
          tags: ['operator'],
          summary: 'Marks a MANUAL invoice paid (once); its plan or purchase starts (operators only)',
          params: NumberParams,
          response: { 200: OperatorInvoice, ...errors },
        },
      },
      async (request) => invoices.operatorMarkPaid(request.auth, request.params.number),
    );

    app.post(
      '/api/operator/invoices/:number/void',
      {
        schema: {
          tags: ['operator'],
          summary: 'Voids an open invoice (operators only)',
          params: NumberParams,
          response: { 200: OperatorInvoice, ...errors },
        },
      },
      async (request) => invoices.operatorVoid(request.auth, request.params.number),
    );
  };
