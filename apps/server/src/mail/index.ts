import type { Logger } from 'pino';
import type { DkimSettings } from './compose.js';
import type { Mailer, SenderIdentity } from './mailer.js';
import { OutboxMailer } from './outbox.js';
import { SmtpMailer } from './smtp.js';

export type { DkimSettings } from './compose.js';
export * from './mailer.js';

/** The mail part of the config (config.ts `mail`). */
export interface MailSettings {
  /** SMTP_URL; null means the embedded outbox. */
  smtpUrl: string | null;
  /** DATA_DIR/outbox. */
  outboxDir: string;
  from: SenderIdentity;
  dkim: DkimSettings | null;
  /** Host name for EHLO, e.g. PUBLIC_URL's. */
  ehloName?: string;
  /** SMTP socket timeout; below the mail job's attempt timeout, so an attempt always ends first. */
  socketTimeoutMs?: number;
}

/** The one factory: SMTP when SMTP_URL is set, else `.eml` files in the outbox. */
export function createMailer(settings: MailSettings, logger: Logger): Mailer {
  if (settings.smtpUrl)
    return new SmtpMailer(
      {
        url: settings.smtpUrl,
        from: settings.from,
        dkim: settings.dkim,
        ehloName: settings.ehloName,
        socketTimeoutMs: settings.socketTimeoutMs,
      },
      logger,
    );
  return new OutboxMailer({ dir: settings.outboxDir, from: settings.from, dkim: settings.dkim }, logger);
}
