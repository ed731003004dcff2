import type { ChosenPlan } from '@ferry/core';
import * as client from 'openid-client';
import type { Logger } from 'pino';
import { constantTimeEqual, Signer } from '../security/secrets.js';
import type { ExternalIdentity, IdentityRefusal } from '../services/auth.service.js';
import { AppleClientSecret } from './apple.js';
import type { OidcProviderConfig } from './oidc-config.js';

/** The codes a failed sign-in ends on, as /signin?error=<code> (docs/api.md lists them for the web app). */
export type OidcErrorCode =
  | 'state_mismatch'
  | 'cancelled'
  | 'provider_error'
  | 'provider_unavailable'
  | 'invalid_response'
  | IdentityRefusal;

export class OidcError extends Error {
  constructor(
    readonly code: OidcErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OidcError';
  }
}

/** What the browser keeps (signed, HttpOnly cookie) between the start and the provider's answer. */
interface Transaction {
  provider: string;
  state: string;
  nonce: string;
  pkceVerifier: string;
  /** The exact redirect_uri sent, sent again to redeem the code. */
  redirectUri: string;
  next: string;
  staySignedIn: boolean;
  deviceId: string | null;
  /** The plan picked on /register before going to the provider (absent in transactions of older versions). */
  plan?: ChosenPlan | null;
  /** Epoch ms. */
  expiresAt: number;
}

/** How long a sign-in may take at the provider. */
export const TRANSACTION_SECONDS = 600;
/** Provider metadata is discovered on first use and again a day later; a failed discovery is retried after 15 s. */
const METADATA_TTL_MS = 24 * 3600_000;
const RETRY_AFTER_FAILURE_MS = 15_000;

const truthy = (value: unknown) => value === true || value === 'true';
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * Sign-in with OpenID Connect providers (authorization code + PKCE + state + nonce, openid-client): builds
 * the provider URL, then checks the provider's answer and says who signed in. Who that is in Ferry is
 * AuthService.userForIdentity's business. Nothing is kept on the server between the two steps: the state,
 * nonce and PKCE verifier travel in a signed cookie, so any instance can take the answer.
 */
export class OidcSignIn {
  private readonly providers: Map<string, OidcProviderConfig>;
  private readonly signer: Signer;
  private readonly discovered = new Map<string, { config: Promise<client.Configuration>; until: number }>();
  private readonly appleSecrets = new Map<string, AppleClientSecret>();

  constructor(
    providers: readonly OidcProviderConfig[],
    transactionKey: string,
    private readonly timeoutSeconds: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.providers = new Map(providers.map((p) => [p.name, p]));
    this.signer = new Signer(transactionKey);
    for (const p of providers)
      if (p.appleKey) this.appleSecrets.set(p.name, new AppleClientSecret(p.appleKey, p.clientId));
  }

  /** The providers for the sign-in page, in configuration order. */
  list(): Array<{ name: string; label: string }> {
    return [...this.providers.values()].map((p) => ({ name: p.name, label: p.label }));
  }

  has(name: string): boolean {
    return this.providers.has(name);
  }

  /** Whether the provider posts its answer back (cross-site POST: the cookie then needs SameSite=None). */
  postsBack(name: string): boolean {
    return this.providers.get(name)?.responseMode === 'form_post';
  }

  /** The provider's authorization URL, and the transaction the browser keeps until the answer. */
  async start(
    name: string,
    options: {
      redirectUri: string;
      next: string;
      staySignedIn: boolean;
      deviceId: string | null;
      plan: ChosenPlan | null;
    },
  ): Promise<{ url: string; transaction: string }> {
    const provider = this.provider(name);
    const config = await this.configuration(provider);
    const tx: Transaction = {
      provider: name,
      state: client.randomState(),
      nonce: client.randomNonce(),
      pkceVerifier: client.randomPKCECodeVerifier(),
      ...options,
      expiresAt: this.now() + TRANSACTION_SECONDS * 1000,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: tx.redirectUri,
      scope: provider.scopes.join(' '),
      state: tx.state,
      nonce: tx.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(tx.pkceVerifier),
      code_challenge_method: 'S256',
      ...(provider.responseMode === 'form_post' ? { response_mode: 'form_post' } : {}),
    });
    return { url: url.href, transaction: this.signer.sign(tx) };
  }

  /**
   * Checks the provider's answer (query or form fields) against the browser's transaction, redeems the code
   * (PKCE verifier, nonce and ID token checked by openid-client) and says who signed in.
   */
  async finish(
    name: string,
    transaction: string | undefined,
    params: URLSearchParams,
  ): Promise<{
    identity: ExternalIdentity;
    next: string;
    staySignedIn: boolean;
    deviceId: string | null;
    plan: ChosenPlan | null;
  }> {
    const provider = this.provider(name);
    const tx = transaction ? this.signer.verify<Transaction>(transaction) : null;
    if (!tx || tx.provider !== name || tx.expiresAt < this.now())
      throw new OidcError('state_mismatch', 'no sign-in in progress in this browser (or it expired)');
    const state = params.get('state');
    if (!state || !constantTimeEqual(state, tx.state))
      throw new OidcError('state_mismatch', 'the answer is for another sign-in');
    const config = await this.configuration(provider);
    const answer = new URL(tx.redirectUri);
    for (const [key, value] of params) if (key !== 'user') answer.searchParams.append(key, value);
    try {
      const tokens = await client.authorizationCodeGrant(config, answer, {
        pkceCodeVerifier: tx.pkceVerifier,
        expectedState: tx.state,
        expectedNonce: tx.nonce,
        idTokenExpected: true,
      });
      let claims: Record<string, unknown> = { ...tokens.claims()! };
      // Some providers put the e-mail in the ID token only when asked by the claims parameter.
      if (!claims.email && config.serverMetadata().userinfo_endpoint)
        claims = {
          ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))),
          ...claims,
        };
      return {
        identity: this.identity(provider, claims, params.get('user')),
        next: tx.next,
        staySignedIn: tx.staySignedIn,
        deviceId: tx.deviceId,
        plan: tx.plan ?? null,
      };
    } catch (error) {
      throw failure(error);
    }
  }

  private identity(
    provider: OidcProviderConfig,
    claims: Record<string, unknown>,
    appleUser: string | null,
  ): ExternalIdentity {
    // Microsoft (Entra ID) never sends email_verified; its optional claim xms_edov says the tenant proved the
    // e-mail's domain.
    const emailVerified =
      truthy(claims.email_verified) ||
      (provider.type === 'microsoft' && claims.email_verified === undefined && truthy(claims.xms_edov));
    return {
      provider: provider.name,
      subject: String(claims.sub),
      email: text(claims.email),
      emailVerified,
      firstname: text(claims.given_name) ?? text(claims.name) ?? appleFirstName(appleUser),
      locale: text(claims.locale),
    };
  }

  private provider(name: string): OidcProviderConfig {
    const provider = this.providers.get(name);
    if (!provider) throw new Error(`unknown OIDC provider ${name}`);
    return provider;
  }

  /** The provider's configuration, discovered on first use (never at start-up: a provider may be down). */
  private configuration(provider: OidcProviderConfig): Promise<client.Configuration> {
    const cached = this.discovered.get(provider.name);
    if (cached && cached.until > this.now()) return cached.config;
    const entry = { config: this.discover(provider), until: this.now() + METADATA_TTL_MS };
    this.discovered.set(provider.name, entry);
    entry.config.catch((error: unknown) => {
      entry.until = this.now() + RETRY_AFTER_FAILURE_MS;
      this.logger.warn({ err: error, provider: provider.name }, 'OIDC discovery failed');
    });
    return entry.config;
  }

  private async discover(provider: OidcProviderConfig): Promise<client.Configuration> {
    const issuer = new URL(provider.issuer);
    try {
      return await client.discovery(issuer, provider.clientId, undefined, this.clientAuth(provider), {
        timeout: this.timeoutSeconds,
        // Only loopback issuers may be http (config.ts), for tests.
        execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      });
    } catch (error) {
      throw new OidcError('provider_unavailable', `discovery of ${provider.issuer} failed`, { cause: error });
    }
  }

  /** client_secret_basic (the default of RFC 8414) unless the provider takes post only; none without a secret. */
  private clientAuth(provider: OidcProviderConfig): client.ClientAuth {
    const apple = this.appleSecrets.get(provider.name);
    if (apple)
      return async (as, c, body, headers) =>
        client.ClientSecretPost(await apple.value())(as, c, body, headers);
    const secret = provider.clientSecret;
    if (!secret) return client.None();
    return (as, c, body, headers) => {
      const supported = as.token_endpoint_auth_methods_supported;
      const method =
        provider.tokenEndpointAuthMethod ??
        (!supported || supported.includes('client_secret_basic')
          ? 'client_secret_basic'
          : 'client_secret_post');
      const auth = method === 'client_secret_basic' ? client.ClientSecretBasic : client.ClientSecretPost;
      return auth(secret)(as, c, body, headers);
    };
  }
}

/** The first name Apple posts (field `user`, JSON) the first time someone signs in to this app. */
function appleFirstName(user: string | null): string | null {
  if (!user || user.length > 4000) return null;
  try {
    return text((JSON.parse(user) as { name?: { firstName?: unknown } }).name?.firstName);
  } catch {
    return null;
  }
}

/** What a failed code redemption means for the person signing in. */
function failure(error: unknown): OidcError {
  if (error instanceof OidcError) return error;
  if (error instanceof client.AuthorizationResponseError)
    return new OidcError(
      error.error === 'access_denied' ? 'cancelled' : 'provider_error',
      `the provider answered ${error.error}`,
      { cause: error },
    );
  if (error instanceof client.ResponseBodyError)
    return new OidcError('provider_error', `the token endpoint answered ${error.error}`, { cause: error });
  const code = (error as { code?: unknown }).code;
  if (
    (error instanceof TypeError && error.message === 'fetch failed') ||
    code === 'OAUTH_TIMEOUT' ||
    code === 'OAUTH_ABORT' ||
    code === 'OAUTH_RESPONSE_IS_NOT_CONFORM'
  )
    return new OidcError('provider_unavailable', 'the provider did not answer', { cause: error });
  return new OidcError('invalid_response', 'the provider answer did not check out', { cause: error });
}
