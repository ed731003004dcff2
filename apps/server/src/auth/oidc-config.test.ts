import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

const providers = (value: unknown, env: Record<string, string> = {}) =>
  loadConfig({ OIDC_PROVIDERS: JSON.stringify(value), ...env }).oidc.providers;
const problems = (value: unknown, env: Record<string, string> = {}) => {
  try {
    providers(value, env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};
const p256 = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

describe('OIDC_PROVIDERS', () => {
  it('is empty when unset', () => {
    expect(loadConfig({}).oidc).toEqual({ providers: [], timeoutSeconds: 10 });
  });

  it('fills in google, microsoft (tenant common) and apple, and takes any issuer', () => {
    const key = p256();
    const list = providers(
      {
        google: { clientId: 'g', clientSecret: 'gs' },
        microsoft: { clientId: 'm', clientSecret: 'ms' },
        work: { type: 'microsoft', tenant: 'contoso.onmicrosoft.com', clientId: 'w', clientSecret: 'ws' },
        apple: {
          clientId: 'com.example.web',
          teamId: 'TEAM123',
          keyId: 'KEY123',
          privateKey: key.replace(/\n/g, '\\n'),
        },
        corp: { issuer: 'https://sso.example.com/realms/main', clientId: 'c', label: 'Example SSO' },
      },
      { PUBLIC_URL: 'https://ferry.example.com' },
    );
    expect(list.map((p) => [p.name, p.type, p.label, p.issuer])).toEqual([
      ['google', 'google', 'Google', 'https://accounts.google.com'],
      ['microsoft', 'microsoft', 'Microsoft', 'https://login.microsoftonline.com/common/v2.0'],
      ['work', 'microsoft', 'Microsoft', 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0'],
      ['apple', 'apple', 'Apple', 'https://appleid.apple.com'],
      ['corp', 'oidc', 'Example SSO', 'https://sso.example.com/realms/main'],
    ]);
    expect(list[3]).toMatchObject({
      responseMode: 'form_post',
      scopes: ['openid', 'email', 'name'],
      clientSecret: null,
      appleKey: { teamId: 'TEAM123', keyId: 'KEY123', privateKey: key },
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    expect(list[4]).toMatchObject({
      clientSecret: null,
      scopes: ['openid', 'email', 'profile'],
      responseMode: 'query',
    });
  });

  it('says what is wrong with each provider, all at once', () => {
    const message = problems({
      google: { clientId: 'g' },
      corp: { clientId: 'c' },
      insecure: { issuer: 'http://sso.example.com', clientId: 'i' },
      'Bad Name': { issuer: 'https://sso.example.com', clientId: 'b' },
      password: { issuer: 'https://sso.example.com', clientId: 'p' },
      apple: { clientId: 'a', teamId: 'T', keyId: 'K', privateKey: 'not a key' },
      noopenid: { issuer: 'https://sso.example.com', clientId: 'n', scopes: ['email'] },
    });
    expect(message).toContain('OIDC_PROVIDERS.google.clientSecret: is required for google');
    expect(message).toContain('OIDC_PROVIDERS.corp.issuer: is required');
    expect(message).toContain('OIDC_PROVIDERS.insecure.issuer: must be https');
    expect(message).toContain('OIDC_PROVIDERS.Bad Name: name it with lowercase letters');
    expect(message).toContain('OIDC_PROVIDERS.password: "password" is reserved');
    expect(message).toContain('OIDC_PROVIDERS.apple.privateKey: must be the PEM of the P-256 key');
    expect(message).toContain('OIDC_PROVIDERS.noopenid.scopes: must include "openid"');
    expect(problems({ x: { issuer: 'https://sso.example.com', clientId: 'x', secret: 's' } })).toMatch(
      /OIDC_PROVIDERS\.x: Unrecognized key/,
    );
    expect(problems(['google'])).toMatch(/OIDC_PROVIDERS: Invalid input: expected record/);
    expect(() => loadConfig({ OIDC_PROVIDERS: '{' })).toThrow(/OIDC_PROVIDERS: must be JSON/);
  });

  it('takes http issuers on loopback only, and Apple only behind an https PUBLIC_URL', () => {
    expect(providers({ t: { issuer: 'http://127.0.0.1:9000', clientId: 't' } })[0]!.issuer).toBe(
      'http://127.0.0.1:9000',
    );
    const apple = { apple: { clientId: 'a', teamId: 'T', keyId: 'K', privateKey: p256() } };
    expect(problems(apple)).toContain('OIDC_PROVIDERS.apple: needs PUBLIC_URL to be an https:// address');
    expect(problems(apple, { PUBLIC_URL: 'https://ferry.example.com' })).toBe('');
  });
});
