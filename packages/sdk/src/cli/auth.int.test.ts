import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAccount, FakeFerryServer } from '../test/fake-server.js';
import { CredentialStore } from './credentials.js';
import { main } from './main.js';

/** `ferry login`, `logout`, `whoami`, and `send`/`get` as the signed-in account, against the fake server. */
let root: string;
let server: FakeFerryServer;
let ann: FakeAccount;
const PASSWORD = 'correct horse battery';

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ferry-auth-'));
  await mkdir(path.join(root, 'blobs'));
  server = new FakeFerryServer(path.join(root, 'blobs'));
  await server.start();
  ann = server.addAccount({ email: 'ann@example.com', password: PASSWORD, planType: 'PREMIUM' });
});
afterEach(async () => {
  await server.kill();
  await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface Input {
  /** stdin is a terminal; with `raw`, one with raw mode (what hides a password), recording each switch. */
  tty?: boolean;
  raw?: boolean[];
  /** Called whenever stderr grows, with all of it so far; returns a line to type. */
  answer?: (stderr: string) => string | undefined;
  /** Written at once and ended (like `printf … | ferry login`). */
  piped?: string;
  env?: Record<string, string>;
  stateDir?: string;
}

async function ferry(args: string[], input: Input = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: input.tty === true });
  const modes = input.raw;
  if (modes) Object.assign(stdin, { setRawMode: (mode: boolean) => modes.push(mode) });
  if (input.piped !== undefined || !input.answer) stdin.end(input.piped ?? '');
  const code = await main(['node', 'ferry', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: {
      isTTY: false,
      write: (s: string) => {
        stderr += s;
        const line = input.answer?.(stderr);
        // In raw mode Enter sends a carriage return; otherwise the terminal hands over a line.
        if (line !== undefined)
          setTimeout(() => stdin.write(`${line}${modes?.at(-1) === true ? '\r' : '\n'}`), 5);
        return true;
      },
    },
    env: { FERRY_STATE_DIR: input.stateDir ?? path.join(root, 'state'), ...input.env },
    signal: new AbortController().signal,
    stdin,
  });
  return { code, stdout, stderr };
}

const login = (more: string[] = [], input: Input = {}) =>
  ferry(
    ['login', '--server', server.origin, '--email', 'ann@example.com', '--password', PASSWORD, ...more],
    input,
  );
const whoami = (more: string[] = [], input: Input = {}) =>
  ferry(['whoami', '--server', server.origin, ...more], input);
const credentialFiles = async (stateDir = path.join(root, 'state')) =>
  (await readdir(path.join(stateDir, 'credentials')).catch(() => [])).filter((n) => n.endsWith('.json'));
const stored = () => new CredentialStore(path.join(root, 'state')).get(server.origin);
const bearersOf = (request: string) => server.state.bearers.filter((b) => b.request === request);
const ended = () => `ferry: Your session has ended; run ferry login --server ${server.origin}\n`;

async function file(relative: string, bytes = 10): Promise<string> {
  const p = path.join(root, 'src', relative);
  await mkdir(path.dirname(p), { recursive: true });
  await writeFile(p, 'x'.repeat(bytes));
  return p;
}

describe('ferry login / whoami', () => {
  it('signs in with flags: a 14-day session for this device, stored per server (0600); whoami asks the server', async () => {
    const run = await login();
    expect(run).toEqual({ code: 0, stdout: '', stderr: 'Signed in as ann@example.com (PREMIUM)\n' });
    const deviceId = (await readFile(path.join(root, 'state', 'device-id'), 'utf8')).trim();
    expect(server.state.sessionCookieCalls).toEqual([
      { expiresInMinutes: 20160, deviceId, currentDomain: null },
    ]);
    const [session] = server.sessionsOf(ann.uid);
    expect(session?.deviceId).toBe(deviceId);

    const files = await credentialFiles();
    expect(files).toHaveLength(1);
    const saved = path.join(root, 'state', 'credentials', files[0]!);
    expect((await stat(saved)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(saved))).mode & 0o777).toBe(0o700);
    const text = await readFile(saved, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(JSON.parse(text)).toMatchObject({
      server: server.origin,
      kind: 'session',
      token: session?.token,
      email: 'ann@example.com',
      uid: ann.uid,
      planType: 'PREMIUM',
      expiresAt: new Date(session!.expiresAt).toISOString(),
    });

    expect(await whoami()).toEqual({ code: 0, stdout: 'ann@example.com PREMIUM\n', stderr: '' });
    const json = await whoami(['--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ email: 'ann@example.com', planType: 'PREMIUM', uid: ann.uid });
    expect(bearersOf('GET /api/auth/me').map((b) => b.token)).toEqual([
      session?.token,
      session?.token,
      session?.token,
    ]);

    // The plan changed since (e.g. paid in the web app): whoami says what the server says, and remembers it.
    ann.planType = 'TEAM';
    expect((await whoami()).stdout).toBe('ann@example.com TEAM\n');
    expect((await stored())?.planType).toBe('TEAM');
  });

  it('asks on a terminal for what is missing: the e-mail, the password without echo, the second factor', async () => {
    ann.totp = '246810';
    const raw: boolean[] = [];
    const asked: string[] = [];
    const run = await ferry(['login', '--server', server.origin], {
      tty: true,
      raw,
      answer: (stderr) => {
        // (Typed answers are not echoed here: the question is what follows the last colon.)
        const question = /([A-Z][^:\n]*: )$/.exec(stderr)?.[1];
        if (!question) return undefined;
        asked.push(question);
        if (question.startsWith('E-mail')) return asked.length === 1 ? 'ann' : 'ann@example.com';
        if (question.startsWith('Password')) return PASSWORD;
        return question.startsWith('Wrong code') ? '246 810' : '111111';
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(asked).toEqual([
      'E-mail address: ',
      'E-mail address: ',
      'Password: ',
      'Enter the code from your authenticator app (or a recovery code): ',
      'Wrong code. Enter the code from your authenticator app (or a recovery code): ',
    ]);
    expect(run.stderr).toContain('ferry: "ann" is not an e-mail address\n');
    expect(run.stderr).not.toContain(PASSWORD);
    expect(run.stderr.endsWith('Signed in as ann@example.com (PREMIUM)\n')).toBe(true);
    expect(raw).toEqual([true, false]); // raw mode (no echo) for the password only
  });

  it('without a terminal: a second factor is exit 2 with what to do; a password may be piped in', async () => {
    ann.totp = '246810';
    const twoFactor = await login();
    expect(twoFactor.code).toBe(2);
    expect(twoFactor.stderr).toBe(
      'ferry: ann@example.com signs in with a second factor: run ferry login on a terminal to type the code, ' +
        'or sign in with a personal API token (ferry login --token T)\n',
    );
    expect(await credentialFiles()).toEqual([]);

    ann.totp = null;
    const piped = await ferry(['login', '--server', server.origin, '--email', 'ann@example.com'], {
      piped: `${PASSWORD}\n`,
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('Signed in as ann@example.com (PREMIUM)\n');

    const noPassword = await ferry(['login', '--server', server.origin, '--email', 'ann@example.com']);
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toBe(
      'ferry: no password given: pass --password, pipe it into stdin, or run ferry login on a terminal\n',
    );
    const nothing = await ferry(['login', '--server', server.origin]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('no e-mail address given: pass --email');
  });

  it('refuses a wrong password and an unconfirmed address (exit 2, "check your inbox"); rate limited is exit 1', async () => {
    const wrong = await ferry([
      'login',
      '--server',
      server.origin,
      '--email',
      'ann@example.com',
      '--password',
      'nope',
    ]);
    expect(wrong).toEqual({ code: 2, stdout: '', stderr: 'ferry: wrong e-mail address or password\n' });
    expect(await credentialFiles()).toEqual([]);

    server.addAccount({ email: 'new@example.com', password: PASSWORD, verified: false });
    const unverified = await ferry([
      'login',
      '--server',
      server.origin,
      '--email',
      'new@example.com',
      '--password',
      PASSWORD,
    ]);
    expect(unverified.code).toBe(2);
    expect(unverified.stderr).toBe(
      'ferry: new@example.com is not confirmed yet: check your inbox for the confirmation link (a new one was ' +
        'just sent), then run ferry login again\n',
    );
    expect(server.state.mails.filter((m) => m.kind === 'verify-email').map((m) => m.to)).toEqual([
      'new@example.com',
    ]);

    server.maxSignInFailures = 1;
    const limited = await login();
    expect(limited.code).toBe(1);
    expect(limited.stderr).toBe('ferry: rate limited by the server: wait 60 s and try again\n');
  });

  it('stays signed out when the server gives no session (MAX_LICENCES_REACHED, USER_NOT_FOUND), keeping an earlier sign-in', async () => {
    expect((await login()).code).toBe(0);
    const before = await stored();
    server.sessionCookieError = 'MAX_LICENCES_REACHED';
    const full = await login();
    expect(full.code).toBe(1);
    expect(full.stderr).toBe(
      "ferry: ann@example.com belongs to a team that has no licence left: ask the team's manager for one (you stay signed out)\n",
    );
    server.sessionCookieError = 'USER_NOT_FOUND';
    const gone = await login();
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(
      'ferry: the server has no active account for ann@example.com (you stay signed out)\n',
    );
    expect((await stored())?.token).toBe(before?.token);
    expect((await whoami()).code).toBe(0);
  });

  it('signing in again replaces the stored session and ends the previous one on the server', async () => {
    expect((await login()).code).toBe(0);
    const first = (await stored())?.token;
    expect((await login()).code).toBe(0);
    const second = (await stored())?.token;
    expect(second).not.toBe(first);
    expect(server.sessionsOf(ann.uid).map((s) => s.token)).toEqual([second]);
  });

  it('keeps one sign-in per server', async () => {
    const other = new FakeFerryServer(path.join(root, 'blobs'));
    await other.start();
    try {
      other.addAccount({ email: 'bob@example.com', password: PASSWORD });
      expect((await login()).code).toBe(0);
      const bob = await ferry([
        'login',
        '--server',
        `${other.origin}/`,
        '--email',
        'bob@example.com',
        '--password',
        PASSWORD,
      ]);
      expect(bob.stderr).toBe('Signed in as bob@example.com (NONE)\n');
      expect(await credentialFiles()).toHaveLength(2);
      expect((await whoami()).stdout).toBe('ann@example.com PREMIUM\n');
      expect((await ferry(['whoami'], { env: { FERRY_SERVER: other.origin } })).stdout).toBe(
        'bob@example.com NONE\n',
      );
      expect((await ferry(['logout', '--server', other.origin])).code).toBe(0);
      expect((await whoami()).code).toBe(0);
    } finally {
      await other.kill();
    }
  });
});

describe('ferry login --token', () => {
  it('checks a personal API token with GET /api/auth/me and keeps it; logout forgets it and says it still exists', async () => {
    const token = server.addApiToken(ann.uid, 'laptop').token;
    const run = await ferry(['login', '--server', server.origin, '--token', token]);
    expect(run).toEqual({ code: 0, stdout: '', stderr: 'Signed in as ann@example.com (PREMIUM)\n' });
    expect(bearersOf('GET /api/auth/me').map((b) => b.token)).toEqual([token]);
    expect(server.state.requests).not.toContain('POST /api/auth/signin');
    expect(await stored()).toMatchObject({ kind: 'api-token', token, expiresAt: '' });
    expect((await whoami()).stdout).toBe('ann@example.com PREMIUM\n');

    const out = await ferry(['logout', '--server', server.origin]);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      `Signed out of ${server.origin}: the API token is forgotten here, but it still exists (and works) until ` +
        `you revoke it in the web app (${server.origin}/account/integrations)\n`,
    );
    expect(server.state.signOuts).toEqual([]);
    expect(server.state.apiTokens.has(token)).toBe(true);
    expect((await whoami()).code).toBe(1);
  });

  it('reads the token from stdin with a bare --token, and refuses a revoked or malformed one (exit 2)', async () => {
    const token = server.addApiToken(ann.uid).token;
    const piped = await ferry(['login', '--server', server.origin, '--token'], { piped: `${token}\n` });
    expect(piped.code, piped.stderr).toBe(0);
    expect((await stored())?.token).toBe(token);

    const revoked = await ferry(['login', '--server', server.origin, '--token', 'fry_revokedtoken']);
    expect(revoked.code).toBe(2);
    expect(revoked.stderr).toBe(
      'ferry: the server refused this API token: it was revoked, has expired or is mistyped\n',
    );
    expect((await stored())?.token).toBe(token); // the earlier sign-in stays
    const bogus = await ferry(['login', '--server', server.origin, '--token', 'hunter2']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('that is not a Ferry API token (they start with fry_)');
    const both = await ferry([
      'login',
      '--server',
      server.origin,
      '--token',
      token,
      '--email',
      'ann@example.com',
    ]);
    expect(both.code).toBe(1);
    expect(both.stderr).toBe('ferry: --token signs in on its own: leave out --email and --password\n');
  });
});

describe('ferry logout', () => {
  it('ends the session on the server (with the device id) and forgets it; not signed in is fine (exit 0)', async () => {
    expect((await login()).code).toBe(0);
    const run = await ferry(['logout', '--server', server.origin]);
    expect(run).toEqual({ code: 0, stdout: '', stderr: `Signed out of ${server.origin}\n` });
    const deviceId = (await readFile(path.join(root, 'state', 'device-id'), 'utf8')).trim();
    expect(server.state.signOuts).toEqual([{ deviceId, revokeAllSessions: false, revoked: 1 }]);
    expect(server.sessionsOf(ann.uid)).toEqual([]);
    expect(await credentialFiles()).toEqual([]);

    const again = await ferry(['logout', '--server', server.origin]);
    expect(again).toEqual({
      code: 0,
      stdout: '',
      stderr: `ferry: not signed in to ${server.origin}; nothing to do\n`,
    });
    const who = await whoami();
    expect(who).toEqual({
      code: 1,
      stdout: '',
      stderr: `ferry: not signed in to ${server.origin}; run ferry login --server ${server.origin}\n`,
    });
  });

  it('forgets a session the server ended already, and one it cannot reach (exit 1, saying it stays valid)', async () => {
    expect((await login()).code).toBe(0);
    server.revokeSessions(ann.uid);
    expect(await ferry(['logout', '--server', server.origin])).toMatchObject({
      code: 0,
      stderr: `Signed out of ${server.origin}\n`,
    });

    expect((await login()).code).toBe(0);
    const expiresAt = (await stored())?.expiresAt;
    await server.kill();
    const offline = await ferry(['logout', '--server', server.origin], { env: { FERRY_RETRY_SECONDS: '0' } });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(
      new RegExp(
        `^ferry: forgot the session here, but could not end it on the server \\(cannot reach ${server.origin.replace(/[.]/g, '\\.')} \\(ECONNREFUSED\\)\\); it stays valid until ${expiresAt} unless you sign out everywhere in the web app\\n$`,
      ),
    );
    expect(await credentialFiles()).toEqual([]);
  });
});

describe('an ended session', () => {
  it('makes whoami exit 2 with "Your session has ended; run ferry login", once: the credential is forgotten', async () => {
    expect((await login()).code).toBe(0);
    expect(server.revokeSessions(ann.uid)).toBe(1); // "sign out everywhere" from the web app
    const run = await whoami();
    expect(run).toEqual({ code: 2, stdout: '', stderr: ended() });
    expect(await credentialFiles()).toEqual([]);
    expect((await whoami()).code).toBe(1);

    // With the server as the default one, the hint needs no --server.
    expect((await login()).code).toBe(0);
    server.revokeSessions(ann.uid);
    const env = { FERRY_SERVER: server.origin };
    expect((await ferry(['whoami', '--json'], { env })).stderr).toBe(
      'ferry: Your session has ended; run ferry login\n',
    );
  });

  it('is noticed without asking the server once it is past its end', async () => {
    expect((await login()).code).toBe(0);
    const record = (await stored())!;
    await new CredentialStore(path.join(root, 'state')).put({
      ...record,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const requests = server.state.requests.length;
    expect(await whoami()).toEqual({ code: 2, stdout: '', stderr: ended() });
    expect(server.state.requests).toHaveLength(requests);
    expect(await credentialFiles()).toEqual([]);
  });

  it('stops ferry send before anything is created, and ferry get too (exit 2)', async () => {
    const src = await file('a.txt');
    const link = (await ferry(['send', src, '--server', server.origin])).stdout.trim();
    expect((await login()).code).toBe(0);
    server.revokeSessions(ann.uid);
    const transfers = server.state.transfers.size;
    const sent = await ferry(['send', src, '--server', server.origin, '--to', 'bob@example.com']);
    expect(sent).toEqual({ code: 2, stdout: '', stderr: ended() });
    expect(server.state.transfers.size).toBe(transfers);

    expect((await login()).code).toBe(0);
    server.revokeSessions(ann.uid);
    const got = await ferry(['get', link, '--out', path.join(root, 'out')]);
    expect(got.code).toBe(2);
    expect(got.stderr).toBe(ended());
    expect(await credentialFiles()).toEqual([]);
  });
});

describe('ferry send / get signed in', () => {
  it("sends as the account: it owns the transfer, its address needs no code, its plan's limits apply", async () => {
    const files = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => file(`set/f${n}.txt`)));
    const anonymous = await ferry(['send', ...files, '--server', server.origin]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toBe('ferry: Too many files. (files: 6 > max 5)\n');

    expect((await login()).code).toBe(0);
    const token = (await stored())?.token;
    const run = await ferry(
      ['send', ...files, '--server', server.origin, '--to', 'bob@example.com', '--expires-in-days', '30'],
      { piped: '' },
    );
    expect(run.code, run.stderr).toBe(0);
    const transfer = [...server.state.transfers.values()].at(-1)!;
    expect(run.stdout).toBe(`${server.origin}/dl/${transfer.transferId}\n`);
    expect(transfer).toMatchObject({
      type: 'S1',
      ownerId: ann.uid,
      senderEmail: 'ann@example.com',
      senderVerification: 'not_needed',
    });
    expect(run.stderr.split('\n')[0]).toBe('ferry: sending as ann@example.com (PREMIUM)');
    expect(run.stderr).toContain('ferry:   bob@example.com: sent');
    expect(server.state.mails.filter((m) => m.kind === 'verification')).toEqual([]);
    expect(bearersOf('POST /api/transfer/transfers').map((b) => b.token)).toEqual([null, token]);
    // tus uploads carry the upload token only.
    expect(server.state.bearers.filter((b) => b.request.includes('/uploads') && b.token)).toEqual([]);

    const got = await ferry(['get', run.stdout.trim(), '--out', path.join(root, 'out'), '-q']);
    expect(got.code, got.stderr).toBe(0);
    expect(bearersOf('GET /api/transfer/downloads/info').map((b) => b.token)).toEqual([token]);
  });

  it('refuses a link preview it cannot send before anything is created or uploaded (exit 1)', async () => {
    const src = await file('a.txt');
    const send = (...more: string[]) => ferry(['send', src, '--server', server.origin, ...more]);
    const refused = async (more: string[], message: string) => {
      const before = server.state.requests.length;
      const run = await send(...more);
      expect(run).toEqual({ code: 1, stdout: '', stderr: `ferry: ${message}\n` });
      // Nothing asked of the server but who is signed in: no transfer created, no byte uploaded.
      expect(server.state.requests.slice(before).filter((r) => !r.startsWith('GET /api/auth/me'))).toEqual(
        [],
      );
    };
    await refused(
      ['--og-title', 'Board pack'],
      '--og-title needs a paid plan: sign in first with `ferry login`',
    );
    expect((await login()).code).toBe(0);
    await refused(
      ['--og-title', 'x'.repeat(121)],
      '--og-title is too long: 121 characters, a link preview title has at most 120',
    );
    await refused(
      ['--og-description', `  ${'y'.repeat(301)}  `],
      '--og-description is too long: 301 characters, a link preview description has at most 300',
    );
    await refused(
      ['--og-title', 'Board pack', '--og-description', 'Minutes\nand figures'],
      '--og-description holds a line break or another control character: a link preview description is one line of plain text',
    );
    await refused(
      ['--og-title', 'invoice\u202Efdp.exe'],
      '--og-title holds a line break or another control character: a link preview title is one line of plain text',
    );
    await refused(
      ['--og-title', 'Board pack', '--og-description', 'Minutes', '--to', 'bob@example.com'],
      '--og-title and --og-description are for link transfers: the page of a transfer sent with --to only ever shows a general preview',
    );
    expect(server.state.transfers.size).toBe(0);

    // At the limits, and an empty one (no choice): sent.
    const sent = await send('--og-title', 'x'.repeat(120), '--og-description', '', '-q');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toBe('');
    expect(server.state.transfers.size).toBe(1);
    // With a password the page shows a general preview: sent, and said.
    const protectedSend = await send('--og-title', 'Board pack', '--password', 'pw', '-q');
    expect(protectedSend.code, protectedSend.stderr).toBe(0);
    expect(protectedSend.stderr).toBe(
      'ferry: the link preview is not shown while the transfer has a password: its page shows a general one\n',
    );
  });

  it('sends to another server anonymously: a sign-in counts for its own server only', async () => {
    const other = new FakeFerryServer(path.join(root, 'blobs'));
    await other.start();
    try {
      expect((await login()).code).toBe(0);
      const src = await file('a.txt');
      const run = await ferry(['send', src, '--server', other.origin]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('sending as');
      expect(other.state.bearers.every((b) => b.token === null)).toBe(true);
      expect([...other.state.transfers.values()][0]?.ownerId).toBeNull();
      const noFrom = await ferry(['send', src, '--server', other.origin, '--to', 'bob@example.com']);
      expect(noFrom.code).toBe(1);
      expect(noFrom.stderr).toContain(
        '--to needs --from <your e-mail address> (or sign in with ferry login)',
      );
    } finally {
      await other.kill();
    }
  });
});

describe('parsing and help', () => {
  it('checks --email, and documents the exit codes of each command', async () => {
    const bad = await ferry(['login', '--email', 'ann', '--password', 'x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"ann" is not an e-mail address.');
    const help = await ferry(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['login', 'logout', 'whoami']) expect(help.stdout).toContain(`  ${command}`);
    expect(help.stdout).toContain('the stored session has ended');
    const who = await ferry(['whoami', '--help']);
    expect(who.stdout).toContain('Exit codes: 0 signed in; 1 not signed in');
    const log = await ferry(['login', '--help']);
    expect(log.stdout).toContain('--token [token]');
    expect(log.stdout).toContain('Prints "Signed in as ann@example.com (PLAN)" on stderr.');
  });
});
