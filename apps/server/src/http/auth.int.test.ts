import { SignJWT } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Signer } from '../security/secrets.js';
import { api, createTransfer } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/** Accounts and the spec's session calls, on a real server, database and SMTP server. */
let sink: SmtpSink;
let ferry: TestFerry;
const SECRET_KEY = 'test-secret-key-that-is-long-enough-0123456789';
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, SECRET_KEY, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});
beforeEach(() => {
  sink.messages.length = 0;
});

let n = 0;
const address = (label: string) => `${label}-${process.pid}-${++n}@people.example`;
const linkToken = (m: ReceivedMail, page: string) =>
  new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`).exec(m.parsed.text ?? '')![1]!;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Registers and verifies an account; returns its address and an id token. */
async function account(label = 'user') {
  const email = address(label);
  const reg = await api(ferry.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { email, password: PASSWORD, firstname: 'Ann' },
  });
  expect(reg.status).toBe(202);
  const mail = await sink.waitFor((m) => m.to.includes(email));
  const verified = await api(ferry.baseUrl, '/api/auth/verify-email', {
    method: 'POST',
    json: { token: linkToken(mail, 'verify-email') },
  });
  expect(verified.status).toBe(200);
  return { email, idToken: verified.body.idToken as string };
}

async function session(idToken: string, query = '') {
  const res = await api(ferry.baseUrl, `/api/auth/auth/session-cookie${query}`, {
    headers: { 'id-token': idToken },
  });
  return res;
}

async function signedIn(label = 'user') {
  const { email, idToken } = await account(label);
  const res = await session(idToken, '?expiresInMinutes=20160');
  expect(res.status).toBe(200);
  const uid = (await query<{ id: string }>(ferry, 'SELECT id FROM users WHERE email = $1', [email]))[0]!.id;
  return { email, uid, token: res.body.sessionCookie as string };
}

const me = async (headers: Record<string, string>) =>
  (await api(ferry.baseUrl, '/api/auth/me', { headers })).body;

describe('sign-up, sign-in and the spec session calls', () => {
  it('registers, verifies by the mailed link, and trades the id token for a session with the spec claims', async () => {
    const email = address('new');
    const reg = await api(ferry.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: {
        email,
        password: PASSWORD,
        firstname: 'Ann',
        plan: { type: 'PREMIUM', frequency: 'ANNUAL', trial: true },
      },
    });
    expect(reg).toMatchObject({ status: 202, body: { sentTo: email } });
    // Not signed in before the address is proven.
    const early = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    expect(early.body).toMatchObject({ status: 403, codes: ['EMAIL_NOT_VERIFIED'] });

    const mail = await sink.waitFor((m) => m.to.includes(email));
    expect(mail.parsed.subject).toBe('Confirm your e-mail address for Ferry');
    const token = linkToken(mail, 'verify-email');
    const verified = await api(ferry.baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token } });
    expect(verified.status).toBe(200);
    // The link works once.
    const again = await api(ferry.baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token } });
    expect(again.body).toMatchObject({ status: 401, codes: ['INVALID_TOKEN'] });

    const signin = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    expect(signin.status).toBe(200);
    const deviceId = '0b7e2bb9-32a4-4a8f-9d3c-1f0e8f5e9a11';
    const res = await session(signin.body.idToken, `?expiresInMinutes=20160&deviceId=${deviceId}`);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ferry_session=[^;]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=1209600/);
    const expected = Date.now() + 20160 * 60_000;
    expect(Math.abs(res.body.sessionExpireTimestamp - expected)).toBeLessThan(60_000);

    const claims = JSON.parse(
      Buffer.from(String(res.body.sessionCookie).split('.')[1]!, 'base64url').toString(),
    );
    expect(claims).toMatchObject({
      email,
      name: 'Ann',
      plan_type: 'NONE',
      manager_id: null,
      // An account without a manager runs itself: every permission, BILLING included (spec §6).
      authorization: { manager_id: null, permissions: ['TRANSFER_MANAGER', 'USER_MANAGER', 'BILLING'] },
      sign_in_provider: 'password',
    });
    expect(typeof claims.user_id).toBe('string');
    expect(claims.exp - claims.iat).toBe(20160 * 60);

    // The cookie and the bearer token both sign the request in.
    const byCookie = await me({ cookie: `ferry_session=${res.body.sessionCookie}` });
    expect(byCookie).toMatchObject({
      user: { email, displayName: 'Ann' },
      planType: 'NONE',
      payingUser: false,
      chosenPlan: { type: 'PREMIUM', frequency: 'ANNUAL', trial: true },
    });
    expect(await me(bearer(res.body.sessionCookie))).toMatchObject({ user: { email } });
    expect(await me({})).toMatchObject({ user: null, planType: 'NONE', authorization: { permissions: [] } });
    const sessions = await api(ferry.baseUrl, '/api/auth/sessions', {
      headers: bearer(res.body.sessionCookie),
    });
    expect(sessions.body).toEqual([expect.objectContaining({ deviceId, current: true })]);
  });

  it('refuses wrong passwords alike for known and unknown addresses, and locks out guessing with 429', async () => {
    const { email } = await account('guess');
    const wrong = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: 'nope' },
    });
    const unknown = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email: address('nobody'), password: 'nope' },
    });
    expect(wrong.body).toMatchObject({ status: 401, codes: ['INVALID_CREDENTIALS'] });
    expect(unknown.body).toEqual({ ...wrong.body });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (
          await api(ferry.baseUrl, '/api/auth/signin', {
            method: 'POST',
            json: { email, password: `nope${i}` },
          })
        ).status,
      );
    expect(statuses.slice(0, 8).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Locked: even the right password waits.
    const locked = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses malformed, tampered, expired and api-marked tokens, with the 400 the spec client expects', async () => {
    const { idToken } = await account('tokens');
    // Spec §7: session-cookie answers 200 or 400 only; the §8 coded body says why.
    const badToken = { status: 400, codes: ['VALIDATION_FAILED'], details: { reason: 'INVALID_TOKEN' } };
    const twoParts = await session('abc.def');
    expect(twoParts.status).toBe(400);
    expect(twoParts.body).toMatchObject({ ...badToken, message: 'Unexpected token format.' });
    expect((await session('')).body).toMatchObject(badToken);
    const [h, p, s] = idToken.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, user_id: 'someone-else' })).toString('base64url')}.${s}`;
    const tamperedRes = await session(tampered);
    expect(tamperedRes.status).toBe(400);
    expect(tamperedRes.body).toMatchObject(badToken);
    const key = new TextEncoder().encode(new Signer(SECRET_KEY).derive('session-jwt'));
    const sign = (claims: Record<string, unknown>, exp: number) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(key);
    const expired = await sign(payload, Math.floor(Date.now() / 1000) - 10);
    const expiredRes = await session(expired);
    expect(expiredRes.status).toBe(400);
    expect(expiredRes.body).toMatchObject({ ...badToken, message: 'This token has expired: sign in again.' });
    // A session token is not an id token.
    const sessionToken = (await session(idToken)).body.sessionCookie as string;
    expect((await session(sessionToken)).body).toMatchObject(badToken);
    const api_ = await sign({ ...payload, api: true }, Math.floor(Date.now() / 1000) + 600);
    expect((await session(api_)).body).toMatchObject({ status: 400, codes: ['USER_NOT_FOUND'] });
    const ghost = await sign({ ...payload, user_id: 'no-such-user' }, Math.floor(Date.now() / 1000) + 600);
    expect((await session(ghost)).body).toMatchObject({ status: 400, codes: ['USER_NOT_FOUND'] });
    // An id token is not a session token, and the reverse.
    expect((await me(bearer(idToken))).user).toBeUndefined();
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(idToken) })).status).toBe(401);
    // A bad cookie is simply anonymous, and cleared.
    const stale = await api(ferry.baseUrl, '/api/auth/me', { headers: { cookie: 'ferry_session=a.b.c' } });
    expect(stale.body.user).toBeNull();
    expect(stale.headers.get('set-cookie')).toMatch(/ferry_session=;/);
  });

  it('sign-out revokes at once; sign out everywhere ends every session; id-token and set-session', async () => {
    const { email, idToken } = await account('out');
    const first = (await session(idToken)).body.sessionCookie as string;
    const signin = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    const second = (await session(signin.body.idToken)).body.sessionCookie as string;

    const fresh = await api(ferry.baseUrl, '/api/auth/auth/id-token', { headers: bearer(first) });
    expect(fresh.status).toBe(200);
    expect((await session(fresh.body.idToken)).status).toBe(200);
    expect((await api(ferry.baseUrl, '/api/auth/auth/id-token')).status).toBe(401);

    const handed = await api(ferry.baseUrl, '/api/auth/auth/set-session', {
      headers: { 'session-token': second },
    });
    expect(handed.status).toBe(200);
    expect(handed.headers.get('set-cookie')).toContain(`ferry_session=${second}`);
    const bad = await api(ferry.baseUrl, '/api/auth/auth/set-session', {
      headers: { 'session-token': 'x.y.z' },
    });
    expect(bad.status).toBe(400);

    const out = await api(ferry.baseUrl, '/api/auth/auth/sign-out?deviceId=d1', { headers: bearer(first) });
    expect(out.body).toEqual({ revoked: 1 });
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(first) })).body.codes).toEqual([
      'INVALID_TOKEN',
    ]);
    expect((await me(bearer(second))).user.email).toBe(email);

    const all = await api(ferry.baseUrl, '/api/auth/auth/sign-out?revokeAllSessions=true', {
      headers: bearer(second),
    });
    expect(all.body.revoked).toBeGreaterThanOrEqual(2);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(second) })).status).toBe(401);
  });

  it('resets a forgotten password by a one-time link, signing out every other session', async () => {
    const { email, token } = await signedIn('reset');
    expect(
      (await api(ferry.baseUrl, '/api/auth/password/forgot', { method: 'POST', json: { email } })).status,
    ).toBe(202);
    const unknown = await api(ferry.baseUrl, '/api/auth/password/forgot', {
      method: 'POST',
      json: { email: address('nobody') },
    });
    expect(unknown.status).toBe(202);
    const mail = await sink.waitFor((m) => m.to.includes(email) && /Reset/.test(m.parsed.subject ?? ''));
    const resetToken = linkToken(mail, 'reset-password');
    const reset = await api(ferry.baseUrl, '/api/auth/password/reset', {
      method: 'POST',
      json: { token: resetToken, password: 'a brand new passphrase' },
    });
    expect(reset.status).toBe(200);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(token) })).status).toBe(401);
    expect(
      (await api(ferry.baseUrl, '/api/auth/signin', { method: 'POST', json: { email, password: PASSWORD } }))
        .status,
    ).toBe(401);
    expect(
      (
        await api(ferry.baseUrl, '/api/auth/signin', {
          method: 'POST',
          json: { email, password: 'a brand new passphrase' },
        })
      ).status,
    ).toBe(200);
    const reused = await api(ferry.baseUrl, '/api/auth/password/reset', {
      method: 'POST',
      json: { token: resetToken, password: 'yet another passphrase' },
    });
    expect(reused.body.codes).toEqual(['INVALID_TOKEN']);
    expect((await sink.messages.filter((m) => m.to.some((t) => t.startsWith('nobody')))).length).toBe(0);
  });

  it('personal API tokens: shown once, usable as bearer, revocable, and only by their owner', async () => {
    const ann = await signedIn('ann');
    const bob = await signedIn('bob');
    const created = await api(ferry.baseUrl, '/api/auth/tokens', {
      method: 'POST',
      headers: bearer(ann.token),
      json: { name: 'laptop CLI' },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^fry_/);
    expect(await me(bearer(created.body.token))).toMatchObject({
      user: { email: ann.email },
      currentSignInProvider: 'api_token',
    });
    const list = await api(ferry.baseUrl, '/api/auth/tokens', { headers: bearer(ann.token) });
    expect(list.body).toEqual([expect.objectContaining({ id: created.body.id, name: 'laptop CLI' })]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect((await api(ferry.baseUrl, '/api/auth/tokens', { headers: bearer(bob.token) })).body).toEqual([]);
    // Bob can neither revoke Ann's token nor her sessions.
    const bobRevokes = await api(ferry.baseUrl, `/api/auth/tokens/${created.body.id}`, {
      method: 'DELETE',
      headers: bearer(bob.token),
    });
    expect(bobRevokes.status).toBe(404);
    const annSession = (await api(ferry.baseUrl, '/api/auth/sessions', { headers: bearer(ann.token) }))
      .body[0].id;
    expect(
      (
        await api(ferry.baseUrl, `/api/auth/sessions/${annSession}`, {
          method: 'DELETE',
          headers: bearer(bob.token),
        })
      ).status,
    ).toBe(404);
    expect((await me(bearer(ann.token))).user.email).toBe(ann.email);

    const revoked = await api(ferry.baseUrl, `/api/auth/tokens/${created.body.id}`, {
      method: 'DELETE',
      headers: bearer(ann.token),
    });
    expect(revoked.status).toBe(204);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(created.body.token) })).status).toBe(
      401,
    );
    const stored = await query(ferry, 'SELECT * FROM api_tokens');
    expect(JSON.stringify(stored)).not.toContain(created.body.token);
  });

  it('a second factor: set up with a first code, then asked at sign-in; codes and recovery codes work once', async () => {
    const { email, token } = await signedIn('totp');
    const setup = await api(ferry.baseUrl, '/api/auth/totp/setup', {
      method: 'POST',
      headers: bearer(token),
    });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Ferry:/);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
    const code = (offsetSeconds = 0) => totp.generate({ timestamp: Date.now() + offsetSeconds * 1000 });
    const wrongCode = (c: string) => (c === '000000' ? '000001' : '000000');
    const badEnable = await api(ferry.baseUrl, '/api/auth/totp/enable', {
      method: 'POST',
      headers: bearer(token),
      json: { code: wrongCode(code()) },
    });
    expect(badEnable.body.codes).toEqual(['SECOND_FACTOR_REQUIRED']);
    const enabled = await api(ferry.baseUrl, '/api/auth/totp/enable', {
      method: 'POST',
      headers: bearer(token),
      json: { code: code() },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect((await api(ferry.baseUrl, '/api/auth/totp', { headers: bearer(token) })).body).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    const signin = (totpCode?: string) =>
      api(ferry.baseUrl, '/api/auth/signin', {
        method: 'POST',
        json: { email, password: PASSWORD, totp: totpCode },
      });
    expect((await signin()).body).toMatchObject({ status: 401, codes: ['SECOND_FACTOR_REQUIRED'] });
    const next = code(30); // the next time step: the one used to enable is spent
    expect((await signin(wrongCode(next))).body).toMatchObject({ details: { wrongCode: true } });
    expect((await signin(next)).status).toBe(200);
    // The same code again is a replay.
    expect((await signin(next)).body.codes).toEqual(['SECOND_FACTOR_REQUIRED']);
    const recovery = enabled.body.recoveryCodes[0] as string;
    expect((await signin(recovery.toUpperCase())).status).toBe(200);
    expect((await signin(recovery)).status).toBe(401);

    const [stored] = await query<{ totp_secret: string; recovery_codes: string[] }>(
      ferry,
      'SELECT totp_secret, recovery_codes FROM users WHERE email = $1',
      [email],
    );
    expect(stored!.totp_secret).not.toContain(setup.body.secret); // encrypted at rest
    expect(JSON.stringify(stored!.recovery_codes)).not.toContain(enabled.body.recoveryCodes[1]);
    const wrongPassword = await api(ferry.baseUrl, '/api/auth/totp/disable', {
      method: 'POST',
      headers: bearer(token),
      json: { password: 'not it at all' },
    });
    expect(wrongPassword.status).toBe(401);
    const off = await api(ferry.baseUrl, '/api/auth/totp/disable', {
      method: 'POST',
      headers: bearer(token),
      json: { password: PASSWORD },
    });
    expect(off.status).toBe(204);
    expect((await signin()).status).toBe(200);
    const [row] = await query<{ totp_secret: string | null }>(
      ferry,
      'SELECT totp_secret FROM users WHERE email = $1',
      [email],
    );
    expect(row!.totp_secret).toBeNull();
  });

  it('refuses writes that ride on the session cookie from another site (CSRF); its own pages and tokens pass', async () => {
    const ann = await signedIn('csrf');
    const cookie = { cookie: `ferry_session=${ann.token}` };
    const create = (headers: Record<string, string>) =>
      api(ferry.baseUrl, '/api/auth/tokens', { method: 'POST', headers, json: { name: 'cli' } });
    for (const foreign of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site', origin: ferry.baseUrl },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const refused = await create({ ...cookie, ...foreign });
      expect(refused.status, JSON.stringify(foreign)).toBe(403);
      expect(refused.body).toMatchObject({ codes: ['FORBIDDEN'], details: { reason: 'CROSS_SITE_REQUEST' } });
    }
    expect((await api(ferry.baseUrl, '/api/auth/tokens', { headers: bearer(ann.token) })).body).toEqual([]);
    // Its own pages (by Fetch Metadata or by Origin), programs without either, and bearer tokens from anywhere.
    for (const ok of [
      { ...cookie, 'sec-fetch-site': 'same-origin', origin: ferry.baseUrl },
      { ...cookie, origin: ferry.baseUrl },
      cookie,
      { ...bearer(ann.token), origin: 'https://evil.example' },
    ])
      expect((await create(ok)).status, JSON.stringify(ok)).toBe(201);
    // Reading is not a write: a cross-site GET with the cookie is answered (and the browser keeps it from the page).
    expect(
      (await api(ferry.baseUrl, '/api/auth/me', { headers: { ...cookie, origin: 'https://evil.example' } }))
        .body.user.email,
    ).toBe(ann.email);
  });

  it('answers account lookups with a boolean and the providers', async () => {
    const { email } = await account('lookup');
    const yes = await api(ferry.baseUrl, `/api/user/auth/has-active-account/${encodeURIComponent(email)}`);
    expect(yes.body).toEqual({ hasActiveAccount: true });
    const no = await api(
      ferry.baseUrl,
      `/api/user/auth/has-active-account/${encodeURIComponent(address('x'))}`,
    );
    expect(no.body).toEqual({ hasActiveAccount: false });
    const providers = await api(
      ferry.baseUrl,
      `/api/auth/providers/users/${encodeURIComponent(email)}/by-email`,
    );
    expect(providers.body).toEqual({ providers: ['password'] });
  });

  it('every signed-in endpoint refuses anonymous callers', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/sessions'],
      ['DELETE', '/api/auth/sessions/abc'],
      ['GET', '/api/auth/tokens'],
      ['POST', '/api/auth/tokens'],
      ['DELETE', '/api/auth/tokens/abc'],
      ['GET', '/api/auth/auth/id-token'],
      ['GET', '/api/auth/totp'],
      ['POST', '/api/auth/totp/setup'],
    ] as const) {
      const res = await api(ferry.baseUrl, path, {
        method,
        ...(method === 'POST' ? { json: { name: 'x' } } : {}),
      });
      expect([path, res.status]).toEqual([path, 401]);
    }
  });
});

describe('sending as a signed-in user', () => {
  it('owns the transfer, sends S1 from the account address without a code, within the plan limits', async () => {
    const user = await signedIn('sender');
    const recipients = (k: number) => Array.from({ length: k }, (_, i) => `r${i}@example.com`);
    const files = [{ name: 'a.txt', size: 3 }];
    const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: bearer(user.token),
      json: { type: 'S1', recipients: recipients(10), files },
    });
    expect(created.status).toBe(201);
    expect(created.body.senderVerification).toBe('not_needed');
    const [row] = await query<{ owner_id: string; sender_email: string }>(
      ferry,
      'SELECT owner_id, sender_email FROM transfers WHERE id = $1',
      [created.body.transferId],
    );
    expect(row).toEqual({ owner_id: user.uid, sender_email: user.email });
    // Another address than the account's still has to be proven.
    const other = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: bearer(user.token),
      json: { type: 'S1', senderEmail: 'someone-else@elsewhere.example', recipients: recipients(1), files },
    });
    expect(other.body.senderVerification).toBe('pending');
    await sink.waitFor((m) => m.to.includes('someone-else@elsewhere.example'));
    // NONE allows 10 recipients; PREMIUM 50 (spec §9), read from the account at each request.
    const eleven = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: bearer(user.token),
      json: { type: 'S1', recipients: recipients(11), files },
    });
    expect(eleven.body.limitErrors).toEqual([{ limit: 'recipients', max: 10, actual: 11 }]);
    await query(ferry, "UPDATE users SET plan_type = 'PREMIUM' WHERE id = $1", [user.uid]);
    for (const [count, status] of [
      [50, 201],
      [51, 400],
    ] as const) {
      const res = await api(ferry.baseUrl, '/api/transfer/transfers', {
        method: 'POST',
        headers: bearer(user.token),
        json: { type: 'S1', recipients: recipients(count), files, expiresInDays: 365 },
      });
      expect([count, res.status]).toEqual([count, status]);
    }
    // Anonymous callers stay on plan NONE.
    const anonymous = await createTransfer(ferry.baseUrl, { files, expiresInDays: 7 });
    expect(anonymous.transferId).toBeTruthy();
    const tooLong = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { files, expiresInDays: 8 },
    });
    expect(tooLong.body.limitErrors).toEqual([{ limit: 'fileValidityInDays', max: 7, actual: 8 }]);
  });
});

describe('plan limits (spec §9), on the server, per account', () => {
  const files = (count: number, size = 1) =>
    Array.from({ length: count }, (_, i) => ({ name: `f${i}.txt`, size }));
  const create = (token: string | null, body: Record<string, unknown>) =>
    api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: token ? bearer(token) : {},
      json: { files: files(1), ...body },
    });

  it('every limit is accepted at the limit and refused one above it, for NONE and PREMIUM', async () => {
    const user = await signedIn('limits');
    const cases = (plan: 'NONE' | 'PREMIUM') => {
      const l =
        plan === 'NONE'
          ? { files: 250, days: 7, message: 500, recipients: 10, upload: 5e9 }
          : { files: 5000, days: 365, message: 1000, recipients: 50, upload: 250e9 };
      const to = (k: number) => Array.from({ length: k }, (_, i) => `p${i}@example.com`);
      return [
        ['files', l.files, (k: number) => ({ files: files(k) })],
        ['fileValidityInDays', l.days, (k: number) => ({ expiresInDays: k })],
        ['messageLength', l.message, (k: number) => ({ message: 'é'.repeat(k) })],
        ['recipients', l.recipients, (k: number) => ({ type: 'S1', recipients: to(k) })],
        ['uploadSize', l.upload, (k: number) => ({ files: [{ name: 'big.bin', size: k }] })],
      ] as const;
    };
    for (const plan of ['NONE', 'PREMIUM'] as const) {
      await query(ferry, 'UPDATE users SET plan_type = $2 WHERE id = $1', [user.uid, plan]);
      for (const [limit, max, body] of cases(plan)) {
        const at = await create(user.token, { expiresInDays: 1, ...body(max) });
        expect([plan, limit, at.status, at.body.limitErrors]).toEqual([plan, limit, 201, undefined]);
        const over = await create(user.token, { expiresInDays: 1, ...body(max + 1) });
        expect([plan, limit, over.body.limitErrors]).toEqual([
          plan,
          limit,
          [{ limit, max, actual: max + 1 }],
        ]);
      }
    }
  });

  it('storage in use: at the limit is fine, one byte more is refused, and racing creations never pass it', async () => {
    const user = await signedIn('storage');
    // NONE: 100 GB of storage, transfers of at most 5 GB.
    for (let i = 0; i < 19; i++)
      expect((await create(user.token, { files: files(1, 5e9) })).status).toBe(201);
    const last = await create(user.token, { files: files(1, 5e9 - 1) });
    expect(last.status).toBe(201);
    const over = await create(user.token, { files: files(1, 2) });
    expect(over.body.limitErrors).toEqual([{ limit: 'storage', max: 100e9, actual: 100e9 + 1 }]);
    expect((await create(user.token, { files: files(1, 1) })).status).toBe(201);

    // 90 GB in use by another account, 20 racing 5 GB creations: exactly two fit.
    const racer = await signedIn('racer');
    for (let i = 0; i < 18; i++)
      expect((await create(racer.token, { files: files(1, 5e9) })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => create(racer.token, { files: files(1, 5e9) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.body?.limitErrors?.[0]?.limit === 'storage')).toHaveLength(18);
    const limits = await api(ferry.baseUrl, `/api/transfer/limits/${racer.uid}`, {
      headers: bearer(racer.token),
    });
    expect(limits.body).toMatchObject({ storage: 100e9, storageUsed: 100e9 });
  });

  it('bytes downloaded over 7 days from an account’s transfers are capped', async () => {
    const user = await signedIn('bandwidth');
    const created = (await create(user.token, { files: [{ name: 'a.txt', size: 10 }] })).body;
    const tus = new (await import('../test/tus-client.js')).TusTestClient(ferry.baseUrl, created.uploadToken);
    await tus.upload(created.transferId, created.files[0].id, Buffer.alloc(10, 1));
    await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': created.uploadToken },
      json: { files: [] },
    });
    // 3e11 (NONE) minus 20 bytes already downloaded this week, one older download that no longer counts.
    await query(
      ferry,
      `INSERT INTO downloads (transfer_id, kind, bytes, created_at) VALUES
         ($1, 'zip', 299999999980, now() - interval '1 day'), ($1, 'zip', 500, now() - interval '8 days')`,
      [created.transferId],
    );
    const link = () =>
      api(
        ferry.baseUrl,
        `/api/transfer/downloads/link?transferId=${created.transferId}&fileId=${created.files[0].id}`,
      );
    expect((await link()).status).toBe(200); // 3e11 - 10: fits
    expect((await link()).status).toBe(200); // exactly 3e11
    const over = await link();
    expect(over.body.limitErrors).toEqual([{ limit: 'downloadedBytes7Days', max: 3e11, actual: 3e11 + 10 }]);
  });

  it('GET and PUT /transfer/limits/{id}: own account only; settings within the plan', async () => {
    const ann = await signedIn('lim-ann');
    const bob = await signedIn('lim-bob');
    const mine = await api(ferry.baseUrl, `/api/transfer/limits/${ann.uid}`, { headers: bearer(ann.token) });
    expect(mine.body).toMatchObject({
      planType: 'NONE',
      files: 250,
      fileValidityInDays: 7,
      forcedFileValidityInDays: null,
      recipients: 10,
      uploadSize: 5e9,
      storage: 100e9,
      storageUsed: 0,
      downloadedBytes7Days: 3e11,
      forcedRegion: null,
      disableSSEC: false,
    });
    expect((await api(ferry.baseUrl, `/api/transfer/limits/${ann.uid}`)).status).toBe(401);
    expect(
      (await api(ferry.baseUrl, `/api/transfer/limits/${ann.uid}`, { headers: bearer(bob.token) })).status,
    ).toBe(404);
    const put = (token: string, id: string, json: unknown) =>
      api(ferry.baseUrl, `/api/transfer/limits/${id}/by-user`, {
        method: 'PUT',
        headers: bearer(token),
        json,
      });
    expect((await put(bob.token, ann.uid, { forcedFileValidityInDays: 3 })).status).toBe(404);
    expect((await put(ann.token, ann.uid, { forcedFileValidityInDays: 8 })).body.limitErrors).toEqual([
      { limit: 'fileValidityInDays', max: 7, actual: 8 },
    ]);
    expect((await put(ann.token, ann.uid, { forcedRegion: 'mars' })).status).toBe(400);
    const saved = await put(ann.token, ann.uid, { forcedFileValidityInDays: 3, forcedRegion: 'default' });
    expect(saved.body).toMatchObject({ forcedFileValidityInDays: 3, forcedRegion: 'default' });
    // The account's transfers now last 3 days unless they ask otherwise, and record their region.
    const t = await create(ann.token, {});
    const days = (Date.parse(t.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2);
    expect(days).toBeLessThanOrEqual(3);
    const [row] = await query<{ storage_region: string }>(
      ferry,
      'SELECT storage_region FROM transfers WHERE id = $1',
      [t.body.transferId],
    );
    expect(row!.storage_region).toBe('default');
  });
});

describe('user settings (spec §3)', () => {
  it("saves the account's language from the profile, and the auth state carries it", async () => {
    const ann = await signedIn('lang-ann');
    const before = (await me(bearer(ann.token))).user.locale;
    const patched = await api(ferry.baseUrl, `/api/user/users/${ann.uid}`, {
      method: 'PATCH',
      headers: bearer(ann.token),
      json: { locale: 'jp' },
    });
    expect(patched.status).toBe(200);
    expect(before).not.toBe('jp');
    expect((await me(bearer(ann.token))).user).toMatchObject({ email: ann.email, locale: 'jp' });
    // Another change leaves the language as it is.
    await api(ferry.baseUrl, `/api/user/users/${ann.uid}`, {
      method: 'PATCH',
      headers: bearer(ann.token),
      json: { info: { firstname: 'Ann' } },
    });
    expect((await me(bearer(ann.token))).user.locale).toBe('jp');
    // Only the spec's codes are languages.
    const bad = await api(ferry.baseUrl, `/api/user/users/${ann.uid}`, {
      method: 'PATCH',
      headers: bearer(ann.token),
      json: { locale: 'ja' },
    });
    expect(bad.status).toBe(400);
    expect((await me(bearer(ann.token))).user.locale).toBe('jp');
  });

  it('reads defaults, merges updates, feeds new transfers, and keeps each account to itself', async () => {
    const ann = await signedIn('set-ann');
    const bob = await signedIn('set-bob');
    const profile = await api(ferry.baseUrl, `/api/user/users/${ann.uid}`, { headers: bearer(ann.token) });
    expect(profile.body).toMatchObject({
      uid: ann.uid,
      email: ann.email,
      info: { firstname: 'Ann' },
      notificationSettings: {
        transfer: {
          summary: true,
          expiryReminder: true,
          downloadConfirmation: true,
          downloadConfirmationS2: false,
        },
        receive: { expiryReminder: true, upload: true },
      },
      uploaderTemplate: { recipients: [], s2AsDefault: false },
      uploaderSettings: { allowS1: true, requirePassword: false, sendAllowedExtensions: [] },
    });
    const patched = await api(ferry.baseUrl, `/api/user/users/${ann.uid}`, {
      method: 'PATCH',
      headers: bearer(ann.token),
      json: {
        info: { firstname: 'Annie' },
        notificationSettings: { transfer: { downloadConfirmation: false } },
        uploaderTemplate: { s2AsDefault: true, defaultAvailability: 5 },
      },
    });
    expect(patched.body).toMatchObject({
      info: { firstname: 'Annie' },
      notificationSettings: { transfer: { downloadConfirmation: false, summary: true } },
      uploaderTemplate: { s2AsDefault: true, defaultAvailability: 5, recipients: [] },
    });
    // New transfers take the account's notification settings as their defaults.
    const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: bearer(ann.token),
      json: { type: 'S1', recipients: ['x@example.com'], files: [{ name: 'a.txt', size: 1 }] },
    });
    const state = await api(
      ferry.baseUrl,
      `/api/transfer/transfers/${created.body.transferId}/upload-state`,
      {
        headers: { 'x-upload-token': created.body.uploadToken },
      },
    );
    expect(state.body.notifications).toMatchObject({
      downloadConfirmation: false,
      summary: true,
      expiryReminder: true,
    });

    for (const [method, path, json] of [
      ['GET', `/api/user/users/${ann.uid}`, undefined],
      ['PATCH', `/api/user/users/${ann.uid}`, { info: { firstname: 'Mallory' } }],
      ['PUT', `/api/user/users/${ann.uid}/uploader-settings`, profile.body.uploaderSettings],
    ] as const) {
      const res = await api(ferry.baseUrl, path, { method, headers: bearer(bob.token), json });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      const anonymous = await api(ferry.baseUrl, path, { method, json });
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
    }
    const settings = {
      ...profile.body.uploaderSettings,
      requirePassword: true,
      sendAllowedExtensions: ['pdf'],
    };
    const put = await api(ferry.baseUrl, `/api/user/users/${ann.uid}/uploader-settings`, {
      method: 'PUT',
      headers: bearer(ann.token),
      json: settings,
    });
    expect(put.body).toEqual(settings);
    const partial = await api(ferry.baseUrl, `/api/user/users/${ann.uid}/uploader-settings`, {
      method: 'PUT',
      headers: bearer(ann.token),
      json: { allowS1: false },
    });
    expect(partial.status).toBe(400);
    expect(
      (await api(ferry.baseUrl, `/api/user/users/${ann.uid}`, { headers: bearer(ann.token) })).body,
    ).toMatchObject({
      info: { firstname: 'Annie' },
      uploaderSettings: { requirePassword: true, sendAllowedExtensions: ['pdf'] },
    });
  });

  it('tells the country from the browser language, US when unknown', async () => {
    const ca = await api(ferry.baseUrl, '/api/user/locations/country', {
      headers: { 'accept-language': 'fr-CA,fr;q=0.9' },
    });
    expect(ca.body).toEqual({ country: 'CA' });
    const none = await api(ferry.baseUrl, '/api/user/locations/country', {
      headers: { 'accept-language': 'fr' },
    });
    expect(none.body).toEqual({ country: 'US' });
  });
});
