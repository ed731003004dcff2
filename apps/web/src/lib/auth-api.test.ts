import { afterEach, describe, expect, it, vi } from 'vitest';
import { userProfile } from '../features/account/profile.fixture';
import { coded, json, mockApi, noContent } from '../test/api-mock';
import { apiToken, sessionInfo, signedInState } from '../test/fixtures';
import { ApiError } from './api';
import {
  changePassword,
  createApiToken,
  createSessionCookie,
  disableTotp,
  enableTotp,
  getAuthState,
  getTotpStatus,
  listOidcProviders,
  listSessions,
  oidcStartUrl,
  regenerateRecoveryCodes,
  register,
  revokeApiToken,
  revokeSession,
  sendEnterpriseContact,
  sessionMinutes,
  setSession,
  setupTotp,
  signIn,
  signOut,
  updateUserProfile,
} from './auth-api';

describe('auth calls (packages/core/src/api/auth.ts)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('trades the id token in the id-token header, with the session length and device id', async () => {
    const api = mockApi({
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    await createSessionCookie('id.tok.en', { expiresInMinutes: 20160, deviceId: 'dev' });
    const [call] = api.calls;
    expect(call?.headers['id-token']).toBe('id.tok.en');
    expect(call?.query.get('expiresInMinutes')).toBe('20160');
    expect(call?.query.get('deviceId')).toBe('dev');
    expect(call?.query.has('currentDomain')).toBe(false);
    expect(sessionMinutes(true)).toBe(20160);
    expect(sessionMinutes(false)).toBe(1440);
  });

  it('asks sign-out for every session only when told to', async () => {
    const api = mockApi({ 'GET /api/auth/auth/sign-out': () => json({ revoked: 3 }) });
    expect(await signOut({ deviceId: 'dev', revokeAllSessions: true })).toBe(3);
    expect(api.calls[0]?.query.get('revokeAllSessions')).toBe('true');
    await signOut({ deviceId: 'dev' });
    expect(api.calls[1]?.query.has('revokeAllSessions')).toBe(false);
    expect(api.calls[1]?.query.get('deviceId')).toBe('dev');
  });

  it('posts the sign-up with its plan, and sign-in with its code', async () => {
    const api = mockApi({
      'POST /api/auth/register': () => json({ sentTo: 'ada@example.com' }, 202),
      'POST /api/auth/signin': () => json({ idToken: 'a.b.c', expiresAt: '2030-01-01T00:00:00Z' }),
    });
    await register({
      email: 'ada@example.com',
      password: 'x'.repeat(12),
      plan: { type: 'PREMIUM', trial: true },
    });
    expect(api.calls[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'x'.repeat(12),
      plan: { type: 'PREMIUM', trial: true },
    });
    await signIn({ email: 'ada@example.com', password: 'pw', totp: '123456' });
    expect(api.calls[1]?.body).toEqual({ email: 'ada@example.com', password: 'pw', totp: '123456' });
  });

  it('validates answers with the core schemas', async () => {
    mockApi({
      'GET /api/auth/me': () => json({ user: null }),
      'GET /api/auth/sessions': () => json([sessionInfo(), { id: 's_2' }]),
    });
    await expect(getAuthState()).rejects.toBeInstanceOf(ApiError);
    await expect(listSessions()).rejects.toThrow('unexpected response body');
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/auth/sessions': () => json([sessionInfo({ current: true })]),
    });
    expect((await getAuthState()).user?.email).toBe('ada@example.com');
    expect(await listSessions()).toHaveLength(1);
  });

  it('revokes sessions and tokens with DELETE (204), and creates a token', async () => {
    const api = mockApi({
      'DELETE /api/auth/sessions/s%2F1': () => noContent(),
      'DELETE /api/auth/tokens/t_1': () => noContent(),
      'POST /api/auth/tokens': () => json({ ...apiToken(), token: 'fry_secret' }, 201),
    });
    await revokeSession('s/1');
    await revokeApiToken('t_1');
    expect((await createApiToken({ name: 'CLI', scopes: ['receive'] })).token).toBe('fry_secret');
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'DELETE /api/auth/sessions/s%2F1',
      'DELETE /api/auth/tokens/t_1',
      'POST /api/auth/tokens',
    ]);
    expect(api.calls[2]?.body).toEqual({ name: 'CLI', scopes: ['receive'] });
  });

  it('keeps the codes of a refused session cookie', async () => {
    mockApi({ 'GET /api/auth/auth/session-cookie': () => coded(400, 'MAX_LICENCES_REACHED') });
    const error = await createSessionCookie('a.b.c', { expiresInMinutes: 1440 }).catch((e: unknown) => e);
    expect((error as ApiError).hasCode('MAX_LICENCES_REACHED')).toBe(true);
  });

  it('hands a session token over in the session-token header', async () => {
    const api = mockApi({
      'GET /api/auth/auth/set-session': () => json({ sessionCookie: 's.e.t', sessionExpireTimestamp: 5 }),
    });
    expect((await setSession('s.e.t')).sessionExpireTimestamp).toBe(5);
    expect(api.calls[0]?.headers['session-token']).toBe('s.e.t');
    expect(api.calls[0]?.query.has('expiresTimestamp')).toBe(false);
  });

  it('lists the OIDC providers, refusing an answer of another shape', async () => {
    mockApi({
      'GET /api/auth/oidc/providers': () =>
        json([
          { name: 'google', label: 'Google' },
          { name: 'corp', label: 'Acme SSO' },
        ]),
    });
    expect(await listOidcProviders()).toEqual([
      { name: 'google', label: 'Google' },
      { name: 'corp', label: 'Acme SSO' },
    ]);
    mockApi({ 'GET /api/auth/oidc/providers': () => json([{ name: 'google' }]) });
    await expect(listOidcProviders()).rejects.toThrow('unexpected response body');
  });

  it('builds the start URL of a provider: next only when not /, staySignedIn only when true', () => {
    expect(oidcStartUrl('google', { next: '/' })).toBe('/api/auth/oidc/google/start');
    const url = new URL(
      oidcStartUrl('my idp', { next: '/dashboard?x=1', staySignedIn: true, deviceId: 'dev' }),
      'http://x',
    );
    expect(url.pathname).toBe('/api/auth/oidc/my%20idp/start');
    expect(url.searchParams.get('next')).toBe('/dashboard?x=1');
    expect(url.searchParams.get('staySignedIn')).toBe('true');
    expect(url.searchParams.get('deviceId')).toBe('dev');
    expect(oidcStartUrl('apple', { staySignedIn: false })).toBe('/api/auth/oidc/apple/start');
  });

  it('changes the password and tells how many other sessions were revoked', async () => {
    const api = mockApi({ 'POST /api/auth/password/change': () => json({ revoked: 2 }) });
    expect(await changePassword({ currentPassword: 'old one', newPassword: 'a new long one' })).toBe(2);
    expect(api.calls[0]?.body).toEqual({ currentPassword: 'old one', newPassword: 'a new long one' });
    mockApi({ 'POST /api/auth/password/change': () => coded(401, 'INVALID_CREDENTIALS') });
    const error = await changePassword({ currentPassword: 'x', newPassword: 'y'.repeat(10) }).catch((e) => e);
    expect((error as ApiError).hasCode('INVALID_CREDENTIALS')).toBe(true);
  });

  it('drives the second factor: status, set-up, enable, new codes, disable', async () => {
    const codes = { recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'] };
    const api = mockApi({
      'GET /api/auth/totp': () => json({ enabled: false, recoveryCodesLeft: 0 }),
      'POST /api/auth/totp/setup': () => json({ secret: 'JBSWY3DP', otpauthUrl: 'otpauth://totp/x' }),
      'POST /api/auth/totp/enable': () => json(codes),
      'POST /api/auth/totp/recovery-codes': () => json(codes),
      'POST /api/auth/totp/disable': () => noContent(),
    });
    expect(await getTotpStatus()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect((await setupTotp()).secret).toBe('JBSWY3DP');
    expect(await enableTotp('123456')).toEqual(codes);
    expect(await regenerateRecoveryCodes('654321')).toEqual(codes);
    await disableTotp('my password');
    expect(api.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['GET', '/api/auth/totp', undefined],
      ['POST', '/api/auth/totp/setup', undefined],
      ['POST', '/api/auth/totp/enable', { code: '123456' }],
      ['POST', '/api/auth/totp/recovery-codes', { code: '654321' }],
      ['POST', '/api/auth/totp/disable', { password: 'my password' }],
    ]);
  });

  it('patches the profile of the user and posts the enterprise contact form', async () => {
    const api = mockApi({
      'PATCH /api/user/users/u%2F1': () => json(userProfile({ info: { firstname: 'Zoé' } })),
      'POST /api/sales/enterprise-contact': () => json({ id: 'c_1' }, 201),
    });
    expect((await updateUserProfile('u/1', { info: { firstname: 'Zoé' } })).info.firstname).toBe('Zoé');
    expect(api.calls[0]?.body).toEqual({ info: { firstname: 'Zoé' } });
    const request = { name: 'Zoé', email: 'zoe@corp.example', company: 'Corp', teamSize: 40 };
    expect(await sendEnterpriseContact(request)).toEqual({ id: 'c_1' });
    expect(api.calls[1]?.body).toEqual(request);
  });
});
