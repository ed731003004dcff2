import { createHash } from 'node:crypto';

/** One e-mail ready to go: rendered by a template, addressed by a service. */
export interface OutgoingMail {
  /** Recipient addresses; each one sees the others (use one mail per recipient for personal links). */
  to: string[];
  subject: string;
  html: string;
  /** The plain-text part, always sent next to the HTML one. */
  text: string;
  /**
   * Names this mail for good: the Message-ID is derived from it, the outbox file is named after it, and the
   * mail job sends each key at most once. Letters, digits, '.', '_' and '-' only (it becomes a file name).
   */
  idempotencyKey: string;
  /** Where replies go, e.g. the sender of a transfer; never the From address, which stays ours (SPF, DKIM). */
  replyTo?: string;
  /** One-click unsubscribe URL (RFC 8058) for notifications a person can turn off. */
  listUnsubscribeUrl?: string;
  /** Further header lines; they cannot override From, To, Subject or Message-ID. */
  headers?: Record<string, string>;
}

/** The From line of every mail, from config. */
export interface SenderIdentity {
  address: string;
  name: string;
}

/** Calls a sender makes during `send`, to record progress where a crash cannot lose it. */
export interface SendHooks {
  /**
   * Awaited once, after the mail was built and the relay reached, before the first byte of the message goes
   * out. If it rejects, nothing is sent and `send` rejects with its error.
   */
  beforeTransmit?(): Promise<void>;
}

/**
 * Sends e-mail. The SMTP adapter hands it to a relay; the embedded default writes it to DATA_DIR/outbox.
 * Callers normally go through the `mail.send` job (jobs/mail-job.ts), which retries and never sends a key twice.
 */
export interface Mailer {
  /** 'smtp' or 'outbox', for logs and /api/ready. */
  readonly kind: string;
  /**
   * True when sending the same idempotencyKey again is harmless because the adapter itself drops the copy
   * (the outbox does; an SMTP relay cannot be asked whether it already accepted a message).
   */
  readonly dedupesByKey: boolean;
  /**
   * Delivers the mail. Rejects with `MailRejectedError` when retrying cannot help, with `MailInDoubtError` when
   * the relay may have accepted it (the answer was lost), and with any other error when it surely did not.
   */
  send(message: OutgoingMail, hooks?: SendHooks): Promise<{ messageId: string }>;
  /** Checks that mail can go out (relay reachable and login accepted, or outbox writable). */
  verify(): Promise<void>;
  close(): Promise<void>;
}

/** The relay refused the mail for good (e.g. 550 no such mailbox): retrying would get the same answer. */
export class MailRejectedError extends Error {
  constructor(
    message: string,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailRejectedError';
  }
}

/** The connection broke after the message went out and before the relay answered: it may have been delivered. */
export class MailInDoubtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailInDoubtError';
  }
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function assertIdempotencyKey(key: string): void {
  if (!KEY.test(key))
    throw new Error(`Invalid mail idempotency key ${JSON.stringify(key)}: use [A-Za-z0-9._-], 200 at most`);
}

/**
 * The Message-ID of a key: the same on every attempt, so that a receiving system that sees the same mail twice
 * can tell. Hashed so that the key (which may name a transfer) does not show in headers.
 */
export function messageIdFor(idempotencyKey: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1) || 'localhost';
  const id = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40);
  return `<${id}@${domain}>`;
}
