import fastifyCookie from '@fastify/cookie';
import {
  ApiTokenCreated,
  ApiTokenCreateRequest,
  ApiTokenInfo,
  AUTH_REDIRECT_COOKIE_DAYS,
  AuthState,
  ChangePasswordRequest,
  CustomTokenRequest,
  Email,
  ErrorBody,
  ForgotPasswordRequest,
  HasActiveAccountResponse,
  IdTokenResponse,
  ProvidersByEmailResponse,
  RecoveryCodesResponse,
  RegisterRequest,
  RegisterResponse,
  ResetPasswordRequest,
  SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
  SessionCookieQuery,
  SessionCookieResponse,
  SessionInfo,
  SignInRequest,
  SignOutResponse,
  TotpCodeRequest,
  TotpDisableRequest,
  TotpSetupResponse,
  TotpStatus,
  VerifyEmailRequest,
} from '@ferry/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkTokenScope } from '../../services/api-token-scopes.js';
import { AppError } from '../../services/app-error.js';
import type { Authenticated, AuthRequestContext, AuthService } from '../../services/auth.service.js';
import type { HostHandoffService } from '../../services/host-handoff.service.js';
import { AUTH_REDIRECT_COOKIE } from './hosts.routes.js';

export const SESSION_COOKIE = 'ferry_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is signed in (session cookie, or Authorization: Bearer session/API token); null when anonymous. */
    auth: Authenticated | null;
  }
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Resolves `request.auth` for every API request. An explicit bearer credential that does not check out is a
 * 401 (a script should know); a stale cookie just means anonymous, and is cleared.
 */
export async function registerAuthentication(
  app: FastifyInstance,
  auth: AuthService,
  secureCookies: boolean,
  publicUrl: string | null = null,
): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = bearer(request);
    if (token) {
      request.auth = await auth.authenticate(token);
      checkTokenScope(request.auth, request.method, request.routeOptions.url);
      return;
    }
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return;
    // CSRF: a browser sends the session cookie along with requests other sites make it send. A write that
    // rides on the cookie must come from Ferry's own pages (Bearer tokens are never sent that way).
    if (!SAFE_METHODS.has(request.method) && crossSite(request, publicUrl))
      throw new AppError('FORBIDDEN', 'This request came from another site; it was refused.', {
        details: { reason: 'CROSS_SITE_REQUEST' },
      });
    try {
      request.auth = await auth.authenticate(cookie);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      reply.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
      });
    }
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request was made by a page of another site: by Fetch Metadata where the browser sends it, else by
 * its Origin (`null` from a sandboxed or referrer-less page counts as another site). Requests with neither
 * come from programs, not from a browser a page could steer.
 */
export function crossSite(request: FastifyRequest, publicUrl: string | null): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  if (origin === 'null') return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  if (host === request.host) return false;
  return !publicUrl || host !== new URL(publicUrl).host;
}

export const authRoutes =
  (
    auth: AuthService,
    publicOrigin: () => string,
    secureCookies: boolean,
    publicUrl: string | null = null,
    /** The cross-domain hand-off (spec §4): accounts and teams served at their own host. */
    handoffs: HostHandoffService | null = null,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = (r: FastifyRequest): AuthRequestContext => ({
      ip: r.ip,
      userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : undefined,
      origin: publicOrigin(),
    });
    const setCookie = (reply: FastifyReply, value: string, maxAgeSeconds: number) =>
      reply.setCookie(SESSION_COOKIE, value, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        maxAge: maxAgeSeconds,
      });
    const signedIn = (r: FastifyRequest): Authenticated => {
      if (!r.auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
      return r.auth;
    };
    const tags = ['auth'];

    app.post(
      '/api/auth/register',
      { schema: { tags, body: RegisterRequest, response: { 202: RegisterResponse, ...errors } } },
      async (request, reply) => reply.status(202).send(await auth.register(request.body, ctx(request))),
    );
    app.post(
      '/api/auth/verify-email',
      { schema: { tags, body: VerifyEmailRequest, response: { 200: IdTokenResponse, ...errors } } },
      async (request) => auth.verifyEmail(request.body.token, ctx(request)),
    );
    app.post(
      '/api/auth/signin',
      { schema: { tags, body: SignInRequest, response: { 200: IdTokenResponse, ...errors } } },
      async (request) => auth.signIn(request.body, ctx(request)),
    );
    app.post(
      '/api/auth/password/forgot',
      { schema: { tags, body: ForgotPasswordRequest, response: { 202: z.object({}), ...errors } } },
      async (request, reply) => {
        await auth.forgotPassword(request.body, ctx(request));
        return reply.status(202).send({});
      },
    );
    app.post(
      '/api/auth/password/reset',
      { schema: { tags, body: ResetPasswordRequest, response: { 200: IdTokenResponse, ...errors } } },
      async (request) => auth.resetPassword(request.body, ctx(request)),
    );

    app.post(
      '/api/auth/password/change',
      {
        schema: {
          tags,
          summary: 'Changes the password; every other session of the account ends',
          body: ChangePasswordRequest,
          response: { 200: SignOutResponse, ...errors, 409: ErrorBody },
        },
      },
      async (request) => auth.changePassword(signedIn(request), request.body, ctx(request)),
    );

    app.get(
      '/api/auth/auth/session-cookie',
      {
        schema: {
          tags,
          summary: 'Trades an id token (header id-token) for a session (spec §7)',
          querystring: SessionCookieQuery,
          headers: z.object({ 'id-token': z.string().max(4000).optional() }),
          response: { 200: SessionCookieResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { maxAgeSeconds, ...session } = await auth.sessionCookie(
          request.headers['id-token'],
          request.query,
          ctx(request),
        );
        setCookie(reply, session.sessionCookie, maxAgeSeconds);
        // A browser tells where it is (currentDomain): one whose account or team is served at another host is
        // sent there with a one-time custom token; staying signed in, this host remembers that home for 90 days.
        if (!request.query.currentDomain || !handoffs) return session;
        const redirect = await handoffs.redirectFor(
          await auth.authenticate(session.sessionCookie),
          request.servedHost,
          request.query.expiresInMinutes,
        );
        if (!redirect) return session;
        if (request.query.expiresInMinutes >= SESSION_COOKIE_STAY_SIGNED_IN_MINUTES)
          reply.setCookie(AUTH_REDIRECT_COOKIE, redirect.redirectDomain, {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: secureCookies,
            maxAge: AUTH_REDIRECT_COOKIE_DAYS * 86_400,
          });
        return { ...session, ...redirect };
      },
    );
    app.post(
      '/api/auth/auth/custom-token',
      {
        schema: {
          tags,
          summary: 'Trades a one-time custom token (60 s, for this host only) for a session here (spec §4)',
          body: CustomTokenRequest,
          response: { 200: SessionCookieResponse, ...errors },
        },
      },
      async (request, reply) => {
        if (!handoffs) throw new AppError('VALIDATION_FAILED', 'No hand-off on this server.');
        const { maxAgeSeconds, ...session } = await handoffs.redeem(
          request.body.customToken,
          request.servedHost,
          ctx(request),
          request.body.deviceId,
        );
        setCookie(reply, session.sessionCookie, maxAgeSeconds);
        return session;
      },
    );
    app.get(
      '/api/auth/auth/set-session',
      {
        schema: {
          tags,
          summary: 'Sets the session cookie from a session token handed over from another domain (spec §7)',
          querystring: z.object({ expiresTimestamp: z.coerce.number().int().optional() }),
          headers: z.object({ 'session-token': z.string().max(4000).optional() }),
          response: { 200: SessionCookieResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { maxAgeSeconds, ...session } = await auth
          .setSession(request.headers['session-token'])
          .catch((error: unknown) => {
            // The spec's client accepts 200 or 400 here.
            if (error instanceof AppError && error.code === 'INVALID_TOKEN')
              throw new AppError('VALIDATION_FAILED', error.message);
            throw error;
          });
        setCookie(reply, session.sessionCookie, maxAgeSeconds);
        return session;
      },
    );
    app.get(
      '/api/auth/auth/sign-out',
      {
        schema: {
          tags,
          summary: 'Ends this session, or every session of the user with revokeAllSessions=true (spec §7)',
          querystring: z.object({
            deviceId: z.string().max(100).optional(),
            revokeAllSessions: z.enum(['true', 'false']).optional(),
          }),
          response: { 200: SignOutResponse, ...errors },
        },
      },
      async (request, reply) => {
        const revokeAllSessions = request.query.revokeAllSessions === 'true';
        // A GET, so a link on another site could sign its visitor out everywhere (the cookie rides along).
        if (revokeAllSessions && crossSite(request, publicUrl))
          throw new AppError('FORBIDDEN', 'This request came from another site; it was refused.', {
            details: { reason: 'CROSS_SITE_REQUEST' },
          });
        const result = await auth.signOut(request.auth, { revokeAllSessions }, ctx(request));
        // This host's session only (another host's session of the same sign-in stays); its remembered home goes.
        for (const name of [SESSION_COOKIE, AUTH_REDIRECT_COOKIE])
          reply.clearCookie(name, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies });
        return result;
      },
    );
    app.get(
      '/api/auth/auth/id-token',
      { schema: { tags, response: { 200: IdTokenResponse, ...errors } } },
      async (request) => auth.idTokenFor(request.auth),
    );
    app.get(
      '/api/auth/me',
      { schema: { tags, summary: 'The auth state of spec §3', response: { 200: AuthState } } },
      async (request) => auth.state(request.auth),
    );

    app.get(
      '/api/auth/sessions',
      { schema: { tags, response: { 200: z.array(SessionInfo), ...errors } } },
      async (request) => auth.sessions(signedIn(request)),
    );
    app.delete(
      '/api/auth/sessions/:id',
      {
        schema: {
          tags,
          params: z.object({ id: z.string().max(100) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await auth.revokeSession(signedIn(request), request.params.id, ctx(request));
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/api/auth/tokens',
      { schema: { tags, response: { 200: z.array(ApiTokenInfo), ...errors } } },
      async (request) => auth.tokens(signedIn(request)),
    );
    app.post(
      '/api/auth/tokens',
      { schema: { tags, body: ApiTokenCreateRequest, response: { 201: ApiTokenCreated, ...errors } } },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await auth.createToken(signedIn(request), request.body.name, request.body.scopes, request.ip),
          ),
    );
    app.delete(
      '/api/auth/tokens/:id',
      {
        schema: {
          tags,
          params: z.object({ id: z.string().max(100) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await auth.revokeToken(signedIn(request), request.params.id, request.ip);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/auth/totp',
      { schema: { tags, response: { 200: TotpStatus, ...errors } } },
      async (request) => auth.totpStatus(signedIn(request)),
    );
    app.post(
      '/api/auth/totp/setup',
      { schema: { tags, response: { 200: TotpSetupResponse, ...errors, 409: ErrorBody } } },
      async (request) => auth.setupTotp(signedIn(request)),
    );
    app.post(
      '/api/auth/totp/enable',
      {
        schema: {
          tags,
          body: TotpCodeRequest,
          response: { 200: RecoveryCodesResponse, ...errors, 409: ErrorBody },
        },
      },
      async (request) => auth.enableTotp(signedIn(request), request.body.code, ctx(request)),
    );
    app.post(
      '/api/auth/totp/recovery-codes',
      {
        schema: {
          tags,
          body: TotpCodeRequest,
          response: { 200: RecoveryCodesResponse, ...errors, 409: ErrorBody },
        },
      },
      async (request) => auth.newRecoveryCodes(signedIn(request), request.body.code),
    );
    app.post(
      '/api/auth/totp/disable',
      { schema: { tags, body: TotpDisableRequest, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await auth.disableTotp(signedIn(request), request.body.password, ctx(request));
        return reply.status(204).send(null);
      },
    );

    const EmailParams = z.object({ email: Email });
    app.get(
      '/api/user/auth/has-active-account/:email',
      { schema: { tags, params: EmailParams, response: { 200: HasActiveAccountResponse, ...errors } } },
      async (request) => ({
        hasActiveAccount: await auth.hasActiveAccount(request.params.email, ctx(request)),
      }),
    );
    app.get(
      '/api/auth/providers/users/:email/by-email',
      { schema: { tags, params: EmailParams, response: { 200: ProvidersByEmailResponse, ...errors } } },
      async (request) => ({ providers: await auth.providersByEmail(request.params.email, ctx(request)) }),
    );
  };
