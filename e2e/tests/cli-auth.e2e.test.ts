import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { type FerryResult, lines, runFerry } from '../support/cli.js';
import { waitFor, writeRandomFile } from '../support/files.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * `ferry login` / `whoami` / `logout` and `ferry send` as a signed-in user, against the built server (accounts
 * created through the API, confirmed through the link of a real mail) and a real SMTP server.
 */

/** The embedded default's own database, reached the way the server reaches it (DATA_DIR/pg, its credentials). */
async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  const pid = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
  const port = Number(pid.split('\n')[3]);
  const { password } = JSON.parse(await fs.readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  return `postgres://ferry:${encodeURIComponent(password)}@127.0.0.1:${port}/ferry`;
}

/** The current code of a TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s), as an authenticator app shows it. */
function totp(base32: string, now = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...base32.replace(/=+$/, '').toUpperCase()]
    .map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0'))
    .join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const describeRun = (run: FerryResult) =>
  `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

const PASSWORD = 'a long enough passphrase';

describe('ferry login / whoami / logout against the built server', () => {
  let smtp: MailSink;
  let server: FerryProcess;
  let db: pg.Client;
  let work: string;
  let logs: Array<[string, string]> = [];

  /** `ferry ARGS…` with stdin closed (no terminal: flags only), its state in `state`. */
  const ferry = async (args: string[], state = 'state', env: Record<string, string> = {}) => {
    const run = await runFerry(args, { FERRY_STATE_DIR: path.join(work, state), ...env });
    logs.push([`${state}-${args[0]}.log`, `$ ferry ${args.join(' ')}\n${describeRun(run)}`]);
    return run;
  };

  /** A JSON call to the API, as another client (a browser, a script) would make it. */
  const api = async (
    method: string,
    apiPath: string,
    options: { body?: unknown; bearer?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    const res = await fetch(`${server.url}${apiPath}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };

  const confirmationMails = (address: string) =>
    smtp.messages.filter(
      (m) => m.to.includes(address) && m.parsed.subject === 'Confirm your e-mail address for Ferry',
    );

  /** The token of the newest confirmation link mailed to an address. */
  const verificationToken = async (address: string, count = 1): Promise<string> => {
    const mail = await waitFor(() => confirmationMails(address)[count - 1], {
      timeoutMs: 30_000,
      what: `confirmation mail #${count} to ${address}`,
    });
    const link = /\/verify-email\?token=([^\s"'<>&]+)/.exec(mail.parsed.text ?? '');
    expect(link, `a /verify-email link in ${mail.parsed.text}`).not.toBeNull();
    return decodeURIComponent(link![1]!);
  };

  /** Registers through the API and follows the mailed link: a confirmed account with a password. */
  const signUp = async (address: string): Promise<void> => {
    const registered = await api('POST', '/api/auth/register', {
      body: { email: address, password: PASSWORD },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(202);
    const verified = await api('POST', '/api/auth/verify-email', {
      body: { token: await verificationToken(address) },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(String(verified.body.idToken).split('.')).toHaveLength(3);
  };

  /** A session of another client (sign-in + session-cookie through the API): its token. */
  const otherClientSession = async (address: string): Promise<string> => {
    const signin = await api('POST', '/api/auth/signin', { body: { email: address, password: PASSWORD } });
    expect(signin.status, JSON.stringify(signin.body)).toBe(200);
    const session = await api('GET', '/api/auth/auth/session-cookie?expiresInMinutes=60', {
      headers: { 'id-token': String(signin.body.idToken) },
    });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    return String(session.body.sessionCookie);
  };

  const uidOf = async (bearer: string): Promise<string> => {
    const me = await api('GET', '/api/auth/me', { bearer });
    expect(me.status).toBe(200);
    return (me.body.user as { uid: string }).uid;
  };

  const credentialFiles = async (state = 'state') =>
    (await fs.readdir(path.join(work, state, 'credentials')).catch(() => [])).filter((f) =>
      f.endsWith('.json'),
    );

  const storedToken = async (state = 'state'): Promise<string> => {
    const [file] = await credentialFiles(state);
    expect(file, 'a stored credential').toBeDefined();
    return JSON.parse(await fs.readFile(path.join(work, state, 'credentials', file!), 'utf8')).token;
  };

  const transferRow = async (transferId: string) =>
    (
      await db.query<{ owner_id: string | null; sender_email: string | null; sender_verification: string }>(
        'SELECT owner_id, sender_email, sender_verification FROM transfers WHERE id = $1',
        [transferId],
      )
    ).rows[0];

  const ended = () => `ferry: Your session has ended; run ferry login --server ${server.url}\n`;

  beforeAll(async () => {
    smtp = await startMailSink();
    const port = await freePort();
    server = await FerryProcess.start({
      port,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    db = new pg.Client({ connectionString: await embeddedDatabaseUrl(server.dataDir) });
    await db.connect();
    work = await tempDir('cli-auth');
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      for (const [name, text] of logs) await saveArtifact(context, name, text);
      await saveArtifact(context, 'server.log', server.output);
      const subjects = smtp.messages.map((m) => `${m.to.join(', ')}: ${m.parsed.subject}`).join('\n');
      await saveArtifact(context, 'mails.txt', subjects);
    }
    logs = [];
  });

  afterAll(async () => {
    await db?.end().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await smtp?.close().catch(() => undefined);
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('signs in with --email/--password, whoami, sends as the user within their plan, logs out', async () => {
    const ann = 'ann@example.com';
    await signUp(ann);

    const login = await ferry(['login', '--server', server.url, '--email', ann, '--password', PASSWORD]);
    expect(login.code, describeRun(login)).toBe(0);
    expect(login.stdout).toBe('');
    expect(login.stderr).toBe(`Signed in as ${ann} (NONE)\n`);
    const [file] = await credentialFiles();
    expect((await fs.stat(path.join(work, 'state', 'credentials', file!))).mode & 0o777).toBe(0o600);
    const session = await storedToken();

    // The server knows the session: 14 days, this device.
    const deviceId = (await fs.readFile(path.join(work, 'state', 'device-id'), 'utf8')).trim();
    const sessions = await api('GET', '/api/auth/sessions', { bearer: session });
    expect(sessions.status).toBe(200);
    const mine = (sessions.body as unknown as Array<Record<string, unknown>>).find((s) => s.current);
    expect(mine?.deviceId).toBe(deviceId);
    const days = (Date.parse(String(mine?.expiresAt)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const who = await ferry(['whoami', '--server', server.url]);
    expect(who.code, describeRun(who)).toBe(0);
    expect(who.stdout).toBe(`${ann} NONE\n`);
    const uid = await uidOf(await otherClientSession(ann));
    const json = await ferry(['whoami', '--json', '--server', server.url]);
    expect(json.code, describeRun(json)).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ email: ann, planType: 'NONE', uid });

    // A paid plan (set as billing would): whoami and the limits of ferry send follow it at once.
    await db.query("UPDATE users SET plan_type = 'PREMIUM' WHERE id = $1", [uid]);
    expect((await ferry(['whoami', '--server', server.url])).stdout).toBe(`${ann} PREMIUM\n`);

    const source = path.join(work, 'src', 'plan.bin');
    await writeRandomFile(source, 200_000);
    // 30 days is over plan NONE's 7: refused anonymously…
    const anonymous = await ferry(
      ['send', source, '--server', server.url, '--expires-in-days', '30'],
      'anonymous',
    );
    expect(anonymous.code, describeRun(anonymous)).toBe(1);
    expect(anonymous.stderr).toContain('fileValidityInDays');
    // …and fine for ann, who sends by e-mail without --from and without a code: the account's address is hers.
    const sent = await ferry([
      'send',
      source,
      '--server',
      server.url,
      '--to',
      'bob@example.com',
      '--expires-in-days',
      '30',
    ]);
    expect(sent.code, describeRun(sent)).toBe(0);
    expect(sent.stderr).toContain(`ferry: sending as ${ann} (PREMIUM)\n`);
    expect(sent.stderr).toContain('ferry:   bob@example.com: sent\n');
    expect(sent.stderr).not.toContain('code');
    const link = lines(sent.stdout)[0]!;
    expect(link).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+$`));
    const transferId = new URL(link).pathname.slice(-16);
    expect(await transferRow(transferId)).toEqual({
      owner_id: uid,
      sender_email: ann,
      sender_verification: 'not_needed',
    });
    const bobMail = await waitFor(
      () =>
        smtp.messages.find((m) => m.to.includes('bob@example.com') && m.parsed.text?.includes(transferId)),
      { timeoutMs: 30_000, what: "bob's mail" },
    );
    expect(bobMail.parsed.text).toContain(ann);
    expect(
      smtp.messages.filter((m) => m.to.includes(ann) && /verification code/.test(m.parsed.subject ?? '')),
    ).toEqual([]);

    // ferry get with the stored session works as before.
    const got = await ferry(['get', link, '--out', path.join(work, 'got'), '-q']);
    expect(got.code, describeRun(got)).toBe(0);

    const logout = await ferry(['logout', '--server', server.url]);
    expect(logout.code, describeRun(logout)).toBe(0);
    expect(logout.stderr).toBe(`Signed out of ${server.url}\n`);
    expect(await credentialFiles()).toEqual([]);
    const afterLogout = await api('GET', '/api/auth/me', { bearer: session });
    expect(afterLogout.status).toBe(401);
    expect(afterLogout.body.codes).toEqual(['INVALID_TOKEN']);

    const whoAfter = await ferry(['whoami', '--server', server.url]);
    expect(whoAfter.code, describeRun(whoAfter)).toBe(1);
    expect(whoAfter.stdout).toBe('');
    expect(whoAfter.stderr).toBe(
      `ferry: not signed in to ${server.url}; run ferry login --server ${server.url}\n`,
    );
    const again = await ferry(['logout', '--server', server.url]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('not signed in');
  });

  it('a session revoked from another client makes the next command exit 2 and forgets it', async () => {
    const carol = 'carol@example.com';
    await signUp(carol);
    const login = await ferry(['login', '--server', server.url, '--email', carol, '--password', PASSWORD]);
    expect(login.code, describeRun(login)).toBe(0);

    // "Sign out everywhere" from a browser session.
    const other = await otherClientSession(carol);
    const out = await api('GET', '/api/auth/auth/sign-out?revokeAllSessions=true', { bearer: other });
    expect(out.status).toBe(200);
    expect(out.body.revoked).toBeGreaterThanOrEqual(2);

    const who = await ferry(['whoami', '--server', server.url]);
    expect(who.code, describeRun(who)).toBe(2);
    expect(who.stdout).toBe('');
    expect(who.stderr).toBe(ended());
    expect(await credentialFiles()).toEqual([]);
    expect((await ferry(['whoami', '--server', server.url])).code).toBe(1);

    // The same for ferry send: nothing is created.
    expect(
      (await ferry(['login', '--server', server.url, '--email', carol, '--password', PASSWORD])).code,
    ).toBe(0);
    const again = await otherClientSession(carol);
    expect(
      (await api('GET', '/api/auth/auth/sign-out?revokeAllSessions=true', { bearer: again })).status,
    ).toBe(200);
    const before = (await db.query('SELECT count(*)::int AS n FROM transfers')).rows[0].n;
    const source = path.join(work, 'src', 'carol.bin');
    await writeRandomFile(source, 1000);
    const sent = await ferry(['send', source, '--server', server.url]);
    expect(sent.code, describeRun(sent)).toBe(2);
    expect(sent.stderr).toBe(ended());
    expect((await db.query('SELECT count(*)::int AS n FROM transfers')).rows[0].n).toBe(before);
  });

  it('refuses a wrong password, and an unconfirmed address with "check your inbox" (exit 2)', async () => {
    const wrong = await ferry([
      'login',
      '--server',
      server.url,
      '--email',
      'ann@example.com',
      '--password',
      'not it at all',
    ]);
    expect(wrong.code, describeRun(wrong)).toBe(2);
    expect(wrong.stderr).toBe('ferry: wrong e-mail address or password\n');

    const dave = 'dave@example.com';
    const registered = await api('POST', '/api/auth/register', { body: { email: dave, password: PASSWORD } });
    expect(registered.status).toBe(202);
    await verificationToken(dave, 1);
    const unconfirmed = await ferry([
      'login',
      '--server',
      server.url,
      '--email',
      dave,
      '--password',
      PASSWORD,
    ]);
    expect(unconfirmed.code, describeRun(unconfirmed)).toBe(2);
    expect(unconfirmed.stderr).toContain('check your inbox');
    // A new link was mailed, and it works.
    const token = await verificationToken(dave, 2);
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    const login = await ferry(['login', '--server', server.url, '--email', dave, '--password', PASSWORD]);
    expect(login.code, describeRun(login)).toBe(0);
    expect(await credentialFiles()).toHaveLength(1);
  });

  it('an account with a second factor: without a terminal, exit 2 saying what to do', async () => {
    const gina = 'gina@example.com';
    await signUp(gina);
    const browser = await otherClientSession(gina);
    const setup = await api('POST', '/api/auth/totp/setup', { bearer: browser });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const enabled = await api('POST', '/api/auth/totp/enable', {
      bearer: browser,
      body: { code: totp(String(setup.body.secret)) },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);

    const login = await ferry(
      ['login', '--server', server.url, '--email', gina, '--password', PASSWORD],
      'totp-state',
    );
    expect(login.code, describeRun(login)).toBe(2);
    expect(login.stderr).toBe(
      `ferry: ${gina} signs in with a second factor: run ferry login on a terminal to type the code, or sign in ` +
        'with a personal API token (ferry login --token T)\n',
    );
    expect(await credentialFiles('totp-state')).toEqual([]);
  });

  it('ferry login --token keeps a personal API token created through POST /api/auth/tokens', async () => {
    const erin = 'erin@example.com';
    await signUp(erin);
    const browser = await otherClientSession(erin);
    const uid = await uidOf(browser);
    const created = await api('POST', '/api/auth/tokens', { bearer: browser, body: { name: 'e2e laptop' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = String(created.body.token);
    expect(token.startsWith('fry_')).toBe(true);

    const login = await ferry(['login', '--server', server.url, '--token', token], 'token-state');
    expect(login.code, describeRun(login)).toBe(0);
    expect(login.stderr).toBe(`Signed in as ${erin} (NONE)\n`);
    expect(await storedToken('token-state')).toBe(token);
    const json = await ferry(['whoami', '--json', '--server', server.url], 'token-state');
    expect(JSON.parse(json.stdout)).toEqual({ email: erin, planType: 'NONE', uid });

    const source = path.join(work, 'src', 'erin.bin');
    await writeRandomFile(source, 5000);
    const sent = await ferry(
      ['send', source, '--server', server.url, '--to', 'frank@example.com'],
      'token-state',
    );
    expect(sent.code, describeRun(sent)).toBe(0);
    expect(await transferRow(new URL(lines(sent.stdout)[0]!).pathname.slice(-16))).toMatchObject({
      owner_id: uid,
      sender_email: erin,
    });

    const logout = await ferry(['logout', '--server', server.url], 'token-state');
    expect(logout.code, describeRun(logout)).toBe(0);
    expect(logout.stderr).toContain('it still exists (and works) until you revoke it in the web app');
    expect((await api('GET', '/api/auth/me', { bearer: token })).body.user).toMatchObject({ uid });

    // Revoked in the web app: the token is refused at login, and a stored copy ends like a session.
    expect((await ferry(['login', '--server', server.url, '--token', token], 'token-state')).code).toBe(0);
    const revoked = await api('DELETE', `/api/auth/tokens/${created.body.id}`, { bearer: browser });
    expect(revoked.status).toBe(204);
    const who = await ferry(['whoami', '--server', server.url], 'token-state');
    expect(who.code, describeRun(who)).toBe(2);
    expect(who.stderr).toBe(ended());
    const refused = await ferry(['login', '--server', server.url, '--token', token], 'token-state');
    expect(refused.code, describeRun(refused)).toBe(2);
    expect(refused.stderr).toContain('the server refused this API token');
  });
});
