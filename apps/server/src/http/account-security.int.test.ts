import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../test/flows.js';
import { startTestFerry, type TestFerry } from '../test/harness.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * What an account's owner can rely on against someone who signs the address up again, holds a stolen session
 * or knows the mailbox: on a real server, database and SMTP server (the sign-up calls of auth.int.test.ts are
 * counted against the registrations allowed per client, hence a server of its own).
 */
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
const address = (label: string) => `${label}-${process.pid}-${++n}@people.example`;
const linkToken = (m: ReceivedMail, page: string) =>
  new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`).exec(m.parsed.text ?? '')![1]!;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const session = (idToken: string) =>
  api(ferry.baseUrl, '/api/auth/auth/session-cookie', { headers: { 'id-token': idToken } });
const me = async (headers: Record<string, string>) =>
  (await api(ferry.baseUrl, '/api/auth/me', { headers })).body;

/** Registers, verifies and signs in an account (a one-day session); returns its address and session token. */
async function signedIn(label: string) {
  const email = address(label);
  await api(ferry.baseUrl, '/api/auth/register', { method: 'POST', json: { email, password: PASSWORD } });
  const token = linkToken(await sink.waitFor((m) => m.to.includes(email)), 'verify-email');
  const verified = await api(ferry.baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token } });
  const started = await session(verified.body.idToken);
  expect(started.status).toBe(200);
  return { email, token: started.body.sessionCookie as string };
}

describe('sign-ups, id tokens and resets that must not let anyone else in', () => {
  it('a sign-up again before verifying takes nothing over: each link activates its own password, the first followed voids the others', async () => {
    const email = address('takeover');
    const register = (password: string, firstname: string) =>
      api(ferry.baseUrl, '/api/auth/register', { method: 'POST', json: { email, password, firstname } });
    const signin = (password: string) =>
      api(ferry.baseUrl, '/api/auth/signin', { method: 'POST', json: { email, password } });
    expect((await register(PASSWORD, 'Victim')).status).toBe(202);
    const victimLink = linkToken(await sink.waitFor((m) => m.to.includes(email)), 'verify-email');
    // Someone else signs the same address up again, with a password of their own.
    const attacker = 'the attacker chose this one';
    expect((await register(attacker, 'Mallory')).status).toBe(202);
    const second = await sink.waitFor(
      (m) => m.to.includes(email) && linkToken(m, 'verify-email') !== victimLink,
    );
    const attackerLink = linkToken(second, 'verify-email');

    // The owner of the mailbox follows the first link: it activates the password of the first sign-up.
    const verified = await api(ferry.baseUrl, '/api/auth/verify-email', {
      method: 'POST',
      json: { token: victimLink },
    });
    expect(verified.status).toBe(200);
    expect((await signin(attacker)).body).toMatchObject({ status: 401, codes: ['INVALID_CREDENTIALS'] });
    expect((await signin(PASSWORD)).status).toBe(200);
    const started = await session(verified.body.idToken);
    expect(await me(bearer(started.body.sessionCookie))).toMatchObject({
      user: { email, displayName: 'Victim' },
    });
    // The other link is void now: it cannot switch the password to the attacker's.
    const late = await api(ferry.baseUrl, '/api/auth/verify-email', {
      method: 'POST',
      json: { token: attackerLink },
    });
    expect(late.body).toMatchObject({ status: 401, codes: ['INVALID_TOKEN'] });
    expect((await signin(attacker)).status).toBe(401);
    expect((await signin(PASSWORD)).status).toBe(200);
  });

  it('a second sign-up of a pending address, once its own link is followed, holds with its own password', async () => {
    const email = address('again');
    const register = (password: string) =>
      api(ferry.baseUrl, '/api/auth/register', { method: 'POST', json: { email, password } });
    const signin = (password: string) =>
      api(ferry.baseUrl, '/api/auth/signin', { method: 'POST', json: { email, password } });
    await register(PASSWORD);
    const firstLink = linkToken(await sink.waitFor((m) => m.to.includes(email)), 'verify-email');
    const newer = 'the password chosen second';
    await register(newer);
    const secondLink = linkToken(
      await sink.waitFor((m) => m.to.includes(email) && linkToken(m, 'verify-email') !== firstLink),
      'verify-email',
    );
    expect(
      (await api(ferry.baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token: secondLink } }))
        .status,
    ).toBe(200);
    expect((await signin(newer)).status).toBe(200);
    expect((await signin(PASSWORD)).status).toBe(401);
    const first = await api(ferry.baseUrl, '/api/auth/verify-email', {
      method: 'POST',
      json: { token: firstLink },
    });
    expect(first.body.codes).toEqual(['INVALID_TOKEN']);
    expect((await signin(newer)).status).toBe(200);
  });

  it('sign out everywhere voids the id tokens minted before it, and refuses a cross-site link', async () => {
    const { email, token } = await signedIn('everywhere');
    // An id token minted from a (stolen) session before the owner signs out everywhere.
    const minted = await api(ferry.baseUrl, '/api/auth/auth/id-token', { headers: bearer(token) });
    expect(minted.status).toBe(200);
    const fromSignIn = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    const own = (await session(fromSignIn.body.idToken)).body.sessionCookie as string;
    const cookie = { cookie: `ferry_session=${own}` };

    // A link on another site is a plain navigation: the cookie rides along, so the page's site decides.
    const crossSite = await api(ferry.baseUrl, '/api/auth/auth/sign-out?revokeAllSessions=true', {
      headers: { ...cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });
    expect(crossSite.body).toMatchObject({
      status: 403,
      codes: ['FORBIDDEN'],
      details: { reason: 'CROSS_SITE_REQUEST' },
    });
    expect((await me(bearer(token))).user.email).toBe(email);
    expect((await me(bearer(own))).user.email).toBe(email);

    const everywhere = await api(ferry.baseUrl, '/api/auth/auth/sign-out?revokeAllSessions=true', {
      headers: { ...cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(everywhere.body).toEqual({ revoked: 2 });
    const replay = await session(minted.body.idToken);
    expect(replay.body).toMatchObject({
      status: 400,
      codes: ['VALIDATION_FAILED'],
      details: { reason: 'INVALID_TOKEN' },
    });
    expect((await session(fromSignIn.body.idToken)).status).toBe(400);
    // Signing in again works as before.
    const again = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    expect((await session(again.body.idToken)).status).toBe(200);
  });

  it('a reset voids earlier id tokens, and on an account with a second factor asks for its code first', async () => {
    const { email, token } = await signedIn('reset-2fa');
    const setup = await api(ferry.baseUrl, '/api/auth/totp/setup', {
      method: 'POST',
      headers: bearer(token),
    });
    const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
    const enabled = await api(ferry.baseUrl, '/api/auth/totp/enable', {
      method: 'POST',
      headers: bearer(token),
      json: { code: totp.generate() },
    });
    expect(enabled.status).toBe(200);
    const minted = await api(ferry.baseUrl, '/api/auth/auth/id-token', { headers: bearer(token) });
    expect(minted.status).toBe(200);

    await api(ferry.baseUrl, '/api/auth/password/forgot', { method: 'POST', json: { email } });
    const mail = await sink.waitFor((m) => m.to.includes(email) && /Reset/.test(m.parsed.subject ?? ''));
    const resetToken = linkToken(mail, 'reset-password');
    const newPassword = 'a brand new passphrase';
    const reset = (totpCode?: string) =>
      api(ferry.baseUrl, '/api/auth/password/reset', {
        method: 'POST',
        json: { token: resetToken, password: newPassword, totp: totpCode },
      });
    // The mailbox alone is not enough: the code is asked, and nothing changed meanwhile.
    expect((await reset()).body).toMatchObject({ status: 401, codes: ['SECOND_FACTOR_REQUIRED'] });
    expect((await reset('not-a-recovery-code')).body).toMatchObject({
      status: 401,
      codes: ['SECOND_FACTOR_REQUIRED'],
      details: { wrongCode: true },
    });
    expect((await me(bearer(token))).user.email).toBe(email);
    const stillOld = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: newPassword },
    });
    expect(stillOld.body.codes).toEqual(['INVALID_CREDENTIALS']);

    // A recovery code does as well as a code from the app.
    const done = await reset(enabled.body.recoveryCodes[0]);
    expect(done.status).toBe(200);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(token) })).status).toBe(401);
    expect((await session(minted.body.idToken)).body).toMatchObject({
      status: 400,
      details: { reason: 'INVALID_TOKEN' },
    });
    expect((await session(done.body.idToken)).status).toBe(200);
    expect((await reset(enabled.body.recoveryCodes[1])).body.codes).toEqual(['INVALID_TOKEN']);
  });
});
