import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { startTestIdp, type TestIdp } from '../test/oidc-idp.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * Sign-in with OpenID Connect, end to end: a real provider (oidc-provider, PKCE required) on a loopback port, a
 * real Ferry, and a "browser" that follows redirects by hand and keeps cookies per origin and path.
 */
let idp: TestIdp;
let plainIdp: TestIdp;
let sink: SmtpSink;
let ferry: TestFerry;
const PASSWORD = 'correct horse battery';

/** A port nothing listens on: a provider that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  idp = await startTestIdp();
  plainIdp = await startTestIdp({ claimsInIdToken: false });
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      OIDC_TIMEOUT_SECONDS: '3',
      OIDC_PROVIDERS: JSON.stringify({
        acme: {
          issuer: idp.issuer,
          clientId: 'ferry',
          clientSecret: 'acme-secret-0123456789',
          label: 'Acme SSO',
        },
        plain: { issuer: plainIdp.issuer, clientId: 'ferry', clientSecret: 'plain-secret-0123456789' },
        down: { issuer: `http://127.0.0.1:${await closedPort()}`, clientId: 'ferry' },
      }),
    },
  });
  // The providers learn Ferry's address only now: Ferry discovers them on first use, not at start.
  for (const [name, p] of [
    ['acme', idp],
    ['plain', plainIdp],
  ] as const)
    await p.register({
      clientId: 'ferry',
      clientSecret: `${name}-secret-0123456789`,
      redirectUris: [`${ferry.baseUrl}/api/auth/oidc/${name}/callback`],
    });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
  await idp?.close();
  await plainIdp?.close();
});

interface Cookie {
  origin: string;
  name: string;
  value: string;
  path: string;
}

/** A browser: cookies per origin and path, redirects followed one by one. */
class Browser {
  cookies: Cookie[] = [];

  header(url: URL): string {
    return this.cookies
      .filter((c) => c.origin === url.origin && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }

  async request(url: URL, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header(url) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attr = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attr('path') ?? '/';
      const expired =
        attr('max-age') === '0' || (attr('expires') && Date.parse(attr('expires')!) < Date.now()) || !value;
      this.cookies = this.cookies.filter(
        (c) => !(c.origin === url.origin && c.name === name && c.path === path),
      );
      if (!expired) this.cookies.push({ origin: url.origin, name, value, path });
    }
    return res;
  }

  /** Follows redirects until one leaves the API for a Ferry page (or `stop` says so); returns that URL. */
  async follow(start: string, stop: (url: URL) => boolean = () => false): Promise<URL> {
    let url = new URL(start);
    for (let hop = 0; hop < 20; hop++) {
      if (stop(url)) return url;
      const res = await this.request(url);
      await res.arrayBuffer();
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location)
        throw new Error(`${url.href} answered ${res.status} without a redirect`);
      url = new URL(location, url);
      if (url.origin === ferry.baseUrl && !url.pathname.startsWith('/api/')) return url;
    }
    throw new Error('too many redirects');
  }

  async me() {
    return (
      await api(ferry.baseUrl, '/api/auth/me', { headers: { cookie: this.header(new URL(ferry.baseUrl)) } })
    ).body;
  }
}

let n = 0;
const address = (label: string) => `${label}-${process.pid}-${++n}@people.example`;

/** A person at the provider; returns their id (the `sub`). */
function person(p: TestIdp, claims: { email?: string; email_verified?: boolean; given_name?: string }) {
  const id = `person-${++n}`;
  p.accounts.set(id, claims);
  return id;
}

async function signIn(
  browser: Browser,
  login: string | null,
  opts: { provider?: string; query?: string } = {},
) {
  const provider = opts.provider ?? 'acme';
  (provider === 'plain' ? plainIdp : idp).nextLogin = login;
  return browser.follow(`${ferry.baseUrl}/api/auth/oidc/${provider}/start${opts.query ?? ''}`);
}

const userIds = async (email: string) =>
  (await query<{ id: string }>(ferry, 'SELECT id FROM users WHERE lower(email) = lower($1)', [email])).map(
    (r) => r.id,
  );

/** Registers and verifies a password account through the mailed link. */
async function passwordAccount(email: string, verify = true) {
  const reg = await api(ferry.baseUrl, '/api/auth/register', {
    method: 'POST',
    json: { email, password: PASSWORD, firstname: 'Pat' },
  });
  expect(reg.status).toBe(202);
  const mail = await sink.waitFor((m) => m.to.includes(email));
  if (!verify) return;
  const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')![1]!;
  expect(
    (await api(ferry.baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token } })).status,
  ).toBe(200);
}

describe('sign-in with OpenID Connect', () => {
  it('lists the configured providers for the sign-in page', async () => {
    const res = await api(ferry.baseUrl, '/api/auth/oidc/providers');
    expect(res.body).toEqual([
      { name: 'acme', label: 'Acme SSO' },
      { name: 'plain', label: 'plain' },
      { name: 'down', label: 'down' },
    ]);
  });

  it('sends the browser to the provider with PKCE, state, nonce and the exact callback address', async () => {
    const browser = new Browser();
    const res = await browser.request(new URL(`${ferry.baseUrl}/api/auth/oidc/acme/start?next=/dashboard`));
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: 'ferry',
      response_type: 'code',
      redirect_uri: `${ferry.baseUrl}/api/auth/oidc/acme/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.stringMatching(/.{20,}/),
      nonce: expect.stringMatching(/.{20,}/),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('ferry_oidc='))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).toMatch(/Path=\/api\/auth\/oidc\//);
    expect(set).toMatch(/Max-Age=600/);
    // The cookie is signed, not secret: it holds what the callback checks, and the verifier stays here.
    const tx = JSON.parse(Buffer.from(browser.cookie('ferry_oidc')!.split('.')[0]!, 'base64url').toString());
    expect(tx).toMatchObject({ state: to.searchParams.get('state'), nonce: to.searchParams.get('nonce') });
    expect(to.searchParams.get('code_challenge')).toBe(
      createHash('sha256').update(tx.pkceVerifier).digest('base64url'),
    );
    expect(to.href).not.toContain(tx.pkceVerifier);
  });

  it('refuses a team member past the last seat with /signin?error=max_licences, and lets them in once there is one', async () => {
    const managerEmail = address('manager');
    const memberEmail = address('member');
    const managerId = person(idp, { email: managerEmail, email_verified: true });
    const memberId = person(idp, { email: memberEmail, email_verified: true });
    await signIn(new Browser(), managerId);
    await signIn(new Browser(), memberId);
    const [manager] = await userIds(managerEmail);
    const [member] = await userIds(memberEmail);
    await query(
      ferry,
      `UPDATE users SET plan_type = 'ENTERPRISE', plan_code = 'CUSTOM', limit_settings = '{"licences": 1}' WHERE id = $1`,
      [manager],
    );
    await query(ferry, 'UPDATE users SET manager_id = $2 WHERE id = $1', [member, manager]);
    const refused = new Browser();
    const landed = await signIn(refused, memberId);
    expect(`${landed.pathname}${landed.search}`).toBe('/signin?error=max_licences');
    expect(refused.cookie('ferry_session')).toBeUndefined();
    await query(ferry, `UPDATE users SET limit_settings = '{"licences": 2}' WHERE id = $1`, [manager]);
    const admitted = new Browser();
    await signIn(admitted, memberId);
    expect(await admitted.me()).toMatchObject({
      user: { email: memberEmail },
      managerId: manager,
      planType: 'ENTERPRISE',
    });
  });

  it('creates a verified user and signs them in; a second sign-in is the same user', async () => {
    const email = address('new');
    const id = person(idp, { email, email_verified: true, given_name: 'Nia' });
    const browser = new Browser();
    const landed = await signIn(browser, id, { query: '?next=%2Fdashboard%3Ftab%3D2&staySignedIn=true' });
    expect(landed.href).toBe(`${ferry.baseUrl}/dashboard?tab=2`);
    expect(browser.cookie('ferry_oidc')).toBeUndefined(); // used once, then cleared
    expect(await browser.me()).toMatchObject({
      user: { email, displayName: 'Nia' },
      currentSignInProvider: 'acme',
      planType: 'NONE',
    });
    const token = browser.cookie('ferry_session')!;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ email, sign_in_provider: 'acme' });
    expect(claims.exp - claims.iat).toBe(20160 * 60); // stay signed in
    const [uid] = await userIds(email);
    const rows = await query(ferry, 'SELECT email_verified_at, password_hash FROM users WHERE id = $1', [
      uid,
    ]);
    expect(rows[0]).toMatchObject({ email_verified_at: expect.any(Date), password_hash: null });

    // Again, in the same browser (the provider remembers the person), then in another one.
    await signIn(browser, id);
    const sessions = await api(ferry.baseUrl, '/api/auth/sessions', {
      headers: { cookie: `ferry_session=${browser.cookie('ferry_session')}` },
    });
    expect(sessions.body).toHaveLength(1); // signing in again ended the previous session
    const other = new Browser();
    expect((await signIn(other, id)).pathname).toBe('/');
    expect((await other.me()).user.uid).toBe(uid);
    expect(await userIds(email)).toEqual([uid]);
    const lookup = await api(
      ferry.baseUrl,
      `/api/auth/providers/users/${encodeURIComponent(email)}/by-email`,
    );
    expect(lookup.body).toEqual({ providers: ['acme'] });
  });

  it('links an existing verified password account with the same verified address', async () => {
    const email = address('linked');
    await passwordAccount(email);
    const [uid] = await userIds(email);
    const browser = new Browser();
    await signIn(browser, person(idp, { email: email.toUpperCase(), email_verified: true }));
    expect(await browser.me()).toMatchObject({ user: { uid, email }, currentSignInProvider: 'acme' });
    expect(
      await query(ferry, 'SELECT provider, user_id FROM user_identities WHERE user_id = $1', [uid]),
    ).toEqual([{ provider: 'acme', user_id: uid }]);
    const lookup = await api(
      ferry.baseUrl,
      `/api/auth/providers/users/${encodeURIComponent(email)}/by-email`,
    );
    expect(lookup.body).toEqual({ providers: ['password', 'acme'] });
    // The password still works.
    const signin = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    expect(signin.status).toBe(200);
  });

  it('keeps the plan picked on /register for a new account; ignores an invalid plan', async () => {
    const email = address('plan');
    const browser = new Browser();
    const landed = await signIn(browser, person(idp, { email, email_verified: true }), {
      query: '?plan=PREMIUM&frequency=ANNUAL&trial=true',
    });
    expect(landed.pathname).toBe('/');
    expect(await browser.me()).toMatchObject({
      user: { email },
      chosenPlan: { type: 'PREMIUM', frequency: 'ANNUAL', trial: true },
    });
    const typeOnly = new Browser();
    await signIn(typeOnly, person(idp, { email: address('plan-type'), email_verified: true }), {
      query: '?plan=TEAM10',
    });
    expect((await typeOnly.me()).chosenPlan).toEqual({ type: 'TEAM10' });

    for (const invalid of [
      '?plan=GOLD&frequency=ANNUAL',
      '?plan=PREMIUM&frequency=WEEKLY',
      '?plan=PREMIUM&trial=maybe',
      '?plan=PREMIUM&plan=TEAM10',
      '?frequency=ANNUAL&trial=true',
    ]) {
      const other = new Browser();
      const at = await signIn(other, person(idp, { email: address('bad-plan'), email_verified: true }), {
        query: invalid,
      });
      expect(at.pathname, invalid).toBe('/');
      expect(await other.me(), invalid).toMatchObject({
        user: { email: expect.any(String) },
        chosenPlan: null,
      });
    }
  });

  it('gives an existing account without a plan the one picked, and keeps an existing choice', async () => {
    const email = address('plan-later');
    const id = person(idp, { email, email_verified: true });
    await signIn(new Browser(), id); // an account, no plan
    const browser = new Browser();
    await signIn(browser, id, { query: '?plan=TEAM10&frequency=MONTHLY&trial=false' });
    expect((await browser.me()).chosenPlan).toEqual({ type: 'TEAM10', frequency: 'MONTHLY', trial: false });
    const again = new Browser();
    await signIn(again, id, { query: '?plan=PREMIUM&frequency=ANNUAL' });
    expect((await again.me()).chosenPlan).toEqual({ type: 'TEAM10', frequency: 'MONTHLY', trial: false });

    // A password account that chose on /register keeps that choice when it links a provider.
    const chosen = address('plan-password');
    const reg = await api(ferry.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: { email: chosen, password: PASSWORD, plan: { type: 'PREMIUM', frequency: 'BIANNUAL' } },
    });
    expect(reg.status).toBe(202);
    await sink.waitFor((m) => m.to.includes(chosen));
    const linked = new Browser();
    await signIn(linked, person(idp, { email: chosen, email_verified: true }), {
      query: '?plan=TEAM10&frequency=ANNUAL&trial=true',
    });
    expect(await linked.me()).toMatchObject({
      user: { email: chosen },
      chosenPlan: { type: 'PREMIUM', frequency: 'BIANNUAL' },
    });
  });

  it('gives a pending sign-up to the provider-proven owner, dropping the unproven password', async () => {
    const email = address('pending');
    await passwordAccount(email, false);
    const browser = new Browser();
    await signIn(browser, person(idp, { email, email_verified: true }));
    expect((await browser.me()).user.email).toBe(email);
    const signin = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email, password: PASSWORD },
    });
    expect(signin.body).toMatchObject({ status: 401, codes: ['INVALID_CREDENTIALS'] });
  });

  it('never links or creates an account for an address the provider did not verify', async () => {
    const email = address('taken');
    await passwordAccount(email);
    const [uid] = await userIds(email);
    const browser = new Browser();
    const landed = await signIn(browser, person(idp, { email, email_verified: false }));
    expect(`${landed.pathname}${landed.search}`).toBe('/signin?error=email_not_verified');
    expect((await browser.me()).user).toBeNull();
    expect(await query(ferry, 'SELECT 1 FROM user_identities WHERE user_id = $1', [uid])).toEqual([]);

    const free = address('unverified');
    const again = await signIn(new Browser(), person(idp, { email: free, email_verified: false }));
    expect(again.search).toBe('?error=email_not_verified');
    expect(await userIds(free)).toEqual([]);
    const none = await signIn(new Browser(), person(idp, {}));
    expect(none.search).toBe('?error=email_missing');
  });

  it('refuses a tampered state, an answer without its browser cookie, and a forged cookie', async () => {
    const browser = new Browser();
    const id = person(idp, { email: address('csrf'), email_verified: true });
    idp.nextLogin = id;
    const atCallback = (url: URL) => url.pathname.endsWith('/callback');
    const answer = await browser.follow(`${ferry.baseUrl}/api/auth/oidc/acme/start`, atCallback);
    const landing = async (b: Browser, url: URL, init?: RequestInit) => {
      const res = await b.request(url, init);
      return { status: res.status, location: res.headers.get('location') };
    };

    const tampered = new URL(answer);
    tampered.searchParams.set('state', `${answer.searchParams.get('state')}x`);
    expect(await landing(browser, tampered)).toEqual({
      status: 302,
      location: '/signin?error=state_mismatch',
    });
    // Someone else's answer (login CSRF): this browser has no sign-in in progress.
    expect(await landing(new Browser(), answer)).toEqual({
      status: 302,
      location: '/signin?error=state_mismatch',
    });
    const forged = new Browser();
    forged.cookies.push({
      origin: ferry.baseUrl,
      name: 'ferry_oidc',
      value: `${Buffer.from(JSON.stringify({ provider: 'acme', state: answer.searchParams.get('state') })).toString('base64url')}.AAAA`,
      path: '/',
    });
    expect(await landing(forged, answer)).toEqual({ status: 302, location: '/signin?error=state_mismatch' });
    expect((await browser.me()).user).toBeNull();
    expect(browser.cookie('ferry_session')).toBeUndefined();
  });

  it('takes the answer as a form post too (Apple answers so)', async () => {
    const browser = new Browser();
    const email = address('posted');
    idp.nextLogin = person(idp, { email, email_verified: true });
    const answer = await browser.follow(`${ferry.baseUrl}/api/auth/oidc/acme/start?next=/x`, (url) =>
      url.pathname.endsWith('/callback'),
    );
    const res = await browser.request(new URL(answer.pathname, answer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: answer.searchParams.toString(),
    });
    expect({ status: res.status, location: res.headers.get('location') }).toEqual({
      status: 302,
      location: '/x',
    });
    expect((await browser.me()).user.email).toBe(email);
  });

  it('reads the e-mail from the userinfo endpoint when the ID token lacks it', async () => {
    const email = address('userinfo');
    const browser = new Browser();
    const landed = await signIn(browser, person(plainIdp, { email, email_verified: true }), {
      provider: 'plain',
    });
    expect(landed.pathname).toBe('/');
    expect(await browser.me()).toMatchObject({ user: { email }, currentSignInProvider: 'plain' });
  });

  it('ignores a next that leaves the site', async () => {
    const id = person(idp, { email: address('next'), email_verified: true });
    for (const next of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const landed = await signIn(new Browser(), id, { query: `?next=${encodeURIComponent(next)}` });
      expect(landed.href).toBe(`${ferry.baseUrl}/`);
    }
  });

  it('lands on /signin with a code when the person cancels or the provider is down; 404 for unknown ones', async () => {
    const cancelled = await signIn(new Browser(), null);
    expect(cancelled.search).toBe('?error=cancelled');
    const started = Date.now();
    const down = await signIn(new Browser(), null, { provider: 'down' });
    expect(down.search).toBe('?error=provider_unavailable');
    expect(Date.now() - started).toBeLessThan(5000);
    for (const path of ['/api/auth/oidc/nope/start', '/api/auth/oidc/nope/callback?code=x&state=y']) {
      const res = await api(ferry.baseUrl, path);
      expect(res.body).toMatchObject({ status: 404, codes: ['NOT_FOUND'] });
    }
  });
});
