import type pg from 'pg';
import type { Logger } from 'pino';
import { type Mailer, MailInDoubtError, MailRejectedError, type OutgoingMail } from '../mail/mailer.js';
import type { PgMailDeliveries } from './mail-deliveries.js';
import type { Job, JobQueue, QueueDefinition } from './queue.js';

/*
 * Delivery guarantee ("a restart or a retry never sends twice").
 *
 * SMTP has no transaction with our database: between the relay's "250 accepted" and our "sent" row there is
 * always a moment where a crash loses the knowledge. No design gets exactly-once across it; this one makes
 * that moment as short as SMTP allows and chooses never-twice inside it:
 *
 * 1. Enqueue: one pg-boss job per mail, singletonKey = idempotencyKey (queue policy 'short': a second send
 *    while one is queued is dropped). A later duplicate job is harmless, because of 2.
 * 2. Claim: the attempt takes the key in mail_deliveries with a fresh token (fencing token). Keys already
 *    sent, rejected or in doubt are not sent again: the job completes.
 * 3. Fence: after the relay was reached and before the message's first byte goes out, the attempt marks the
 *    key 'transmitting', only if it still holds the token. An attempt that lost its claim (it was slow and
 *    a retry took over) aborts without sending a byte.
 * 4. Outcome: accepted → 'sent'. Refused with an SMTP answer → surely not delivered: 'failed' (retried with
 *    backoff) or, for a 5xx on recipients/message, 'rejected' (final). Connection lost after the fence with
 *    no answer → 'in_doubt' (final, logged as an error, for a person to check).
 * 5. Crash or kill at any point: the job is failed (by pg-boss on stop, or by expiry) and retried. A key
 *    still 'sending' is taken over and sent (nothing went out). A key 'transmitting' is waited for (the old
 *    attempt may still finish); once older than `staleAfterSeconds` it becomes 'in_doubt', never resent.
 *
 * So: at most once per key, always; exactly once unless the process dies (or the connection breaks) during
 * the data phase of the one SMTP transaction, which leaves an 'in_doubt' row instead of a duplicate. The
 * Message-ID is derived from the key, so even a mail resent by hand is recognisable as the same one.
 * The outbox drops copies by key itself (Mailer.dedupesByKey), so there a transmitting key is simply sent
 * again: exactly once.
 */

export const MAIL_SEND_QUEUE = 'mail.send';

export interface MailJobSettings {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** Seconds before the first retry; doubled (with jitter) each time. */
  retryDelaySeconds: number;
  /** An attempt running longer is failed and retried; keep it above the SMTP socket timeout. */
  expireInSeconds: number;
  /** A key transmitting for longer than this, with its attempt gone, is in doubt; above expireInSeconds. */
  staleAfterSeconds: number;
}

export const DEFAULT_MAIL_JOB_SETTINGS: MailJobSettings = {
  retryLimit: 10,
  retryDelaySeconds: 30,
  expireInSeconds: 300,
  staleAfterSeconds: 900,
};

export function mailQueueDefinition(settings: MailJobSettings = DEFAULT_MAIL_JOB_SETTINGS): QueueDefinition {
  return {
    name: MAIL_SEND_QUEUE,
    policy: 'short',
    retryLimit: settings.retryLimit,
    retryDelay: settings.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: settings.expireInSeconds,
  };
}

export type MailOutcome =
  | { status: 'sent'; messageId: string; attempts: number }
  /** Nothing to do: this key was dealt with before (by this job or a duplicate). */
  | { status: 'already'; final: 'sent' | 'rejected' | 'in_doubt' }
  | { status: 'rejected'; error: string }
  | { status: 'in_doubt'; error: string }
  /** Another attempt took the key over while this one was connecting; that one sends. */
  | { status: 'superseded' };

/** Another attempt is transmitting this key; retried later, when that one has finished or is stale. */
export class MailBusyError extends Error {
  constructor(key: string) {
    super(`mail ${key} is being sent by another attempt`);
    this.name = 'MailBusyError';
  }
}

class ClaimLostError extends Error {}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Told when a mail will not be delivered: refused for good, or its last retry failed. */
export type UndeliverableListener = (mail: OutgoingMail, reason: string) => Promise<void>;

/** The `mail.send` job: enqueue rendered mails, deliver them once each (see the guarantee above). */
export class MailJob {
  private readonly undeliverableListeners: UndeliverableListener[] = [];

  constructor(
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly deliveries: PgMailDeliveries,
    private readonly logger: Logger,
    private readonly settings: MailJobSettings = DEFAULT_MAIL_JOB_SETTINGS,
  ) {}

  /**
   * Queues a mail; null when the same key is queued already. Pass `transaction` to enqueue atomically with
   * the change that causes the mail.
   */
  async enqueue(mail: OutgoingMail, options: { transaction?: pg.ClientBase } = {}): Promise<string | null> {
    return this.queue.send(MAIL_SEND_QUEUE, mail, {
      singletonKey: mail.idempotencyKey,
      transaction: options.transaction,
    });
  }

  /**
   * Calls `listener` once for each mail that ends undelivered (a 5xx, or the last retry's failure); not for
   * one in doubt, which may well have arrived. A listener's failure is logged and does not retry the mail.
   */
  onUndeliverable(listener: UndeliverableListener): void {
    this.undeliverableListeners.push(listener);
  }

  /** Starts `concurrency` workers in this process. */
  async work(concurrency = 2): Promise<void> {
    await this.queue.work<OutgoingMail>(MAIL_SEND_QUEUE, (job) => this.handle(job), { concurrency });
  }

  private async handle(job: Job<OutgoingMail>): Promise<MailOutcome> {
    const outcome = await this.deliver(job.data);
    this.logger.debug({ jobId: job.id, key: job.data.idempotencyKey, outcome: outcome.status }, 'mail job');
    return outcome;
  }

  /** One attempt; throws when the job should be retried. */
  async deliver(mail: OutgoingMail): Promise<MailOutcome> {
    const key = mail.idempotencyKey;
    const claim = await this.deliveries.claim(key, {
      takeOverTransmitting: this.mailer.dedupesByKey,
      staleAfterSeconds: this.settings.staleAfterSeconds,
    });
    if (claim.kind === 'busy') throw new MailBusyError(key);
    if (claim.kind === 'done') {
      if (claim.status === 'in_doubt')
        this.logger.error({ key }, 'mail may or may not have been delivered; not sending it again');
      return { status: 'already', final: claim.status };
    }
    const { token } = claim;
    let messageId: string;
    try {
      ({ messageId } = await this.mailer.send(mail, {
        beforeTransmit: async () => {
          if (!(await this.deliveries.startTransmitting(key, token))) throw new ClaimLostError();
        },
      }));
    } catch (error) {
      return this.failed(mail, token, claim.attempts, error);
    }
    // Outside the catch: if recording fails, the key stays 'transmitting' and is never sent again.
    await this.deliveries.markSent(key, messageId);
    return { status: 'sent', messageId, attempts: claim.attempts };
  }

  private async failed(
    mail: OutgoingMail,
    token: string,
    attempts: number,
    error: unknown,
  ): Promise<MailOutcome> {
    const key = mail.idempotencyKey;
    if (error instanceof ClaimLostError) return { status: 'superseded' };
    if (error instanceof MailRejectedError) {
      await this.deliveries.release(key, token, 'rejected', error.message);
      this.logger.warn({ key, err: error }, 'mail refused by the relay for good');
      await this.tellUndeliverable(mail, error.message);
      return { status: 'rejected', error: error.message };
    }
    if (error instanceof MailInDoubtError && !this.mailer.dedupesByKey) {
      await this.deliveries.release(key, token, 'in_doubt', error.message);
      this.logger.error({ key, err: error }, 'mail may or may not have been delivered; not sending it again');
      return { status: 'in_doubt', error: error.message };
    }
    await this.deliveries.release(key, token, 'failed', message(error));
    if (attempts > this.settings.retryLimit) {
      this.logger.error({ key, err: error, attempts }, 'mail not sent, and no retry is left');
      await this.tellUndeliverable(mail, message(error));
    } else this.logger.warn({ key, err: error, attempts }, 'mail not sent; it will be retried');
    throw error;
  }

  private async tellUndeliverable(mail: OutgoingMail, reason: string): Promise<void> {
    for (const listener of this.undeliverableListeners) {
      try {
        await listener(mail, reason);
      } catch (err) {
        this.logger.error({ key: mail.idempotencyKey, err }, 'could not act on an undelivered mail');
      }
    }
  }
}
