import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';

/** Providers with known settings; `oidc` is any other OpenID Connect issuer. */
export const OIDC_PROVIDER_TYPES = ['google', 'microsoft', 'apple', 'oidc'] as const;
export type OidcProviderType = (typeof OIDC_PROVIDER_TYPES)[number];

/** One sign-in provider of OIDC_PROVIDERS, with the shortcuts filled in. */
export interface OidcProviderConfig {
  /** The key in OIDC_PROVIDERS: in the URLs (/api/auth/oidc/{name}/…) and the session's sign_in_provider. */
  name: string;
  type: OidcProviderType;
  /** Shown on the sign-in page. */
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Apple's client secret is a short JWT signed with this key (ES256), made when needed. */
  appleKey: { teamId: string; keyId: string; privateKey: string } | null;
  scopes: string[];
  /** `form_post`: the provider POSTs its answer back to the callback (Apple, when asking for e-mail or name). */
  responseMode: 'query' | 'form_post';
  /** How the client secret is sent to the token endpoint; null: basic unless the provider only takes post. */
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | null;
}

const KNOWN: Record<Exclude<OidcProviderType, 'oidc'>, { label: string; scopes: string[] }> = {
  google: { label: 'Google', scopes: ['openid', 'email', 'profile'] },
  microsoft: { label: 'Microsoft', scopes: ['openid', 'email', 'profile'] },
  apple: { label: 'Apple', scopes: ['openid', 'email', 'name'] },
};
/** Values `sign_in_provider` already has for other ways of signing in. */
const RESERVED_NAMES = new Set(['password', 'api_token']);
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const text = z.string().trim().min(1).max(2000);
const Entry = z.strictObject({
  type: z.enum(OIDC_PROVIDER_TYPES).optional(),
  issuer: z.string().url().optional(),
  clientId: text,
  clientSecret: text.optional(),
  label: z.string().trim().min(1).max(60).optional(),
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'not a scope'))
    .max(20)
    .optional(),
  tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post']).optional(),
  /** microsoft: the Entra tenant (id or domain), or common, organizations, consumers. */
  tenant: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,100}$/, 'a tenant id or domain')
    .optional(),
  /** apple: the team id, the key's id, and the key itself (PEM; "\n" for line breaks on one line). */
  teamId: text.optional(),
  keyId: text.optional(),
  privateKey: text.optional(),
});
type Entry = z.infer<typeof Entry>;

const typeOf = (name: string, entry: Entry): OidcProviderType =>
  entry.type ?? (name in KNOWN ? (name as OidcProviderType) : 'oidc');

/** The problems of one entry, worded for the operator. */
function problems(name: string, entry: Entry): Array<{ path: string[]; message: string }> {
  const out: Array<{ path: string[]; message: string }> = [];
  const add = (field: string, message: string) => out.push({ path: [name, field], message });
  const type = typeOf(name, entry);
  if (!/^[a-z0-9][a-z0-9_-]{0,31}$/.test(name))
    out.push({ path: [name], message: 'name it with lowercase letters, digits, "-" and "_" (up to 32)' });
  if (RESERVED_NAMES.has(name)) out.push({ path: [name], message: `"${name}" is reserved` });
  if (type === 'oidc') {
    if (!entry.issuer)
      add('issuer', 'is required (the issuer URL, e.g. https://sso.example.com/realms/main)');
  } else if (entry.issuer) add('issuer', `is fixed for ${type}; remove it`);
  if (entry.issuer) {
    const url = new URL(entry.issuer);
    if (url.search || url.hash) add('issuer', 'must not have a query or a fragment');
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
      add('issuer', 'must be https (http only on a loopback address, for tests)');
  }
  if (entry.tenant && type !== 'microsoft') add('tenant', 'is for microsoft only');
  if (entry.scopes && !entry.scopes.includes('openid')) add('scopes', 'must include "openid"');
  if (type === 'apple') {
    for (const field of ['teamId', 'keyId', 'privateKey'] as const)
      if (!entry[field]) add(field, 'is required for apple (Apple signs in with a key, not a secret)');
    if (entry.clientSecret) add('clientSecret', 'is built from privateKey for apple; remove it');
    if (entry.privateKey && !isP256Key(pem(entry.privateKey)))
      add('privateKey', 'must be the PEM of the P-256 key (.p8) Apple gave');
  } else {
    for (const field of ['teamId', 'keyId', 'privateKey'] as const)
      if (entry[field]) add(field, 'is for apple only');
    if ((type === 'google' || type === 'microsoft') && !entry.clientSecret)
      add('clientSecret', `is required for ${type}`);
  }
  return out;
}

function isP256Key(value: string): boolean {
  try {
    const key = createPrivateKey(value);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** A PEM given on one line (environment files) with literal "\n" between its lines. */
function pem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

function resolve(name: string, entry: Entry): OidcProviderConfig {
  const type = typeOf(name, entry);
  const known = type === 'oidc' ? null : KNOWN[type];
  const issuer =
    type === 'google'
      ? 'https://accounts.google.com'
      : type === 'microsoft'
        ? `https://login.microsoftonline.com/${entry.tenant ?? 'common'}/v2.0`
        : type === 'apple'
          ? 'https://appleid.apple.com'
          : entry.issuer!;
  return {
    name,
    type,
    label: entry.label ?? known?.label ?? name,
    issuer,
    clientId: entry.clientId,
    clientSecret: entry.clientSecret ?? null,
    appleKey:
      type === 'apple'
        ? { teamId: entry.teamId!, keyId: entry.keyId!, privateKey: pem(entry.privateKey!) }
        : null,
    scopes: entry.scopes ?? known?.scopes ?? ['openid', 'email', 'profile'],
    responseMode: type === 'apple' ? 'form_post' : 'query',
    tokenEndpointAuthMethod:
      type === 'apple' ? 'client_secret_post' : (entry.tokenEndpointAuthMethod ?? null),
  };
}

/**
 * OIDC_PROVIDERS: JSON `{ "<name>": { "clientId", "clientSecret"?, "issuer"?, "label"?, … } }` (see
 * docs/configuration.md). `google`, `microsoft` and `apple` (by name, or by `type`) know their issuer.
 */
export const OidcProvidersSetting = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be JSON: {"<name>": {"clientId": "…", "clientSecret": "…", "issuer"?: "https://…"}}',
      });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .record(z.string(), Entry)
      .superRefine((entries, ctx) => {
        for (const [name, entry] of Object.entries(entries))
          for (const problem of problems(name, entry)) ctx.addIssue({ code: 'custom', ...problem });
      })
      .transform((entries) => Object.entries(entries).map(([name, entry]) => resolve(name, entry))),
  );
