import {
  ErrorBody,
  IdTokenResponse,
  RecoveryCodesResponse,
  SecondFactorSetupFinish,
  SecondFactorSetupStart,
  TeamAuthPolicy,
  TeamAuthPolicyResponse,
  TeamOverview,
  TeamTransferListQuery,
  TeamTransferListResponse,
  TotpSetupResponse,
} from '@ferry/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../../services/auth.service.js';
import type { TeamAdminService } from '../../services/team-admin.service.js';
import type { TeamPolicyService } from '../../services/team-policy.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const Params = z.object({ teamId: z.string().min(1).max(100) });

/**
 * The team admin overview (/dashboard/admin), the team's transfers (/dashboard/admin/transfers), a team's authentication policy (/dashboard/admin/authentication) and the second-factor set-up of a member
 * whose team requires one (after a password sign-in answered SECOND_FACTOR_SETUP_REQUIRED).
 */
export const teamPolicyRoutes =
  (
    policies: TeamPolicyService,
    auth: AuthService,
    admin: TeamAdminService,
    publicOrigin: () => string,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['team'];
    app.get(
      '/api/team/:teamId/overview',
      { schema: { tags, params: Params, response: { 200: TeamOverview, ...errors } } },
      async (request) => admin.overview(request.auth, request.params.teamId),
    );
    app.get(
      '/api/user/teams/:teamId/transfers',
      {
        schema: {
          tags,
          summary:
            "Every transfer of the team's accounts (keyset pages), for its manager and transfer managers",
          params: Params,
          querystring: TeamTransferListQuery,
          response: { 200: TeamTransferListResponse, ...errors },
        },
      },
      async (request) =>
        admin.transfersOf(request.auth, request.params.teamId, request.query, {
          origin: publicOrigin(),
          ip: request.ip,
        }),
    );
    app.get(
      '/api/team/:teamId/authentication-policy',
      { schema: { tags, params: Params, response: { 200: TeamAuthPolicyResponse, ...errors } } },
      async (request) => policies.get(request.auth, request.params.teamId),
    );
    app.put(
      '/api/team/:teamId/authentication-policy',
      {
        schema: {
          tags,
          params: Params,
          body: TeamAuthPolicy,
          response: { 200: TeamAuthPolicyResponse, ...errors },
        },
      },
      async (request) =>
        policies.put(request.auth, request.params.teamId, request.body, {
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        }),
    );
    app.post(
      '/api/auth/second-factor-setup/start',
      {
        schema: {
          tags: ['auth'],
          body: SecondFactorSetupStart,
          response: { 200: TotpSetupResponse, ...errors },
        },
      },
      async (request) => auth.startRequiredSecondFactor(request.body.setupToken),
    );
    app.post(
      '/api/auth/second-factor-setup/finish',
      {
        schema: {
          tags: ['auth'],
          body: SecondFactorSetupFinish,
          response: { 200: RecoveryCodesResponse.merge(IdTokenResponse), ...errors },
        },
      },
      async (request) => auth.finishRequiredSecondFactor(request.body.setupToken, request.body.code),
    );
  };
