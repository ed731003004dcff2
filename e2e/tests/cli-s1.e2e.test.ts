import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { FERRY_BIN, type FerryResult, lines } from '../support/cli.js';
import { sha256File, waitFor, writeRandomFile } from '../support/files.js';
import { type Mail, type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, freePort, REPO_ROOT, tempDir } from '../support/server.js';

/** `ferry ARGS…` with a stdin we can write to, as `echo CODE | ferry …` gives it. */
function ferryWithStdin(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [FERRY_BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, FERRY_DEBUG: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<FerryResult>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    done,
    get output() {
      return `--- stdout\n${stdout}\n--- stderr\n${stderr}`;
    },
  };
}

const describeRun = (run: FerryResult) =>
  `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

describe('ferry send --to/--from against the built server and a real SMTP server', () => {
  let smtp: MailSink;
  let server: FerryProcess;
  let work: string;
  let env: Record<string, string>;
  let logs: Array<[string, () => string]> = [];

  const mailsTo = (address: string) => smtp.to(address);
  const codesSentTo = (address: string) =>
    mailsTo(address).filter((m) => /^\d{6} is your Ferry verification code$/.test(m.parsed.subject ?? ''));
  const personalLink = (mail: Mail) => {
    const found = new RegExp(`${server.url}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+`).exec(
      mail.parsed.text ?? '',
    );
    return found?.[0] ?? null;
  };
  const mailTo = (address: string, what: string, test: (m: Mail) => boolean = () => true) =>
    waitFor(() => mailsTo(address).find(test), { timeoutMs: 30_000, what });

  beforeAll(async () => {
    smtp = await startMailSink();
    const port = await freePort();
    server = await FerryProcess.start({
      port,
      env: {
        SMTP_URL: smtp.url,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DOWNLOAD_CONFIRMATION_DELAY_SECONDS: '0',
      },
    });
    work = await tempDir('cli-s1');
    // English mails unless a test asks otherwise, whatever this machine's locale.
    env = { FERRY_STATE_DIR: path.join(work, 'state'), LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      for (const [name, text] of logs) await saveArtifact(context, name, text());
      await saveArtifact(context, 'server.log', server.output);
      const subjects = smtp.messages.map((m) => `${m.to.join(', ')}: ${m.parsed.subject}`).join('\n');
      await saveArtifact(context, 'mails.txt', subjects);
    }
    logs = [];
  });

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await smtp?.close().catch(() => undefined);
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('sends by e-mail with the code piped in, recipients download through personal links, the sender hears of it', async () => {
    const source = path.join(work, 'src', 'quarterly-report.bin');
    const sourceSha = await writeRandomFile(source, 3 * 1024 * 1024 + 17);
    const args = [
      'send',
      source,
      '--server',
      server.url,
      '--from',
      'ann@example.com',
      '--sender-name',
      'Ann',
    ];
    const send = ferryWithStdin(
      [...args, '--to', 'bob@example.com', '--to', 'carol@example.com', '-m', 'The numbers'],
      env,
    );
    logs.push(['send.log', () => send.output]);

    // The code goes to the sender once the transfer exists; pipe it in, as `echo CODE | ferry send …` would.
    const codeMail = await mailTo('ann@example.com', 'the verification code mail', (m) =>
      /^\d{6} is your Ferry verification code$/.test(m.parsed.subject ?? ''),
    );
    const code = codeMail.parsed.subject!.slice(0, 6);
    expect(codeMail.parsed.text).toContain(code);
    send.child.stdin.end(`${code}\n`);

    const result = await send.done;
    expect(result.code, describeRun(result)).toBe(0);
    const out = lines(result.stdout);
    expect(out, 'stdout is the link and nothing else').toHaveLength(1);
    // The sender's own link: an S1 transfer opens only with a secret, a recipient's or the sender's.
    expect(out[0]).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}\\?userSecret=[A-Za-z0-9_-]+$`));
    const senderLink = out[0]!;
    const transferId = new URL(senderLink).pathname.slice(-16);
    expect(result.stderr).toContain('ferry: Sent to 2 recipients\n');
    expect(result.stderr).toContain('ferry:   bob@example.com: sent\n');
    expect(result.stderr).toContain('ferry:   carol@example.com: sent\n');
    expect(result.stderr).not.toContain('warning');

    // Each recipient gets their own link; neither is the sender's.
    const bobMail = await mailTo('bob@example.com', "bob's mail");
    const carolMail = await mailTo('carol@example.com', "carol's mail");
    expect(bobMail.parsed.subject).toBe('Ann sent you files with Ferry');
    expect(bobMail.parsed.text).toContain('The numbers');
    const bobLink = personalLink(bobMail);
    const carolLink = personalLink(carolMail);
    expect(bobLink).toContain(`/dl/${transferId}?userSecret=`);
    expect(carolLink).toContain(`/dl/${transferId}?userSecret=`);
    expect(bobLink).not.toBe(carolLink);
    expect([bobLink, carolLink]).not.toContain(senderLink);

    // Bob downloads with his personal link: the bytes are the sent ones.
    const outDir = path.join(work, 'bob');
    const get = ferryWithStdin(['get', bobLink!, '--out', outDir], env);
    get.child.stdin.end();
    logs.push(['get.log', () => get.output]);
    const got = await get.done;
    expect(got.code, describeRun(got)).toBe(0);
    const saved = path.join(outDir, 'quarterly-report.bin');
    expect(lines(got.stdout)).toEqual([saved]);
    expect(await sha256File(saved)).toBe(sourceSha);

    // Ann is told that Bob (not Carol) downloaded.
    const confirmation = await mailTo('ann@example.com', 'the download confirmation', (m) =>
      (m.parsed.subject ?? '').includes('downloaded'),
    );
    expect(confirmation.parsed.subject).toContain('bob@example.com');
    expect(confirmation.parsed.text).toContain('bob@example.com');
    expect(confirmation.parsed.text).not.toContain('carol@example.com');

    // The printed link works for the sender; the same link without its secret opens nothing.
    const annDir = path.join(work, 'ann');
    const own = ferryWithStdin(['get', senderLink, '--out', annDir], env);
    own.child.stdin.end();
    logs.push(['get-sender.log', () => own.output]);
    const ownRun = await own.done;
    expect(ownRun.code, describeRun(ownRun)).toBe(0);
    expect(await sha256File(path.join(annDir, 'quarterly-report.bin'))).toBe(sourceSha);
    const bare = ferryWithStdin(
      ['get', `${server.url}/dl/${transferId}`, '--out', path.join(work, 'x')],
      env,
    );
    bare.child.stdin.end();
    const bareRun = await bare.done;
    expect(bareRun.code, describeRun(bareRun)).not.toBe(0);
    expect(bareRun.stderr).toContain('transfer not found');

    // A second send from the same address: the remembered confirmation stands in for a code.
    const codes = codesSentTo('ann@example.com').length;
    const other = path.join(work, 'src', 'appendix.bin');
    await writeRandomFile(other, 1000);
    const again = ferryWithStdin(
      ['send', other, '--server', server.url, '--from', 'ann@example.com', '--to', 'dave@example.com'],
      // The mails about it in the sender's language and time zone, as the environment gives them.
      { ...env, LANG: 'fr_FR.UTF-8', TZ: 'Asia/Tokyo' },
    );
    again.child.stdin.end(); // nothing to read: a code would be missing
    logs.push(['second-send.log', () => again.output]);
    const second = await again.done;
    expect(second.code, describeRun(second)).toBe(0);
    expect(second.stderr).toContain('ferry:   dave@example.com: sent\n');
    expect(second.stderr).not.toContain('code');
    const daveMail = await mailTo('dave@example.com', "dave's mail");
    expect(daveMail.parsed.subject).toBe('ann@example.com vous a envoyé des fichiers avec Ferry');
    expect(daveMail.parsed.text).toContain('Disponible jusqu’au');
    expect(daveMail.parsed.text).toMatch(/\d\d:\d\d UTC\+9/);
    expect(personalLink(daveMail)).toContain(
      `/dl/${new URL(lines(second.stdout)[0]!).pathname.slice(-16)}?userSecret=`,
    );
    expect(codesSentTo('ann@example.com')).toHaveLength(codes);
  });

  it('leaves the transfer waiting without a code, then finishes it with --verification-code', async () => {
    const source = path.join(work, 'src', 'notes.txt');
    await writeRandomFile(source, 2048);
    const args = [
      'send',
      source,
      '--server',
      server.url,
      '--from',
      'eve@example.com',
      '--to',
      'frank@example.com',
    ];
    const first = ferryWithStdin(args, env);
    first.child.stdin.end(); // like `ferry send … </dev/null`
    logs.push(['first.log', () => first.output]);
    const waiting = await first.done;
    expect(waiting.code, describeRun(waiting)).toBe(2);
    expect(waiting.stdout).toBe('');
    expect(lines(waiting.stderr).at(-1)).toBe(
      'ferry: A code was sent to eve@example.com. Run the same command again with --verification-code CODE',
    );
    const codeMail = await mailTo('eve@example.com', 'the code mail');
    expect(mailsTo('frank@example.com')).toEqual([]);

    const second = ferryWithStdin(
      [...args, '--verification-code', codeMail.parsed.subject!.slice(0, 6)],
      env,
    );
    second.child.stdin.end();
    logs.push(['second.log', () => second.output]);
    const done = await second.done;
    expect(done.code, describeRun(done)).toBe(0);
    expect(done.stderr).toContain('ferry:   frank@example.com: sent\n');
    expect(personalLink(await mailTo('frank@example.com', "frank's mail"))).toContain(
      `/dl/${new URL(lines(done.stdout)[0]!).pathname.slice(-16)}?userSecret=`,
    );
    // One transfer: the second run resumed the first one's.
    expect(codesSentTo('eve@example.com')).toHaveLength(1);
    expect(await fs.readdir(path.join(work, 'state', 'uploads'))).toEqual([]);
  });
});
