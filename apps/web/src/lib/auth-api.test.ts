import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi, noContent } from '../test/api-mock';
import { apiToken, sessionInfo, signedInState } from '../test/fixtures';
import { ApiError } from './api';
import {
  createApiToken,
  createSessionCookie,
  getAuthState,
  listSessions,
  register,
  revokeApiToken,
  revokeSession,
  sessionMinutes,
  signIn,
  signOut,
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
    expect((await createApiToken('CLI')).token).toBe('fry_secret');
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'DELETE /api/auth/sessions/s%2F1',
      'DELETE /api/auth/tokens/t_1',
      'POST /api/auth/tokens',
    ]);
    expect(api.calls[2]?.body).toEqual({ name: 'CLI' });
  });

  it('keeps the codes of a refused session cookie', async () => {
    mockApi({ 'GET /api/auth/auth/session-cookie': () => coded(400, 'MAX_LICENCES_REACHED') });
    const error = await createSessionCookie('a.b.c', { expiresInMinutes: 1440 }).catch((e: unknown) => e);
    expect((error as ApiError).hasCode('MAX_LICENCES_REACHED')).toBe(true);
  });
});
