import { Transform } from 'node:stream';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Logger } from 'pino';
import { type DkimSettings, toNodemailerMessage } from './compose.js';
import {
  type Mailer,
  MailInDoubtError,
  MailRejectedError,
  type OutgoingMail,
  type SenderIdentity,
  type SendHooks,
} from './mailer.js';

export interface SmtpSettings {
  /**
   * `smtp://user:pass@host:587` (STARTTLS whenever the server offers it) or `smtps://…:465` (TLS from the first
   * byte). Query options: `requireTLS=true` refuses to send unless STARTTLS works; `tlsRejectUnauthorized=false`
   * accepts a relay's self-signed certificate.
   */
  url: string;
  from: SenderIdentity;
  dkim: DkimSettings | null;
  /** Host name announced in EHLO; the machine's name when absent. */
  ehloName?: string;
  /** Socket timeout; keep it well under the mail job's expiry so an attempt always ends before a retry. */
  socketTimeoutMs?: number;
}

function flag(url: URL, name: string): boolean | undefined {
  const value = url.searchParams.get(name);
  return value === null ? undefined : value === 'true' || value === '1';
}

/** nodemailer pool options of an SMTP_URL; throws on anything but smtp:// and smtps://. */
export function smtpOptionsFromUrl(text: string): SMTPPool.Options & { maxRequeues: number } {
  const url = new URL(text);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}//)`);
  const secure = url.protocol === 'smtps:';
  const rejectUnauthorized = flag(url, 'tlsRejectUnauthorized');
  return {
    pool: true,
    // The pool would silently resend a message whose connection dropped mid-way: a possible duplicate. The
    // error comes to us instead, and the mail job decides (see jobs/mail-job.ts).
    maxRequeues: 0,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: flag(url, 'requireTLS') ?? false,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    tls: rejectUnauthorized === false ? { rejectUnauthorized: false } : undefined,
  };
}

interface Progress {
  /** The message's first byte was let through: from here on the relay may have it. */
  transmitting: boolean;
  hookError?: unknown;
}

/** Holds the message back until `beforeTransmit` resolved; the job records "transmitting" there. */
function gate(progress: Progress, hooks: SendHooks | undefined): Transform {
  let opened: Promise<void> | undefined;
  const open = () => {
    opened ??= (hooks?.beforeTransmit?.() ?? Promise.resolve()).then(
      () => {
        progress.transmitting = true;
      },
      (err: unknown) => {
        progress.hookError = err;
        throw err;
      },
    );
    return opened;
  };
  return new Transform({
    transform(chunk, _encoding, callback) {
      open().then(() => callback(null, chunk), callback);
    },
    flush(callback) {
      open().then(() => callback(), callback);
    },
  });
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

/** Sends through an SMTP relay (pooled connections), signing with DKIM when configured. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  readonly dedupesByKey = false;
  private readonly transport: nodemailer.Transporter;

  constructor(
    private readonly settings: SmtpSettings,
    private readonly logger: Logger,
  ) {
    const timeout = settings.socketTimeoutMs ?? 60_000;
    this.transport = nodemailer.createTransport({
      ...smtpOptionsFromUrl(settings.url),
      name: settings.ehloName,
      connectionTimeout: Math.min(timeout, 30_000),
      greetingTimeout: Math.min(timeout, 30_000),
      socketTimeout: timeout,
    });
    this.transport.use('stream', (mail, done) => {
      const progress = (mail.data as { ferryProgress?: Progress }).ferryProgress;
      const hooks = (mail.data as { ferryHooks?: SendHooks }).ferryHooks;
      if (progress) mail.message.transform(gate(progress, hooks));
      done();
    });
  }

  async send(message: OutgoingMail, hooks?: SendHooks): Promise<{ messageId: string }> {
    const options = toNodemailerMessage(message, this.settings.from, this.settings.dkim);
    const progress: Progress = { transmitting: false };
    try {
      const info = await this.transport.sendMail({
        ...options,
        ferryProgress: progress,
        ferryHooks: hooks,
      } as Mail.Options);
      if (info.rejected.length > 0)
        this.logger.warn(
          { rejected: info.rejected.length, messageId: info.messageId },
          'relay refused some recipients',
        );
      return { messageId: info.messageId };
    } catch (error) {
      if (progress.hookError !== undefined) throw progress.hookError;
      const err = error as SmtpError;
      const code = err.responseCode;
      // An answer from the relay is definite: it did not take the message.
      if (code && code >= 500 && (err.code === 'EENVELOPE' || err.code === 'EMESSAGE'))
        throw new MailRejectedError(err.message, code);
      if (!code && progress.transmitting)
        throw new MailInDoubtError(`connection lost while the relay had the message: ${err.message}`);
      throw error;
    }
  }

  async verify(): Promise<void> {
    await this.transport.verify();
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
