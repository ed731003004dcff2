import { ChosenPlan, ErrorBody } from '@ferry/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../http/routes/auth.routes.js';
import { AppError } from '../services/app-error.js';
import type { AuthRequestContext, AuthService } from '../services/auth.service.js';
import { OidcError, type OidcSignIn, TRANSACTION_SECONDS } from './oidc.js';

/** The signed sign-in transaction (state, nonce, PKCE verifier), only ever sent to the OIDC routes. */
export const OIDC_COOKIE = 'ferry_oidc';
const OIDC_COOKIE_PATH = '/api/auth/oidc/';

export const OidcProviderInfo = z.object({ name: z.string(), label: z.string() });
const Params = z.object({ name: z.string().max(100) });
const StartQuery = z.object({
  next: z.string().optional(),
  staySignedIn: z.string().optional(),
  deviceId: z.string().optional(),
  // The plan picked on /register (spec §2): a wrong or repeated value means no plan, never a failed sign-in.
  plan: z.string().optional().catch(undefined),
  frequency: z.string().optional().catch(undefined),
  trial: z.string().optional().catch(undefined),
});
const CallbackFields = z.record(z.string(), z.string());

/** The plan of the start query (`plan=PREMIUM&frequency=ANNUAL&trial=true`); null when absent or invalid. */
export function chosenPlanOf(
  query: Partial<Record<'plan' | 'frequency' | 'trial', string>>,
): ChosenPlan | null {
  if (!query.plan) return null;
  const trial = query.trial === 'true' ? true : query.trial === 'false' ? false : query.trial;
  const parsed = ChosenPlan.safeParse({ type: query.plan, frequency: query.frequency, trial });
  return parsed.success ? parsed.data : null;
}

/**
 * Where to land after signing in: a path on this origin only (`/dashboard?x=1`), else `/` — an absolute or
 * scheme-relative URL (`//evil.example`, `/\evil.example`) would make the sign-in an open redirect.
 */
export function sameOriginPath(next: string | undefined): string {
  if (!next || next.length > 2000 || !next.startsWith('/')) return '/';
  // Browsers read "\\" as "/" and drop tabs and newlines: "/\\evil.example" and "/\t/evil.example" leave the site.
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return '/';
  const base = 'http://ferry.invalid';
  try {
    const url = new URL(next, base);
    if (url.origin !== base) return '/';
    // Judged as the browser will read the path given back: "/.//evil" resolves to "//evil", which a redirect
    // would send to another host.
    const path = `${url.pathname}${url.search}${url.hash}`;
    return new URL(path, base).origin === base ? path : '/';
  } catch {
    return '/';
  }
}

/**
 * GET /api/auth/oidc/providers, GET /api/auth/oidc/{name}/start and GET|POST /api/auth/oidc/{name}/callback:
 * the browser is sent to the provider and back, then signed in with the `ferry_session` cookie, exactly as
 * session-cookie does, and sent on to `next`. Failures land on /signin?error=<code>.
 */
export const oidcRoutes =
  (
    oidc: OidcSignIn,
    auth: AuthService,
    originOf: (host: string, protocol: string) => string,
    secureCookies: boolean,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    // Apple posts its answer as a form; only these routes take form bodies.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const ctx = (r: FastifyRequest): AuthRequestContext => ({
      ip: r.ip,
      userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : undefined,
      origin: originOf(r.host, r.protocol),
    });
    const known = (name: string) => {
      if (!oidc.has(name)) throw new AppError('NOT_FOUND', 'No such sign-in provider.');
      return name;
    };
    const transactionCookie = (name: string) => ({
      path: OIDC_COOKIE_PATH,
      httpOnly: true,
      secure: secureCookies,
      // A provider that posts back makes a cross-site POST, which only carries SameSite=None cookies.
      sameSite: oidc.postsBack(name) ? ('none' as const) : ('lax' as const),
    });
    const failed = (reply: FastifyReply, error: OidcError, name: string) => {
      // What the person did (cancelled, an old tab, an unverified address) is routine; a provider failing is not.
      const provider = ['provider_error', 'provider_unavailable', 'invalid_response'].includes(error.code);
      app.log[provider ? 'warn' : 'info'](
        { provider: name, code: error.code, err: error.cause, reason: error.message },
        'OIDC sign-in failed',
      );
      return reply.redirect(`/signin?error=${error.code}`, 302);
    };

    /** The provider's answer: a session and on to `next`, or /signin?error=<code>. */
    const callback = async (request: FastifyRequest, reply: FastifyReply, name: string, fields: object) => {
      const transaction = request.cookies[OIDC_COOKIE];
      reply.clearCookie(OIDC_COOKIE, transactionCookie(name)); // one answer per transaction
      try {
        const done = await oidc.finish(
          name,
          transaction,
          new URLSearchParams(fields as Record<string, string>),
        );
        const session = await auth.signInWithIdentity(done.identity, ctx(request), done, request.auth);
        if ('refused' in session) throw new OidcError(session.refused, `refused: ${session.refused}`);
        reply.setCookie(SESSION_COOKIE, session.sessionCookie, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookies,
          maxAge: session.maxAgeSeconds,
        });
        return reply.redirect(sameOriginPath(done.next), 302);
      } catch (error) {
        if (error instanceof OidcError) return failed(reply, error, name);
        throw error;
      }
    };

    const tags = ['auth'];
    app.get(
      '/api/auth/oidc/providers',
      {
        schema: {
          tags,
          summary: 'The OpenID Connect providers to offer on the sign-in page',
          response: { 200: z.array(OidcProviderInfo) },
        },
      },
      async () => oidc.list(),
    );
    app.get(
      '/api/auth/oidc/:name/start',
      {
        schema: {
          tags,
          summary:
            'Sends the browser to the provider (302); next = a path on this site to land on, plan/frequency/trial = the plan picked on /register',
          params: Params,
          querystring: StartQuery,
          response: { 404: ErrorBody },
        },
      },
      async (request, reply) => {
        const name = known(request.params.name);
        const { next, staySignedIn, deviceId, ...plan } = request.query;
        const started = await oidc
          .start(name, {
            redirectUri: `${ctx(request).origin}/api/auth/oidc/${name}/callback`,
            next: sameOriginPath(next),
            staySignedIn: staySignedIn === 'true',
            deviceId: deviceId && z.string().uuid().safeParse(deviceId).success ? deviceId : null,
            plan: chosenPlanOf(plan),
          })
          .catch((error: unknown) => (error instanceof OidcError ? error : Promise.reject(error)));
        if (started instanceof OidcError) return failed(reply, started, name);
        reply.setCookie(OIDC_COOKIE, started.transaction, {
          ...transactionCookie(name),
          maxAge: TRANSACTION_SECONDS,
        });
        return reply.redirect(started.url, 302);
      },
    );
    const callbackSchema = { tags, params: Params, response: { 404: ErrorBody } };
    app.get(
      '/api/auth/oidc/:name/callback',
      { schema: { ...callbackSchema, summary: "The provider's answer (302)", querystring: CallbackFields } },
      async (request, reply) => callback(request, reply, known(request.params.name), request.query),
    );
    app.post(
      '/api/auth/oidc/:name/callback',
      { schema: { ...callbackSchema, summary: "The provider's answer as a form post (Apple)" } },
      async (request, reply) => {
        const fields = CallbackFields.safeParse(request.body ?? {});
        return callback(request, reply, known(request.params.name), fields.success ? fields.data : {});
      },
    );
  };
