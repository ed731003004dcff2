import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeFerryServer } from '../test/fake-server.js';
import { main } from './main.js';

/** `ferry send --to/--from` (S1), sender verification and personal links, in process against the fake server. */
let root: string;
let server: FakeFerryServer;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ferry-s1-'));
  await mkdir(path.join(root, 'blobs'));
  server = new FakeFerryServer(path.join(root, 'blobs'));
  await server.start();
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

/** A stdin for the run: a pipe (or a terminal with `tty`) whose lines `answer` writes when `ferry` waits. */
interface Input {
  tty?: boolean;
  /** Called whenever stderr grows (e.g. with a question), with all of stderr so far; returns a line to type. */
  answer?: (stderr: string) => string | undefined;
  /** Written at once (like `echo 123456 | ferry …`); ended after. */
  piped?: string;
}

async function ferry(args: string[], input: Input = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: input.tty === true });
  // Nothing to answer: like `ferry … </dev/null` (or a closed stdin).
  if (input.piped !== undefined || !input.answer) stdin.end(input.piped ?? '');
  const code = await main(['node', 'ferry', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: {
      isTTY: false,
      write: (s: string) => {
        stderr += s;
        const line = input.answer?.(stderr);
        if (line !== undefined) setTimeout(() => stdin.write(`${line}\n`), 5);
        return true;
      },
    },
    env: { FERRY_STATE_DIR: path.join(root, 'state') },
    signal: new AbortController().signal,
    stdin,
  });
  return { code, stdout, stderr };
}

async function file(relative: string, bytes: number): Promise<string> {
  const p = path.join(root, 'src', relative);
  await mkdir(path.dirname(p), { recursive: true });
  await writeFile(p, randomBytes(bytes));
  return p;
}

const sha = async (p: string) =>
  createHash('sha256')
    .update(await readFile(p))
    .digest('hex');
const journals = async () =>
  (await readdir(path.join(root, 'state', 'uploads')).catch(() => [])).filter((n) => n.endsWith('.json'));
const senderFiles = async () =>
  (await readdir(path.join(root, 'state', 'senders')).catch(() => [])).filter((n) => n.endsWith('.json'));
const only = () => {
  const transfers = [...server.state.transfers.values()];
  expect(transfers).toHaveLength(1);
  return transfers[0]!;
};
const s1 = (src: string, ...more: string[]) => [
  'send',
  src,
  '--server',
  server.origin,
  '--to',
  'bob@example.com,carol@example.com',
  '--from',
  'ann@example.com',
  ...more,
];
/** Types the code mailed to ann once ferry asks (terminal) or waits (pipe). */
const typeCode = (stderr: string) =>
  /Enter the 6-digit code[^\n]*: $/.test(stderr) ? server.lastCode('ann@example.com') : undefined;

describe('ferry send --to (S1)', () => {
  it('sends by e-mail with the code piped in, reports each delivery, and needs no code the second time', async () => {
    const src = await file('report.pdf', 50_000);
    // The code is mailed when the transfer is created: pipe it in as soon as it exists.
    const created = new Promise<string>((resolve) => {
      const timer = setInterval(() => {
        const code = server.lastCode('ann@example.com');
        if (code) {
          clearInterval(timer);
          resolve(code);
        }
      }, 5);
    });
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    void created.then((code) => stdin.end(`${code}\n`));
    let stderr = '';
    let stdout = '';
    const code = await main(['node', 'ferry', ...s1(src, '--sender-name', 'Ann', '-m', 'Hi')], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: { FERRY_STATE_DIR: path.join(root, 'state') },
      signal: new AbortController().signal,
      stdin,
    });
    expect(code, stderr).toBe(0);
    const transfer = only();
    expect(stdout).toBe(`${server.origin}/dl/${transfer.transferId}\n`);
    expect(transfer).toMatchObject({
      type: 'S1',
      senderEmail: 'ann@example.com',
      senderName: 'Ann',
      senderVerification: 'verified',
      message: 'Hi',
    });
    expect(stderr).toContain('a 6-digit code was sent to ann@example.com');
    expect(stderr).toContain(
      'ferry: Sent to 2 recipients\nferry:   bob@example.com: sent\nferry:   carol@example.com: sent\n',
    );
    expect(
      server.state.mails
        .filter((m) => m.kind === 'recipient')
        .map((m) => m.to)
        .sort(),
    ).toEqual(['bob@example.com', 'carol@example.com']);
    expect(await journals()).toEqual([]);
    const tokens = await senderFiles();
    expect(tokens).toHaveLength(1);
    expect((await stat(path.join(root, 'state', 'senders', tokens[0]!))).mode & 0o777).toBe(0o600);

    // Bob downloads through his personal link.
    const bobMail = server.state.mails.find((m) => m.kind === 'recipient' && m.to === 'bob@example.com')!;
    const personal = /Download: (\S+)/.exec(bobMail.text)![1]!;
    const out = path.join(root, 'out');
    const got = await ferry(['get', personal, '--out', out]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stderr).toContain('personal link of bob@example.com');
    expect(await sha(path.join(out, 'report.pdf'))).toBe(await sha(src));
    expect(server.state.linkLog).toEqual([
      { transferId: transfer.transferId, recipient: 'bob@example.com', downloaderEmail: null },
    ]);
    expect(transfer.recipients.find((r) => r.email === 'bob@example.com')?.downloadedAt).not.toBeNull();

    // A second send from the same address: the saved token stands in for the code; nothing is read.
    const codes = server.state.mails.filter((m) => m.kind === 'verification').length;
    const other = await file('other.txt', 10);
    const again = await ferry(s1(other));
    expect(again.code, again.stderr).toBe(0);
    expect(server.state.mails.filter((m) => m.kind === 'verification')).toHaveLength(codes);
    expect([...server.state.transfers.values()].at(-1)?.senderVerification).toBe('verified');
    expect(again.stderr).not.toContain('code');
  });

  it('leaves the transfer waiting when no code can be read, and finishes it with --verification-code', async () => {
    const src = await file('a.txt', 1000);
    const first = await ferry(s1(src));
    expect(first.code).toBe(2);
    expect(first.stdout).toBe('');
    expect(first.stderr.trim().split('\n').at(-1)).toBe(
      'ferry: A code was sent to ann@example.com. Run the same command again with --verification-code CODE',
    );
    const transfer = only();
    expect(transfer.status).toBe('ENABLED'); // uploaded meanwhile
    expect(transfer.sentAt).toBeNull();
    expect(server.state.mails.filter((m) => m.kind === 'recipient')).toEqual([]);
    expect(await journals()).toHaveLength(1);

    const uploads = server.state.requests.filter((r) => r.startsWith('PATCH /api/transfer/uploads')).length;
    const second = await ferry(s1(src, '--verification-code', server.lastCode('ann@example.com')!));
    expect(second.code, second.stderr).toBe(0);
    expect(only().transferId).toBe(transfer.transferId); // the same transfer, resumed
    expect(server.state.requests.filter((r) => r.startsWith('PATCH /api/transfer/uploads'))).toHaveLength(
      uploads,
    );
    expect(second.stdout).toBe(`${server.origin}/dl/${transfer.transferId}\n`);
    expect(second.stderr).toContain('Sent to 2 recipients');
    expect(await journals()).toEqual([]);
    expect(await senderFiles()).toHaveLength(1);
  });

  it('reads the code from a pipe (echo 123456 | ferry send …), and refuses a wrong one with exit 2', async () => {
    const src = await file('a.txt', 10);
    const wrong = await ferry(s1(src), { piped: '000000\n' });
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr.trim().split('\n').at(-1)).toBe(
      'ferry: wrong verification code for ann@example.com; the transfer is uploaded and waits for the right one. ' +
        'Run the same command again with --verification-code CODE (or --resend-code for a new code)',
    );
    expect(await journals()).toHaveLength(1);
    const right = await ferry(s1(src), { piped: `${server.lastCode('ann@example.com')}\n` });
    expect(right.code, right.stderr).toBe(0);
    expect(only().sentAt).not.toBeNull();
  });

  it('asks on a terminal, again after a wrong code, and sends a new code on "r"', async () => {
    server.resendCooldownMs = 0;
    const src = await file('a.txt', 10);
    const answers = ['111111', 'r'];
    let asked = 0;
    const run = await ferry(s1(src), {
      tty: true,
      answer: (stderr) => {
        if (!/: $/.test(stderr)) return undefined;
        asked++;
        return answers.shift() ?? server.lastCode('ann@example.com');
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(asked).toBe(3);
    expect(run.stderr).toContain('Enter the 6-digit code sent to ann@example.com: ');
    expect(run.stderr).toContain(
      'Wrong verification code. Enter the 6-digit code sent to ann@example.com, or "r" for a new one: ',
    );
    expect(run.stderr).toContain('ferry: a new code was sent to ann@example.com');
    expect(server.state.mails.filter((m) => m.kind === 'verification')).toHaveLength(2);
    expect(only().senderVerification).toBe('verified');
  });

  it('gives up after three wrong codes on a terminal, with exit 2', async () => {
    const src = await file('a.txt', 10);
    const run = await ferry(s1(src), { tty: true, answer: (s) => (/: $/.test(s) ? '999999' : undefined) });
    expect(run.code).toBe(2);
    // (A terminal would echo each answer with its newline.)
    expect(run.stderr).toMatch(
      /: ferry: wrong verification code \(3 attempts\); the transfer is uploaded and waits for the right code\. Run the same command again with --verification-code CODE\n$/,
    );
    expect(run.stderr.match(/Enter the 6-digit code/g)).toHaveLength(3);
  });

  it('sends a new code when the given one expired, and says to run again', async () => {
    const src = await file('a.txt', 10);
    expect((await ferry(s1(src))).code).toBe(2);
    const old = server.lastCode('ann@example.com')!;
    server.expireCode(only().transferId);
    // The code was sent a moment ago: no new one may be asked for yet.
    const tooSoon = await ferry(s1(src, '--verification-code', old));
    expect(tooSoon.code).toBe(2);
    expect(tooSoon.stderr.trim().split('\n').at(-1)).toMatch(
      /^ferry: the verification code has expired\. Run the same command again with --resend-code in \d+ s for a new one$/,
    );
    server.resendCooldownMs = 0;
    const expired = await ferry(s1(src, '--verification-code', old));
    expect(expired.code).toBe(2);
    expect(expired.stderr.trim().split('\n').at(-1)).toBe(
      'ferry: the verification code has expired; a new one was sent to ann@example.com. ' +
        'Run the same command again with --verification-code CODE',
    );
    const fresh = server.lastCode('ann@example.com')!;
    expect(fresh).not.toBeUndefined();
    const done = await ferry(s1(src, '--verification-code', fresh));
    expect(done.code, done.stderr).toBe(0);
  });

  it('asks for a new code with --resend-code, and says how long to wait when asked too soon', async () => {
    const src = await file('a.txt', 10);
    expect((await ferry(s1(src))).code).toBe(2);
    const tooSoon = await ferry(s1(src, '--resend-code'));
    expect(tooSoon.code).toBe(2);
    expect(tooSoon.stderr).toMatch(/no new code yet: wait \d+ s before asking for another one/);
    server.resendCooldownMs = 0;
    const resent = await ferry(s1(src, '--resend-code'));
    expect(resent.code).toBe(2);
    expect(resent.stderr).toContain('a new code was sent to ann@example.com');
    expect(server.state.mails.filter((m) => m.kind === 'verification')).toHaveLength(2);
  });

  it('forgets a saved confirmation the server no longer accepts, and asks for a code', async () => {
    const src = await file('a.txt', 10);
    expect((await ferry(s1(src), { tty: true, answer: typeCode })).code).toBe(0);
    expect(await senderFiles()).toHaveLength(1);
    server.state.senderTokens.clear(); // e.g. revoked or expired on the server
    const other = await file('b.txt', 10);
    const run = await ferry(s1(other), { tty: true, answer: typeCode });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('the saved confirmation of ann@example.com is no longer valid');
    expect(await senderFiles()).toHaveLength(1); // the new token
    expect(server.state.senderTokens.size).toBe(1);
  });

  it('warns about a rejected recipient with the relay error, and passes the notification flags', async () => {
    server.senderVerification = false;
    server.deliveryFor = (email) =>
      email.startsWith('carol')
        ? { delivery: 'rejected', error: '550 5.1.1 no such user' }
        : { delivery: 'sent', error: null };
    const src = await file('a.txt', 10);
    const run = await ferry(s1(src, '--no-reminder', '--no-notify-downloads', '--no-summary', '-q'));
    expect(run.code, run.stderr).toBe(0);
    // --quiet keeps the warnings only.
    expect(run.stderr).toBe('ferry: warning: carol@example.com: rejected: 550 5.1.1 no such user\n');
    expect(only().notifications).toEqual({
      downloadConfirmation: false,
      expiryReminder: false,
      summary: false,
      forceEmailWhenDownloadS2: false,
    });
  });

  it('stops waiting for deliveries on Ctrl-C: the transfer is sent, exit 0', async () => {
    server.senderVerification = false;
    server.deliveryDelayMs = 60_000;
    const src = await file('a.txt', 10);
    const abort = new AbortController();
    let stdout = '';
    let stderr = '';
    const code = await main(['node', 'ferry', ...s1(src)], {
      stdout: {
        write: (s: string) => {
          stdout += s;
          setTimeout(() => abort.abort(new Error('interrupted')), 50);
          return true;
        },
      },
      stderr: { write: (s: string) => (stderr += s) },
      env: { FERRY_STATE_DIR: path.join(root, 'state') },
      signal: abort.signal,
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`${server.origin}/dl/${only().transferId}\n`);
    expect(stderr).not.toContain('interrupted');
  });

  it('refuses --to without --from and too many recipients, before uploading', async () => {
    const src = await file('a.txt', 10);
    const noFrom = await ferry(['send', src, '--server', server.origin, '--to', 'bob@example.com']);
    expect(noFrom.code).toBe(1);
    expect(noFrom.stderr).toBe(
      'ferry: --to needs --from <your e-mail address> (or sign in with ferry login): recipients are told who sent the files\n',
    );
    const bad = await ferry(['send', src, '--server', server.origin, '--to', 'bob@', '--from', 'a@x.io']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"bob@" is not an e-mail address.');
    server.maxRecipients = 1;
    const many = await ferry(s1(src));
    expect(many.code).toBe(1);
    expect(many.stderr).toBe('ferry: Too many recipients. (recipients: 2 > max 1)\n');
    expect(server.state.requests.filter((r) => r.includes('/uploads'))).toEqual([]);
  });

  it('resumes an interrupted S1 upload and asks for the code at the end', async () => {
    const big = await file('big.bin', 6 * 1024 * 1024);
    const abort = new AbortController();
    server.onBytes = (total) => {
      if (total > 2 * 1024 * 1024) abort.abort(new Error('interrupted'));
    };
    const first = await main(['node', 'ferry', ...s1(big)], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: { FERRY_STATE_DIR: path.join(root, 'state') },
      signal: abort.signal,
    });
    expect(first).toBe(130);
    server.onBytes = null;
    const second = await ferry(s1(big), { piped: `${server.lastCode('ann@example.com')}\n` });
    expect(second.code, second.stderr).toBe(0);
    expect(only().sentAt).not.toBeNull();
    expect(server.state.resumedAt.at(-1)).toBeGreaterThan(0);
  }, 30_000);
});

describe('ferry send --require-email / ferry get --email (S2)', () => {
  it('makes downloaders give an address: exit 2 without one, asked on a terminal, passed with --email', async () => {
    const src = await file('a.txt', 100);
    const sent = await ferry(['send', src, '--server', server.origin, '--require-email']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(only().notifications.forceEmailWhenDownloadS2).toBe(true);
    const link = sent.stdout.trim();

    const none = await ferry(['get', link, '--out', path.join(root, 'o1')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'ferry: this transfer asks for your e-mail address before downloading; pass --email\n',
    );
    expect(server.state.linkCalls).toBe(0);

    const given = await ferry(['get', link, '--out', path.join(root, 'o2'), '--email', 'dan@example.com']);
    expect(given.code, given.stderr).toBe(0);
    expect(await sha(path.join(root, 'o2', 'a.txt'))).toBe(await sha(src));

    const asked = await ferry(['get', link, '--out', path.join(root, 'o3')], {
      tty: true,
      answer: (s) =>
        s.endsWith('enter your e-mail address: ')
          ? s.includes('not an e-mail')
            ? 'eve@example.com'
            : 'eve'
          : undefined,
    });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toContain('ferry: "eve" is not an e-mail address');
    expect(server.state.linkLog.map((l) => l.downloaderEmail)).toEqual([
      'dan@example.com',
      'eve@example.com',
    ]);
  });

  it('confirms the sender of a link transfer who wants download e-mails', async () => {
    const src = await file('a.txt', 10);
    const run = await ferry(
      ['send', src, '--server', server.origin, '--from', 'ann@example.com', '--notify-downloads'],
      { tty: true, answer: typeCode },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(only()).toMatchObject({ type: 'S2', senderVerification: 'verified' });
    expect(run.stderr).not.toContain('Sent to');
    await ferry(['get', run.stdout.trim(), '--out', path.join(root, 'o')]);
    expect(server.state.mails.filter((m) => m.kind === 'confirmation').map((m) => m.to)).toEqual([
      'ann@example.com',
    ]);
  });
});
