import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { type DkimSettings, toNodemailerMessage } from './compose.js';
import {
  type Mailer,
  messageIdFor,
  type OutgoingMail,
  type SenderIdentity,
  type SendHooks,
} from './mailer.js';

export interface OutboxSettings {
  /** DATA_DIR/outbox. */
  dir: string;
  from: SenderIdentity;
  dkim: DkimSettings | null;
}

const FILE = /^\d{8}T\d{9}Z-([A-Za-z0-9][A-Za-z0-9._-]*)\.eml$/;

/** 20260315T140503123Z: sorts by time in a directory listing. */
function stamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

/**
 * The embedded default: each mail becomes `<timestamp>-<idempotencyKey>.eml` in DATA_DIR/outbox (a real MIME
 * message, what SMTP would have carried) and one log line. A key already in the outbox is not written again,
 * so resending is harmless. One process owns a data dir (DataDirLock), so the index of keys can live here.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox';
  readonly dedupesByKey = true;
  private readonly transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  private keys: Promise<Map<string, string>> | null = null;
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: OutboxSettings,
    private readonly logger: Logger,
  ) {}

  async send(message: OutgoingMail, hooks?: SendHooks): Promise<{ messageId: string }> {
    const options = toNodemailerMessage(message, this.settings.from, this.settings.dkim);
    const key = message.idempotencyKey;
    // One write per key at a time, so that two sends of the same key cannot both miss the index.
    const previous = this.pending.get(key) ?? Promise.resolve();
    const result = previous.catch(() => undefined).then(() => this.write(key, options, message, hooks));
    this.pending.set(key, result);
    try {
      return await result;
    } finally {
      if (this.pending.get(key) === result) this.pending.delete(key);
    }
  }

  private async write(
    key: string,
    options: ReturnType<typeof toNodemailerMessage>,
    message: OutgoingMail,
    hooks: SendHooks | undefined,
  ): Promise<{ messageId: string }> {
    const messageId = messageIdFor(key, this.settings.from.address);
    const keys = await this.index();
    const existing = keys.get(key);
    if (existing) {
      this.logger.debug({ file: existing }, 'mail already in the outbox');
      return { messageId };
    }
    const info = await this.transport.sendMail(options);
    await hooks?.beforeTransmit?.();
    const name = `${stamp(new Date())}-${key}.eml`;
    const file = path.join(this.settings.dir, name);
    const temp = path.join(this.settings.dir, `.${key}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(info.message as Buffer);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The rename is the moment the mail exists: a crash before it leaves only a temp file, never half a mail.
    await fs.rename(temp, file);
    keys.set(key, name);
    this.logger.info(
      { to: message.to, subject: options.subject, file },
      `mail to outbox: ${options.subject}`,
    );
    return { messageId };
  }

  private index(): Promise<Map<string, string>> {
    this.keys ??= (async () => {
      await fs.mkdir(this.settings.dir, { recursive: true, mode: 0o700 });
      const keys = new Map<string, string>();
      for (const name of await fs.readdir(this.settings.dir)) {
        const key = FILE.exec(name)?.[1];
        if (key) keys.set(key, name);
        // Leftovers of a crash between write and rename: the mail was not sent, its job sends it again.
        else if (name.endsWith('.tmp')) await fs.rm(path.join(this.settings.dir, name), { force: true });
      }
      return keys;
    })();
    // A failed scan (disk error) is retried on the next send rather than remembered.
    this.keys.catch(() => {
      this.keys = null;
    });
    return this.keys;
  }

  async verify(): Promise<void> {
    await fs.mkdir(this.settings.dir, { recursive: true, mode: 0o700 });
    await fs.access(this.settings.dir, fs.constants.W_OK);
  }

  async close(): Promise<void> {}
}
