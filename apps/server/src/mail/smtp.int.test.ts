import { generateKeyPairSync } from 'node:crypto';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { MailInDoubtError, MailRejectedError, messageIdFor, type OutgoingMail } from './mailer.js';
import { SmtpMailer, type SmtpSettings, smtpOptionsFromUrl } from './smtp.js';

const from = { address: 'no-reply@ferry.example', name: 'Ferry' };
const logger = pino({ level: 'silent' });

const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to: ['bob@example.com'],
  subject: 'Alice sent you “Holiday photos”',
  text: 'Hello Bob\n\nDownload: https://ferry.example/dl/abc\n',
  html: '<p>Hello <b>Bob</b></p>',
  idempotencyKey: 'transfer-received.abc.r1',
  ...overrides,
});

let sink: SmtpSink;
const mailers: SmtpMailer[] = [];
function mailer(overrides: Partial<SmtpSettings> = {}) {
  const m = new SmtpMailer(
    { url: sink.url, from, dkim: null, ehloName: 'ferry.example', ...overrides },
    logger,
  );
  mailers.push(m);
  return m;
}

beforeEach(async () => {
  sink = await startSmtpSink();
});
afterEach(async () => {
  for (const m of mailers.splice(0)) await m.close();
  await sink.close();
});

describe('SmtpMailer', () => {
  it('logs in and delivers a multipart mail the relay can read', async () => {
    const result = await mailer().send(
      mail({
        to: ['bob@example.com', 'carol@example.com'],
        replyTo: 'alice@example.com',
        listUnsubscribeUrl: 'https://ferry.example/unsubscribe/t1',
      }),
    );
    const got = await sink.waitFor();
    expect(got.user).toBe('ferry');
    expect(got.from).toBe('no-reply@ferry.example');
    expect(got.to).toEqual(['bob@example.com', 'carol@example.com']);
    expect(got.parsed.subject).toBe('Alice sent you “Holiday photos”');
    expect(got.parsed.from?.value[0]).toEqual({ address: 'no-reply@ferry.example', name: 'Ferry' });
    expect(got.parsed.replyTo?.value[0]?.address).toBe('alice@example.com');
    expect(got.parsed.text).toBe('Hello Bob\n\nDownload: https://ferry.example/dl/abc\n');
    expect(got.parsed.html).toBe('<p>Hello <b>Bob</b></p>');
    expect(got.parsed.messageId).toBe(messageIdFor('transfer-received.abc.r1', from.address));
    expect(result.messageId).toBe(got.parsed.messageId);
    const raw = got.raw.toString('latin1');
    expect(raw).toContain('List-Unsubscribe: <https://ferry.example/unsubscribe/t1>');
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(raw).toMatch(/Content-Type: multipart\/alternative/);
  });

  it('gives the same Message-ID to every attempt of one key', async () => {
    const m = mailer();
    const first = await m.send(mail());
    const second = await m.send(mail());
    expect(second.messageId).toBe(first.messageId);
    expect(sink.messages.map((x) => x.parsed.messageId)).toEqual([first.messageId, first.messageId]);
  });

  it('signs with DKIM when configured', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await mailer({
      dkim: {
        domainName: 'ferry.example',
        keySelector: 'mail2026',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    }).send(mail());
    const raw = (await sink.waitFor()).raw.toString('latin1').replace(/\r\n[ \t]+/g, ' ');
    expect(raw).toMatch(
      /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=ferry\.example; q=dns\/txt; s=mail2026;/m,
    );
  });

  it('verify() succeeds with the right login and fails with a wrong one', async () => {
    await expect(mailer().verify()).resolves.toBeUndefined();
    const wrong = sink.url.replace('sink-password', 'nope');
    await expect(mailer({ url: wrong }).verify()).rejects.toThrow(/Invalid username or password/);
    await expect(mailer({ url: wrong }).send(mail())).rejects.toMatchObject({ code: 'EAUTH' });
    expect(sink.dataCount()).toBe(0);
  });

  it('tells a final refusal (5xx) from a temporary one (4xx)', async () => {
    sink.setVerdict((_m, i) =>
      i === 0 ? { code: 550, message: 'No such user' } : { code: 451, message: 'Try again later' },
    );
    const m = mailer();
    const final = await m.send(mail()).catch((e: unknown) => e);
    expect(final).toBeInstanceOf(MailRejectedError);
    expect((final as MailRejectedError).responseCode).toBe(550);
    const temporary = await m.send(mail()).catch((e: unknown) => e);
    expect(temporary).not.toBeInstanceOf(MailRejectedError);
    expect(temporary).not.toBeInstanceOf(MailInDoubtError);
    expect(temporary).toMatchObject({ responseCode: 451 });
    expect(sink.messages).toHaveLength(0);
  });

  it('reports a mail whose answer never came as in doubt: the relay may have it', async () => {
    sink.setVerdict(() => 'hang');
    const error = await mailer({ socketTimeoutMs: 500 })
      .send(mail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailInDoubtError);
    expect(sink.messages).toHaveLength(1);
  });

  it('sends nothing when beforeTransmit refuses', async () => {
    const refusal = new Error('claim lost');
    const error = await mailer()
      .send(mail(), {
        beforeTransmit: async () => {
          throw refusal;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(refusal);
    // A later mail on the same pool still goes through, and the refused one never arrived.
    await mailer().send(mail({ idempotencyKey: 'next' }));
    await sink.waitFor((m) => m.parsed.messageId === messageIdFor('next', from.address));
    expect(sink.messages).toHaveLength(1);
    expect(sink.dataCount()).toBe(1);
  });

  it('calls beforeTransmit before the message goes out', async () => {
    const order: string[] = [];
    sink.setVerdict(() => {
      order.push('data');
      return 'accept';
    });
    await mailer().send(mail(), {
      beforeTransmit: async () => {
        order.push('beforeTransmit');
      },
    });
    expect(order).toEqual(['beforeTransmit', 'data']);
  });
});

describe('smtpOptionsFromUrl', () => {
  it('reads host, port, TLS mode and login from SMTP_URL', () => {
    expect(smtpOptionsFromUrl('smtp://user%40x.io:p%3Ass@mail.example:2525?requireTLS=true')).toMatchObject({
      host: 'mail.example',
      port: 2525,
      secure: false,
      requireTLS: true,
      auth: { user: 'user@x.io', pass: 'p:ss' },
      maxRequeues: 0,
    });
    expect(smtpOptionsFromUrl('smtps://mail.example')).toMatchObject({
      port: 465,
      secure: true,
      auth: undefined,
    });
    expect(smtpOptionsFromUrl('smtp://mail.example')).toMatchObject({
      port: 587,
      secure: false,
      requireTLS: false,
    });
    expect(smtpOptionsFromUrl('smtp://[::1]:25?tlsRejectUnauthorized=false')).toMatchObject({
      host: '::1',
      tls: { rejectUnauthorized: false },
    });
    expect(() => smtpOptionsFromUrl('http://mail.example')).toThrow(/smtp:\/\/ or smtps:\/\//);
  });
});
