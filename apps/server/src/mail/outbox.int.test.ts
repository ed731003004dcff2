import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { type ParsedMail, simpleParser } from 'mailparser';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageIdFor, type OutgoingMail } from './mailer.js';
import { OutboxMailer } from './outbox.js';

const from = { address: 'no-reply@ferry.example', name: 'Ferry' };

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to: ['bob@example.com', 'carol@example.com'],
  subject: 'Alice sent you “Holiday photos”',
  text: 'Hello Bob\nDownload: https://ferry.example/dl/abc\n',
  html: '<p>Hello <b>Bob</b></p><p><a href="https://ferry.example/dl/abc">Download</a></p>',
  idempotencyKey: 'transfer-received.abc.r1',
  ...overrides,
});

let dir: string;
beforeEach(async () => {
  dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-outbox-')), 'outbox');
});
afterEach(async () => {
  await fs.rm(path.dirname(dir), { recursive: true, force: true });
});

/** A header as written in the file ("Name: value"), unfolded. */
const header = (parsed: ParsedMail, name: string) =>
  parsed.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n[ \t]+/g, ' ');

const emlFiles = async () => (await fs.readdir(dir)).filter((name) => name.endsWith('.eml'));

describe('OutboxMailer', () => {
  it('writes a real MIME message named <timestamp>-<key>.eml and logs one line with subject and recipients', async () => {
    const { logger, lines } = capturingLogger();
    const outbox = new OutboxMailer({ dir, from, dkim: null }, logger);
    const { messageId } = await outbox.send(
      mail({ replyTo: 'alice@example.com', listUnsubscribeUrl: 'https://ferry.example/unsubscribe/t1' }),
    );

    const names = await emlFiles();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d{8}T\d{9}Z-transfer-received\.abc\.r1\.eml$/);
    const raw = await fs.readFile(path.join(dir, names[0]!));
    expect(raw.toString('latin1')).toContain('\r\n');
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Alice sent you “Holiday photos”');
    const to = Array.isArray(parsed.to) ? parsed.to : [parsed.to];
    expect(to.flatMap((a) => a?.value.map((v) => v.address))).toEqual([
      'bob@example.com',
      'carol@example.com',
    ]);
    expect(parsed.from?.value[0]).toEqual({ address: 'no-reply@ferry.example', name: 'Ferry' });
    expect(parsed.replyTo?.value[0]?.address).toBe('alice@example.com');
    expect(parsed.text).toBe('Hello Bob\nDownload: https://ferry.example/dl/abc\n');
    expect(parsed.html).toContain('<a href="https://ferry.example/dl/abc">Download</a>');
    expect(parsed.messageId).toBe(messageId);
    expect(messageId).toBe(messageIdFor('transfer-received.abc.r1', from.address));
    expect(header(parsed, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header(parsed, 'list-unsubscribe')).toBe(
      'List-Unsubscribe: <https://ferry.example/unsubscribe/t1>',
    );

    const logged = lines.filter((l) => l.subject);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      subject: 'Alice sent you “Holiday photos”',
      to: ['bob@example.com', 'carol@example.com'],
    });
    expect(String(logged[0]!.msg)).toContain('Alice sent you');
  });

  it('writes a key once, even when sent twice at the same time or again after a restart', async () => {
    const logger = pino({ level: 'silent' });
    const outbox = new OutboxMailer({ dir, from, dkim: null }, logger);
    const [a, b] = await Promise.all([outbox.send(mail()), outbox.send(mail())]);
    expect(a.messageId).toBe(b.messageId);
    await outbox.send(mail({ subject: 'changed' }));
    expect(await emlFiles()).toHaveLength(1);

    const restarted = new OutboxMailer({ dir, from, dkim: null }, logger);
    expect((await restarted.send(mail())).messageId).toBe(a.messageId);
    expect(await emlFiles()).toHaveLength(1);

    await restarted.send(mail({ idempotencyKey: 'other-key' }));
    expect(await emlFiles()).toHaveLength(2);
    expect((await fs.readdir(dir)).filter((name) => !name.endsWith('.eml'))).toEqual([]);
  });

  it('clears temp files a crash left behind and sends their mail', async () => {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, '.transfer-received.abc.r1.0123456789ab.tmp'), 'half a mail');
    const outbox = new OutboxMailer({ dir, from, dkim: null }, pino({ level: 'silent' }));
    await outbox.send(mail());
    expect(await fs.readdir(dir)).toEqual([expect.stringMatching(/-transfer-received\.abc\.r1\.eml$/)]);
  });

  it('keeps user text on one header line and refuses keys that are no file names', async () => {
    const outbox = new OutboxMailer({ dir, from, dkim: null }, pino({ level: 'silent' }));
    await outbox.send(
      mail({ subject: 'Hi\r\nBcc: victim@example.com', headers: { 'X-Transfer': 'a\nb', To: 'x@y.z' } }),
    );
    const [name] = await emlFiles();
    const parsed = await simpleParser(await fs.readFile(path.join(dir, name!)));
    expect(parsed.subject).toBe('Hi Bcc: victim@example.com');
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.get('x-transfer')).toBe('a b');
    const to = Array.isArray(parsed.to) ? parsed.to : [parsed.to];
    expect(to.flatMap((a) => a?.value.map((v) => v.address))).not.toContain('x@y.z');
    await expect(outbox.send(mail({ idempotencyKey: '../escape' }))).rejects.toThrow(/idempotency key/);
    await expect(outbox.send(mail({ to: [] }))).rejects.toThrow(/recipient/);
  });

  it('signs with DKIM when configured', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const outbox = new OutboxMailer(
      {
        dir,
        from,
        dkim: {
          domainName: 'ferry.example',
          keySelector: 'mail2026',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      },
      pino({ level: 'silent' }),
    );
    await outbox.send(mail({ listUnsubscribeUrl: 'https://ferry.example/unsubscribe/t1' }));
    const [name] = await emlFiles();
    const parsed = await simpleParser(await fs.readFile(path.join(dir, name!)));
    const signature = header(parsed, 'dkim-signature') ?? '';
    expect(signature).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256;/);
    expect(signature).toContain('d=ferry.example;');
    expect(signature).toContain('s=mail2026;');
    // RFC 8058: the one-click unsubscribe headers are covered by the signature.
    expect(signature).toMatch(/h=[^;]*List-Unsubscribe:List-Unsubscribe-Post/i);
  });

  it('verify() creates the outbox and checks it can write there', async () => {
    const outbox = new OutboxMailer({ dir, from, dkim: null }, pino({ level: 'silent' }));
    await outbox.verify();
    expect((await fs.stat(dir)).isDirectory()).toBe(true);
  });
});
