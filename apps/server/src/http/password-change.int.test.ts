import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/** POST /api/auth/password/change on a real server, database and SMTP server. */
let sink: SmtpSink;
let ferry: TestFerry;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

let n = 0;
const signedIn = async (label: string) => {
  const email = `${label}-${process.pid}-${++n}@people.example`;
  const account = await signedInAccount(ferry.baseUrl, email, (to) => sink.waitFor((m) => m.to.includes(to)));
  return { ...account, token: account.bearer.authorization.slice('Bearer '.length) };
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const me = (token: string) => api(ferry.baseUrl, '/api/auth/me', { headers: bearer(token) });
const change = (token: string | null, json: unknown) =>
  api(ferry.baseUrl, '/api/auth/password/change', {
    method: 'POST',
    headers: token ? bearer(token) : {},
    json,
  });
const signIn = (email: string, password: string) =>
  api(ferry.baseUrl, '/api/auth/signin', { method: 'POST', json: { email, password } });
const session = async (idToken: string) =>
  (await api(ferry.baseUrl, '/api/auth/auth/session-cookie', { headers: { 'id-token': idToken } })).body
    .sessionCookie as string;
const noticesTo = (email: string) =>
  sink.messages.filter((m) => m.to.includes(email) && /password|mot de passe/i.test(m.parsed.subject ?? ''));

describe('changing the password (signed in)', () => {
  it('needs the current password, keeps this session, ends the others and mails a notice in the account language', async () => {
    const { email, uid, token } = await signedIn('change');
    await query(ferry, "UPDATE users SET locale = 'fr-CA' WHERE id = $1", [uid]);
    const other = await session((await signIn(email, PASSWORD)).body.idToken);
    const apiToken = await api(ferry.baseUrl, '/api/auth/tokens', {
      method: 'POST',
      headers: bearer(token),
      json: { name: 'ci' },
    });
    const newPassword = 'a fresh and long passphrase';

    expect((await change(null, { currentPassword: PASSWORD, newPassword })).status).toBe(401);
    const wrong = await change(token, { currentPassword: 'not my password', newPassword });
    expect(wrong.body).toMatchObject({ status: 401, codes: ['INVALID_CREDENTIALS'] });
    expect((await change(token, { currentPassword: PASSWORD, newPassword: 'short' })).status).toBe(400);
    expect((await me(other)).body.user.email).toBe(email); // nothing changed yet
    expect(noticesTo(email)).toHaveLength(0);

    const changed = await change(token, { currentPassword: PASSWORD, newPassword });
    expect(changed).toMatchObject({ status: 200, body: { revoked: 1 } });
    expect((await me(token)).body.user.email).toBe(email);
    expect((await me(other)).status).toBe(401);
    // Personal API tokens are not sessions: they stay until revoked on /account/integrations.
    expect((await me(apiToken.body.token)).body.user.email).toBe(email);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, newPassword)).status).toBe(200);
    const [row] = await query<{ password_hash: string }>(
      ferry,
      'SELECT password_hash FROM users WHERE id = $1',
      [uid],
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);

    const notice = await sink.waitFor((m) => m.to.includes(email) && /modifié/.test(m.parsed.subject ?? ''));
    expect(notice.parsed.subject).toBe('Votre mot de passe Ferry a été modifié');
    expect(notice.parsed.text).toContain(email);
    expect(notice.parsed.text).toMatch(/https?:\/\/[^/\s]+\/forgot-password/);
    expect(notice.parsed.html).toContain('lang="fr"');
  });

  it('voids every id token minted before the change: a stolen session cannot mint its way back in', async () => {
    const { email, token } = await signedIn('change-idtoken');
    const stolen = await session((await signIn(email, PASSWORD)).body.idToken);
    // The thief mints an id token from the stolen session before the owner changes the password.
    const minted = await api(ferry.baseUrl, '/api/auth/auth/id-token', { headers: bearer(stolen) });
    expect(minted.status).toBe(200);
    const ownMinted = await api(ferry.baseUrl, '/api/auth/auth/id-token', { headers: bearer(token) });

    const newPassword = 'a fresh and long passphrase';
    expect((await change(token, { currentPassword: PASSWORD, newPassword })).body).toEqual({ revoked: 1 });
    expect((await me(stolen)).status).toBe(401);
    for (const old of [minted.body.idToken, ownMinted.body.idToken]) {
      const replay = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
        headers: { 'id-token': old },
      });
      expect(replay.body).toMatchObject({
        status: 400,
        codes: ['VALIDATION_FAILED'],
        details: { reason: 'INVALID_TOKEN' },
      });
    }
    // The calling session stays, and what it mints now is good.
    expect((await me(token)).body.user.email).toBe(email);
    const fresh = await api(ferry.baseUrl, '/api/auth/auth/id-token', { headers: bearer(token) });
    expect(typeof (await session(fresh.body.idToken))).toBe('string');
    expect(typeof (await session((await signIn(email, newPassword)).body.idToken))).toBe('string');
  });

  it('mails the notice in English by default', async () => {
    const { email, token } = await signedIn('change-en');
    const changed = await change(token, {
      currentPassword: PASSWORD,
      newPassword: 'another long passphrase',
    });
    expect(changed.body).toEqual({ revoked: 0 });
    const notice = await sink.waitFor((m) => m.to.includes(email) && /changed/.test(m.parsed.subject ?? ''));
    expect(notice.parsed.subject).toBe('Your Ferry password was changed');
  });

  it('counts wrong current passwords against the sign-in lockout (429)', async () => {
    const { email, token } = await signedIn('change-guess');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await change(token, { currentPassword: `guess ${i}`, newPassword: 'whatever it may be' })).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const locked = await change(token, { currentPassword: PASSWORD, newPassword: 'whatever it may be' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(email, PASSWORD)).status).toBe(429); // the same lockout as sign-in
    expect(noticesTo(email)).toHaveLength(0);
  });

  it('refuses with 409 NO_PASSWORD for an account that signs in with a provider only', async () => {
    const { email, uid, token } = await signedIn('change-oidc');
    await query(ferry, 'UPDATE users SET password_hash = NULL WHERE id = $1', [uid]);
    const res = await change(token, { currentPassword: PASSWORD, newPassword: 'a new passphrase here' });
    expect(res.body).toMatchObject({ status: 409, codes: ['CONFLICT'], details: { reason: 'NO_PASSWORD' } });
    expect(noticesTo(email)).toHaveLength(0);
  });
});
