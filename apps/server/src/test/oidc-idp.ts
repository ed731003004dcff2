import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** The claims a test account signs in with (besides `sub`, its id). */
export interface IdpAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  locale?: string;
}

export interface TestIdp {
  issuer: string;
  /** The accounts, by id (= `sub`). */
  accounts: Map<string, IdpAccount>;
  /** Who the next login interaction signs in as; null: the person cancels (access_denied). */
  nextLogin: string | null;
  /** Registers the relying party (Ferry), once its address is known. */
  register(client: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a loopback port, PKCE required. Its login and consent
 * interactions are answered at once for `nextLogin`, so a test drives the whole flow with plain HTTP.
 * `claimsInIdToken: false` keeps the e-mail out of the ID token (the userinfo endpoint has it).
 */
export async function startTestIdp(options: { claimsInIdToken?: boolean } = {}): Promise<TestIdp> {
  let provider: Provider | null = null;
  const server = createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) return void interact(provider, req, res).catch(fail(res));
    return void provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };

  const idp: TestIdp = {
    issuer,
    accounts: new Map(),
    nextLogin: null,
    async register(client) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.clientId,
            client_secret: client.clientSecret,
            redirect_uris: client.redirectUris,
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ['test-idp-cookie-key-0123456789abcdef'] },
        pkce: { required: () => true },
        conformIdTokenClaims: !(options.claimsInIdToken ?? true),
        claims: { email: ['email', 'email_verified'], profile: ['given_name', 'locale'] },
        features: { devInteractions: { enabled: false } },
        interactions: {
          url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
        },
        findAccount: (_ctx: unknown, id: string) => {
          const account = idp.accounts.get(id);
          return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
        },
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /** Logs `nextLogin` in (or cancels), then consents to whatever the client asked. */
  async function interact(p: Provider, req: IncomingMessage, res: ServerResponse) {
    const details = await p.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const result = idp.nextLogin
        ? { login: { accountId: idp.nextLogin } }
        : { error: 'access_denied', error_description: 'cancelled by the test' };
      return p.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    const grant = new p.Grant({
      accountId: details.session!.accountId,
      clientId: details.params.client_id as string,
    });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    return p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  return idp;
}

function fail(res: ServerResponse) {
  return (error: unknown) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  };
}
