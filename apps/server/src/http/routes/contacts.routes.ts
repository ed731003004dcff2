import {
  CONTACT_IMPORT_FORMATS,
  Contact,
  ContactCreate,
  ContactExportQuery,
  ContactGroupCreate,
  ContactGroupDetail,
  ContactGroupListQuery,
  ContactGroupListResponse,
  ContactGroupMembersAdd,
  ContactGroupUpdate,
  type ContactImportFormat,
  ContactImportRequest,
  ContactImportResult,
  ContactListQuery,
  ContactListResponse,
  ContactUpdate,
  ErrorBody,
} from '@ferry/core';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../lib/content-disposition.js';
import { AppError } from '../../services/app-error.js';
import type { ContactsService } from '../../services/contacts.service.js';
import { errorBody, toAppError } from '../plugins/errors.plugin.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['contacts'];
/** Ids are checked by the service (a malformed one is just not found, as another account's). */
const ContactParams = z.object({ contactId: z.string().max(100) });
const GroupParams = z.object({ groupId: z.string().max(100) });

/** Media types of a raw import body, and the format each one means (text/plain: detected from the text). */
const RAW_TYPES: Record<string, ContactImportFormat | undefined> = {
  'text/csv': 'csv',
  'text/vcard': 'vcard',
  'text/x-vcard': 'vcard',
  'text/directory': 'vcard',
};
/** Room for a 2 MB file once JSON-escaped. */
const IMPORT_BODY_LIMIT = 8 * 1024 * 1024;

/** The address book and contact groups (docs/api.md "Address book"): signed in, session or API token. */
export const contactsRoutes =
  (contacts: ContactsService): FastifyPluginAsyncZod =>
  async (app) => {
    // The import also takes the file itself as its body (this plugin's routes only).
    app.addContentTypeParser(
      Object.keys(RAW_TYPES),
      { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    app.get(
      '/api/user/contacts',
      {
        schema: {
          tags,
          summary: 'The address book, searched and paged (autocomplete: sort=recent&q=…)',
          querystring: ContactListQuery,
          response: { 200: ContactListResponse, ...errors },
        },
      },
      async (request) => contacts.list(request.auth, request.query),
    );
    app.post(
      '/api/user/contacts',
      { schema: { tags, body: ContactCreate, response: { 201: Contact, ...errors } } },
      async (request, reply) => reply.status(201).send(await contacts.create(request.auth, request.body)),
    );
    app.post(
      '/api/user/contacts/import',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Import a CSV or vCard file (JSON { content }, or the file as text/csv or text/vcard)',
          querystring: z.object({
            format: z.enum(CONTACT_IMPORT_FORMATS).optional(),
            groupId: z.string().max(100).optional(),
          }),
          body: z.union([ContactImportRequest, z.string()]),
          response: { 200: ContactImportResult, ...errors, 413: ErrorBody },
        },
        errorHandler: (error: FastifyError, request, reply) => {
          // Fastify's own refusal of a body over the limit, in the spec §8 shape with its own code.
          const body = errorBody(
            error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? new AppError('PAYLOAD_TOO_LARGE', 'The file is too large.')
              : toAppError(error),
          );
          if (body.status >= 500) request.log.error({ err: error }, 'request failed');
          return reply.status(body.status).type('application/json').send(body);
        },
      },
      async (request) => {
        const { body, query } = request;
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        return contacts.import(
          request.auth,
          typeof body === 'string'
            ? { content: body, format: query.format ?? RAW_TYPES[type], groupId: query.groupId }
            : { ...body, groupId: body.groupId ?? query.groupId },
        );
      },
    );
    app.get(
      '/api/user/contacts/export',
      {
        schema: {
          tags,
          summary: 'The address book (or a group) as a CSV or vCard file',
          querystring: ContactExportQuery,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const file = await contacts.export(request.auth, request.query);
        return reply
          .type(file.contentType)
          .header('Content-Disposition', contentDisposition(file.fileName))
          .header('Cache-Control', 'no-store')
          .send(file.body);
      },
    );
    app.get(
      '/api/user/contacts/:contactId',
      { schema: { tags, params: ContactParams, response: { 200: Contact, ...errors } } },
      async (request) => contacts.get(request.auth, request.params.contactId),
    );
    app.patch(
      '/api/user/contacts/:contactId',
      { schema: { tags, params: ContactParams, body: ContactUpdate, response: { 200: Contact, ...errors } } },
      async (request) => contacts.update(request.auth, request.params.contactId, request.body),
    );
    app.delete(
      '/api/user/contacts/:contactId',
      { schema: { tags, params: ContactParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await contacts.remove(request.auth, request.params.contactId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/user/contact-groups',
      {
        schema: {
          tags,
          querystring: ContactGroupListQuery,
          response: { 200: ContactGroupListResponse, ...errors },
        },
      },
      async (request) => contacts.groups(request.auth, request.query),
    );
    app.post(
      '/api/user/contact-groups',
      { schema: { tags, body: ContactGroupCreate, response: { 201: ContactGroupDetail, ...errors } } },
      async (request, reply) =>
        reply.status(201).send(await contacts.createGroup(request.auth, request.body)),
    );
    app.get(
      '/api/user/contact-groups/:groupId',
      { schema: { tags, params: GroupParams, response: { 200: ContactGroupDetail, ...errors } } },
      async (request) => contacts.group(request.auth, request.params.groupId),
    );
    app.patch(
      '/api/user/contact-groups/:groupId',
      {
        schema: {
          tags,
          params: GroupParams,
          body: ContactGroupUpdate,
          response: { 200: ContactGroupDetail, ...errors },
        },
      },
      async (request) => contacts.renameGroup(request.auth, request.params.groupId, request.body),
    );
    app.delete(
      '/api/user/contact-groups/:groupId',
      { schema: { tags, params: GroupParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await contacts.removeGroup(request.auth, request.params.groupId);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/user/contact-groups/:groupId/members',
      {
        schema: {
          tags,
          params: GroupParams,
          body: ContactGroupMembersAdd,
          response: { 200: ContactGroupDetail, ...errors },
        },
      },
      async (request) => contacts.addMembers(request.auth, request.params.groupId, request.body),
    );
    app.delete(
      '/api/user/contact-groups/:groupId/members/:contactId',
      {
        schema: {
          tags,
          params: GroupParams.extend(ContactParams.shape),
          response: { 200: ContactGroupDetail, ...errors },
        },
      },
      async (request) =>
        contacts.removeMember(request.auth, request.params.groupId, request.params.contactId),
    );
  };
