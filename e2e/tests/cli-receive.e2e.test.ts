import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { type FerryResult, lines, runFerry } from '../support/cli.js';
import { sha256File, writeRandomFile } from '../support/files.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * `ferry request`, `ferry upload-to` and `ferry inbox` against the built server with a real SMTP server: a
 * request by link and by e-mail, uploads into it (the receipt's SHA-256 are the files'), the requester's
 * notification, the received files downloaded by the requester with `ferry get`; wrong password, closed inbox and
 * refused extension as exit codes.
 */

const PASSWORD = 'a long enough passphrase';

/** A file of random bytes; its path. */
async function randomFile(file: string, size: number): Promise<string> {
  await writeRandomFile(file, size);
  return file;
}
const describeRun = (run: FerryResult) =>
  `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

describe('ferry request / upload-to / inbox against the built server', () => {
  let server: FerryProcess;
  let sink: MailSink;
  let work: string;
  let logs: Array<[string, string]> = [];

  const ferry = async (args: string[], state = 'ann') => {
    const run = await runFerry(args, { FERRY_STATE_DIR: path.join(work, state), FERRY_SERVER: server.url });
    logs.push([
      `${logs.length}-${state}-${args.slice(0, 2).join('-')}.log`,
      `$ ferry ${args.join(' ')}\n${describeRun(run)}`,
    ]);
    return run;
  };

  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => null)) as Record<string, unknown> | null,
    };
  };

  const signUp = async (email: string, state: string) => {
    expect((await api('POST', '/api/auth/register', { email, password: PASSWORD })).status).toBe(202);
    const mail = await sink.waitFor(`the confirmation mail to ${email}`, (m) => m.to.includes(email));
    const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1];
    expect((await api('POST', '/api/auth/verify-email', { token })).status).toBe(200);
    const run = await ferry(['login', '--email', email, '--password', PASSWORD], state);
    expect(run.code, describeRun(run)).toBe(0);
  };

  beforeAll(async () => {
    sink = await startMailSink();
    const port = await freePort();
    server = await FerryProcess.start({
      port,
      env: { PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: sink.url, MAIL_FROM: 'ferry@example.com' },
    });
    work = await tempDir('cli-receive');
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      for (const [name, text] of logs) await saveArtifact(context, name, text);
      await saveArtifact(context, 'server.log', server.output);
    }
    logs = [];
  });

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('asks by link and by e-mail, receives with a receipt, and only the requester downloads', async () => {
    const ann = 'ann@receive.example';
    await signUp(ann, 'ann');

    // By link: anyone with it uploads, without an account.
    const request = await ferry([
      'request',
      '--subject',
      'Contract',
      '--allow',
      'pdf,txt',
      '-p',
      'open sesame',
    ]);
    expect(request.code, describeRun(request)).toBe(0);
    const link = lines(request.stdout)[0]!;
    expect(link).toMatch(new RegExp(`^${server.url}/r/[A-Za-z0-9]{16}$`));

    const contract = await randomFile(path.join(work, 'files', 'contract.pdf'), 300_000);
    const notes = await randomFile(path.join(work, 'files', 'notes.txt'), 1_000);
    const wrong = await ferry(['upload-to', link, contract, '-p', 'nope'], 'bob');
    expect(wrong.code, describeRun(wrong)).toBe(2);
    expect(wrong.stderr).toContain('wrong password');
    const image = await randomFile(path.join(work, 'files', 'image.png'), 10);
    const refused = await ferry(['upload-to', link, image, '-p', 'open sesame'], 'bob');
    expect(refused.code, describeRun(refused)).toBe(1);
    expect(refused.stderr).toContain('image.png');
    expect(refused.stderr).toContain('.pdf, .txt');

    const sent = await ferry(
      ['upload-to', link, contract, notes, '-p', 'open sesame', '--name', 'Bob Builder', '-m', 'Signed.'],
      'bob',
    );
    expect(sent.code, describeRun(sent)).toBe(0);
    expect(lines(sent.stdout).sort()).toEqual(
      [`${await sha256File(contract)}  contract.pdf`, `${await sha256File(notes)}  notes.txt`].sort(),
    );
    expect(sent.stderr).toContain('“Contract”');
    const notified = await sink.waitFor(
      'the upload notification',
      (m) => m.to.includes(ann) && m.parsed.subject?.includes('Bob Builder') === true,
    );
    expect(notified.parsed.subject).toContain('Bob Builder');
    expect(notified.parsed.text).toContain('Signed.');

    // The requester sees it as received and downloads it; the uploader cannot.
    const list = await ferry(['transfers', '--json', '--received']);
    const received = JSON.parse(list.stdout) as Array<{ id: string; type: string; link: string }>;
    expect(received.map((t) => t.type)).toEqual(['S3']);
    const out = path.join(work, 'out');
    const got = await ferry(['get', received[0]!.link, '--out', out]);
    expect(got.code, describeRun(got)).toBe(0);
    expect(await sha256File(path.join(out, 'contract.pdf'))).toBe(await sha256File(contract));
    const stranger = await ferry(['get', received[0]!.link, '--out', path.join(work, 'stolen')], 'bob');
    expect(stranger.code, describeRun(stranger)).toBe(3);

    // By e-mail: each person gets a personal link, and uploads through it without typing their address.
    const carol = 'carol@client.example';
    const asked = await ferry(['request', '--to', carol, '--subject', 'Photos']);
    expect(asked.code, describeRun(asked)).toBe(0);
    const mail = await sink.waitFor('the request mail', (m) => m.to.includes(carol));
    const personal = /(http:\/\/\S+\/r\/[A-Za-z0-9]{16}\?userSecret=[A-Za-z0-9_-]+)/.exec(
      mail.parsed.text ?? '',
    )?.[1];
    expect(personal, mail.parsed.text).toBeTruthy();
    const photo = await randomFile(path.join(work, 'files', 'photo.jpg'), 50_000);
    const uploaded = await ferry(['upload-to', personal!, photo], 'carol');
    expect(uploaded.code, describeRun(uploaded)).toBe(0);
    const detail = await sink.waitFor(
      'the second notification',
      (m) => m.to.includes(ann) && m.parsed.text?.includes(carol) === true,
    );
    expect(detail.parsed.subject).toContain('Photos');
  });

  it('creates, closes and reopens an inbox; a closed one is exit 3', async () => {
    const dan = 'dan@receive.example';
    await signUp(dan, 'dan');
    const created = await ferry(['inbox', 'create', 'dan-docs', '--title', 'Dan’s documents'], 'dan');
    expect(created.code, describeRun(created)).toBe(0);
    const link = lines(created.stdout)[0]!;
    expect(link).toBe(`${server.url}/i/dan-docs`);
    const listed = await ferry(['inbox', 'list'], 'dan');
    expect(lines(listed.stdout)[0]!.split('\t').slice(0, 2)).toEqual(['dan-docs', 'on']);

    const file = await randomFile(path.join(work, 'files', 'scan.pdf'), 2_000);
    expect((await ferry(['inbox', 'disable', 'dan-docs'], 'dan')).code).toBe(0);
    const closed = await ferry(['upload-to', link, file], 'eve');
    expect(closed.code, describeRun(closed)).toBe(3);
    expect(closed.stderr).toContain('closed');
    expect((await ferry(['inbox', 'enable', 'dan-docs'], 'dan')).code).toBe(0);
    const open = await ferry(['upload-to', link, file], 'eve');
    expect(open.code, describeRun(open)).toBe(0);
    expect(lines(open.stdout)).toEqual([`${await sha256File(file)}  scan.pdf`]);
    // By the owner's address, into their default inbox.
    const pushed = await ferry(['upload-to', `${server.url}/push?to=${dan}`, file], 'eve');
    expect(pushed.code, describeRun(pushed)).toBe(0);
    const unknown = await ferry(['upload-to', `${server.url}/i/nobody-here`, file], 'eve');
    expect(unknown.code, describeRun(unknown)).toBe(3);
  });
});
