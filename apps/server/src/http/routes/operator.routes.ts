import {
  ErrorBody,
  InstanceFigures,
  OperatorActionList,
  OperatorMe,
  OperatorUser,
  OperatorUserList,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OperatorService } from '../../services/operator.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
// Any uid passes here: the service answers 404 to a non-operator before it looks at one (no 400 to tell the route exists).
const UserParams = z.object({ uid: z.string() });
const tags = ['operator'];

/** The operator console's API (docs/api.md "Operator console"); to anyone but an operator, 404. */
export const operatorRoutes =
  (operators: OperatorService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/operator/me',
      { schema: { tags, response: { 200: OperatorMe, ...errors } } },
      async (request) => operators.me(request.auth),
    );
    app.get(
      '/api/operator/users',
      // The query is read by the service, after the operator check: a non-operator learns nothing, not even a 400.
      { schema: { tags, response: { 200: OperatorUserList, ...errors } } },
      async (request) => operators.users(request.auth, request.query),
    );
    app.get(
      '/api/operator/users/:uid',
      { schema: { tags, params: UserParams, response: { 200: OperatorUser, ...errors } } },
      async (request) => operators.user(request.auth, request.params.uid),
    );
    app.post(
      '/api/operator/users/:uid/suspend',
      { schema: { tags, params: UserParams, response: { 200: OperatorUser, ...errors } } },
      async (request) => operators.suspend(request.auth, request.params.uid),
    );
    app.post(
      '/api/operator/users/:uid/unsuspend',
      { schema: { tags, params: UserParams, response: { 200: OperatorUser, ...errors } } },
      async (request) => operators.unsuspend(request.auth, request.params.uid),
    );
    app.get(
      '/api/operator/figures',
      { schema: { tags, response: { 200: InstanceFigures, ...errors } } },
      async (request) => operators.figures(request.auth),
    );
    app.get(
      '/api/operator/actions',
      { schema: { tags, response: { 200: OperatorActionList, ...errors } } },
      async (request) => operators.actions(request.auth, request.query),
    );
  };
