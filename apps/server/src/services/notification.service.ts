import { randomInt } from 'node:crypto';
import { type RecipientStatus, TransferId, type TransferType, type UnsubscribeResponse } from '@ferry/core';
import type { Logger } from 'pino';
import {
  type PgNotificationRepository,
  parseRecipientMailKey,
  recipientMailKey,
} from '../db/notification.repository.js';
import type { OutgoingMail } from '../mail/mailer.js';
import {
  deliveryFailed,
  downloadConfirmation,
  expiryReminder,
  fileInfected,
  filesAdded,
  type MailContext,
  passwordGuessing,
  type RenderedMail,
  senderVerificationCode,
  transferReceived,
  transferSummary,
} from '../mail/templates/index.js';
import { constantTimeEqual, type Signer, sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type {
  RateLimiter,
  RecipientRecord,
  TransferFileRecord,
  TransferRecord,
  TransferRepository,
} from './ports.js';
import { downloadLink, type UploadStorage } from './transfer.service.js';

/** Sends a transfer's e-mails once it is uploaded and its sender verified. */
export const TRANSFER_DISPATCH = 'transfer.dispatch';
/** Tells the sender about one downloader's downloads, a little after the first (files downloaded one by one). */
export const DOWNLOAD_CONFIRMATION = 'notify.download-confirmation';
/** Every minute, once across instances: expiry sweep, reminders, and jobs a crash may have lost. */
export const MAINTENANCE_TICK = 'maintenance.tick';

export interface NotificationSettings {
  anonymousSenderVerification: boolean;
  verificationCodeTtlMinutes: number;
  downloadConfirmationDelaySeconds: number;
  expiryReminderHours: number;
}

/** Where rendered mails go: the `mail.send` job, which delivers each idempotency key at most once. */
export interface MailQueue {
  enqueue(mail: OutgoingMail): Promise<unknown>;
}

export interface JobSender {
  send<T extends object>(
    name: string,
    data: T,
    options?: { singletonKey?: string; startAfter?: Date | number },
  ): Promise<string | null>;
}

export interface DispatchJob {
  transferId: string;
}

/** What received (S3) transfers add to the dispatch and the maintenance tick (ReceiveService). */
export interface ReceiveHooks {
  delivered(transferId: string): Promise<void>;
  remindDue(now: Date): Promise<number>;
}

export type ConfirmationJob = { transferId: string } & ({ browserCode: string } | { downloadId: number });

/** Verification codes: how many, how often. */
const CODE_RESEND_SECONDS = 60;
const CODES_PER_TRANSFER = 5;
const WRONG_CODES_PER_CODE = 5;
const CODES_PER_ADDRESS_PER_HOUR = 10;
const CODES_PER_IP_PER_HOUR = 30;
const CHECKS_PER_TRANSFER = { limit: 10, windowSeconds: 900 };
const CHECKS_PER_IP = { limit: 50, windowSeconds: 900 };
/** How long a proven address stays proven (senderVerificationToken). */
const SENDER_TOKEN_DAYS = 30;

interface SenderTokenPayload {
  k: 'sender';
  a: string;
  x: number;
}

interface UnsubscribePayload {
  k: 'unsub';
  n: 'dlc' | 'rem';
  t: string;
  r?: number;
}

function rateLimited(retryAfterSeconds: number, message: string): AppError {
  return new AppError('RATE_LIMITED', message, {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
}

const mailFiles = (files: TransferFileRecord[]) =>
  files.map((f) => ({ name: f.relativePath ?? f.name, size: f.size }));

/**
 * Everything Ferry tells people by e-mail about a transfer: the sender's verification code, the recipients'
 * personal links, the sender's summary and download confirmations, reminders before expiry; and the expiry
 * sweep. Mails are rendered here and handed to the mail job under keys that name them for good, so any step
 * may run again (a retry, a second instance, the maintenance tick) without a second mail.
 */
export class NotificationService {
  constructor(
    private readonly repo: TransferRepository,
    private readonly store: PgNotificationRepository,
    private readonly mail: MailQueue,
    private readonly jobs: JobSender,
    private readonly limiter: RateLimiter,
    private readonly signer: Signer,
    private readonly uploads: UploadStorage,
    private readonly settings: NotificationSettings,
    private readonly productName: string,
    /**
     * Where every link in a mail starts, asked at send time (PUBLIC_URL, else http://localhost:PORT): never the
     * origin a transfer row kept, which rows made before links stopped following the request's Host may have
     * taken from a forged one.
     */
    private readonly publicOrigin: () => string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private receive: ReceiveHooks | null = null;
  private hostOrigin: ((host: string) => string) | null = null;

  /** Links of a transfer made on an owner's verified host start with that host's origin (`transfers.host`). */
  linkHostsWith(originOf: (host: string) => string): void {
    this.hostOrigin = originOf;
  }

  /** Where a transfer's links start: the verified host it was made on, else the public origin. */
  private originFor(transfer: Pick<TransferRecord, 'host'>): string {
    return transfer.host && this.hostOrigin ? this.hostOrigin(transfer.host) : this.publicOrigin();
  }

  /** Received (S3) transfers: their owner's notification on dispatch, request reminders on the tick. */
  onReceive(hooks: ReceiveHooks): void {
    this.receive = hooks;
  }

  // --- links and tokens ----------------------------------------------------------------------------------

  /** A recipient's personal link secret: derived, so a reminder can carry it again without it being stored. */
  recipientSecret(transferId: string, email: string): string {
    return this.signer.derive(`recipient:${transferId}:${email.toLowerCase()}`);
  }

  static secretHash(secret: string): string {
    return sha256Hex(`recipient:${secret}`);
  }

  /**
   * The sender's own secret to an S1 transfer, which only its recipients' links open otherwise: derived (never
   * stored), so each mail to the sender can carry it again.
   */
  senderSecret(transferId: string): string {
    return this.signer.derive(`sender:${transferId}`);
  }

  /** Whether a link's secret is the sender's of this S1 transfer. */
  isSenderSecret(transfer: Pick<TransferRecord, 'id' | 'type'>, secret: string): boolean {
    return transfer.type === 'S1' && constantTimeEqual(secret, this.senderSecret(transfer.id));
  }

  /** The link the sender is given (create answer, summary, mails): for S1, one that opens with their secret. */
  senderLink(transfer: Pick<TransferRecord, 'id' | 'type' | 'customLink'>, origin: string): string {
    const link = downloadLink(origin, transfer.id, transfer.customLink);
    return transfer.type === 'S1' ? `${link}?userSecret=${this.senderSecret(transfer.id)}` : link;
  }

  /** The recipient a personal link's secret belongs to, if it is one of this transfer's. */
  async recipientBySecret(transferId: string, secret: string | undefined): Promise<RecipientRecord | null> {
    if (!secret) return null;
    return this.store.recipientBySecretHash(transferId, NotificationService.secretHash(secret));
  }

  /** The recipients as their sender sees them (API shape). */
  async recipientStatuses(transfer: TransferRecord): Promise<RecipientStatus[]> {
    const rows = await this.store.recipients(transfer.id);
    return rows.map((r) => ({
      email: r.email,
      delivery:
        r.delivery === null
          ? transfer.sentAt
            ? 'queued'
            : 'waiting'
          : r.delivery === 'sending' || r.delivery === 'transmitting'
            ? 'queued'
            : r.delivery,
      error: r.delivery === 'sent' ? null : r.deliveryError,
      downloadedAt: r.downloadedAt ? r.downloadedAt.toISOString() : null,
    }));
  }

  async setNotifications(
    transferId: string,
    changes: Parameters<PgNotificationRepository['setNotifications']>[1],
    events: Parameters<PgNotificationRepository['setNotifications']>[2],
  ): Promise<void> {
    await this.store.setNotifications(transferId, changes, events);
  }

  /** Asks for a proof of the sender's address that was not needed so far (a notification to them turned on). */
  async requireVerification(transfer: TransferRecord, ip: string | undefined): Promise<boolean> {
    if (transfer.senderVerification !== 'not_needed' || !transfer.senderEmail) return false;
    await this.checkCodeAllowance(transfer.senderEmail, ip);
    if (!(await this.store.requireVerification(transfer.id))) return false;
    await this.sendCode({ ...transfer, senderVerification: 'pending' }, { resend: false, ip });
    return true;
  }

  private personalLink(transfer: TransferRecord, email: string): string {
    const secret = this.recipientSecret(transfer.id, email);
    return `${downloadLink(this.originFor(transfer), transfer.id, transfer.customLink)}?userSecret=${secret}`;
  }

  private unsubscribe(transfer: TransferRecord, payload: Omit<UnsubscribePayload, 'k' | 't'>) {
    const token = this.signer.sign({ k: 'unsub', t: transfer.id, ...payload } satisfies UnsubscribePayload);
    const origin = this.originFor(transfer);
    return {
      /** The page the mail's footer link opens (a person confirms there; scanners that follow links do nothing). */
      page: `${origin}/unsubscribe?token=${token}`,
      /** RFC 8058 one-click target of the List-Unsubscribe header. */
      oneClick: `${origin}/api/transfer/notifications/unsubscribe?token=${token}`,
    };
  }

  /**
   * Whether the sender must prove their address: whenever Ferry will write to it, or (S1) write to others in its
   * name — unless it is the signed-in account's own (verified) address.
   */
  needsVerification(
    request: {
      type: TransferType;
      senderEmail: string | null;
      downloadConfirmation: boolean;
      summary: boolean;
    },
    accountEmail: string | null,
  ): boolean {
    if (!this.settings.anonymousSenderVerification) return false;
    if (accountEmail && request.senderEmail?.toLowerCase() === accountEmail.toLowerCase()) return false;
    if (request.type === 'S1') return true;
    return request.senderEmail !== null && (request.downloadConfirmation || request.summary);
  }

  /** Whether a token from an earlier verification proves this address. */
  senderTokenProves(token: string | undefined, email: string): boolean {
    if (!token) return false;
    const payload = this.signer.verify<SenderTokenPayload>(token);
    return (
      payload?.k === 'sender' &&
      payload.a === email.toLowerCase() &&
      typeof payload.x === 'number' &&
      payload.x > this.now().getTime()
    );
  }

  private senderToken(email: string): { senderVerificationToken: string; expiresAt: string } {
    const x = this.now().getTime() + SENDER_TOKEN_DAYS * 86_400_000;
    return {
      senderVerificationToken: this.signer.sign({
        k: 'sender',
        a: email.toLowerCase(),
        x,
      } satisfies SenderTokenPayload),
      expiresAt: new Date(x).toISOString(),
    };
  }

  // --- sender verification -------------------------------------------------------------------------------

  /** Refuses before anything is stored when this address or this client asked for too many codes lately. */
  async checkCodeAllowance(email: string, ip: string | undefined): Promise<void> {
    const perAddress = await this.limiter.hit(
      `svc-mail:${email.toLowerCase()}`,
      CODES_PER_ADDRESS_PER_HOUR,
      3600,
    );
    if (!perAddress.allowed)
      throw rateLimited(
        perAddress.retryAfterSeconds,
        'Too many verification codes for this address; wait a while.',
      );
    if (ip) {
      const perIp = await this.limiter.hit(`svc-ip:${ip}`, CODES_PER_IP_PER_HOUR, 3600);
      if (!perIp.allowed)
        throw rateLimited(
          perIp.retryAfterSeconds,
          'Too many verification codes from this address; wait a while.',
        );
    }
  }

  /** Mails a new 6-digit code to the sender (the previous one stops working). */
  async sendCode(
    transfer: TransferRecord,
    options: { resend: boolean; ip?: string },
  ): Promise<{ sentTo: string; retryAfterSeconds: number }> {
    const email = transfer.senderEmail;
    if (!email || transfer.senderVerification !== 'pending')
      throw new AppError('CONFLICT', 'This transfer has no sender verification pending.');
    const now = this.now();
    let notSentSince: Date | undefined;
    if (options.resend) {
      const current = await this.store.verification(transfer.id);
      if (current) {
        const wait = CODE_RESEND_SECONDS - (now.getTime() - current.lastSentAt.getTime()) / 1000;
        if (wait > 0)
          throw rateLimited(wait, 'A code was sent a moment ago; wait before asking for another.');
        if (current.codesSent >= CODES_PER_TRANSFER)
          throw rateLimited(3600, 'Too many codes for this transfer; wait an hour or start again.');
        notSentSince = new Date(now.getTime() - CODE_RESEND_SECONDS * 1000);
      }
      await this.checkCodeAllowance(email, options.ip);
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const ttl = this.settings.verificationCodeTtlMinutes;
    const n = await this.store.storeCode(
      transfer.id,
      email,
      sha256Hex(`${transfer.id}:${code}`),
      new Date(now.getTime() + ttl * 60_000),
      notSentSince,
    );
    if (n === null)
      throw rateLimited(CODE_RESEND_SECONDS, 'A code was sent a moment ago; wait before asking for another.');
    const rendered = await senderVerificationCode(await this.context(transfer), { code, validMinutes: ttl });
    await this.mail.enqueue(this.outgoing(rendered, [email], `svc-${transfer.id}-${n}`));
    return { sentTo: email, retryAfterSeconds: CODE_RESEND_SECONDS };
  }

  /** Checks a code; when right, the transfer may go out and the sender gets a token for next time. */
  async verify(
    transfer: TransferRecord,
    rawCode: string,
    ip: string | undefined,
  ): Promise<{ senderVerificationToken: string; expiresAt: string }> {
    const email = transfer.senderEmail;
    if (transfer.senderVerification === 'verified' && email) return this.senderToken(email);
    const record = await this.store.verification(transfer.id);
    if (!email || transfer.senderVerification !== 'pending' || !record)
      throw new AppError('CONFLICT', 'This transfer has no sender verification pending.');
    const perTransfer = await this.limiter.hit(
      `svv:${transfer.id}`,
      CHECKS_PER_TRANSFER.limit,
      CHECKS_PER_TRANSFER.windowSeconds,
    );
    if (!perTransfer.allowed)
      throw rateLimited(perTransfer.retryAfterSeconds, 'Too many attempts; wait before trying again.');
    if (ip) {
      const perIp = await this.limiter.hit(`svv-ip:${ip}`, CHECKS_PER_IP.limit, CHECKS_PER_IP.windowSeconds);
      if (!perIp.allowed)
        throw rateLimited(perIp.retryAfterSeconds, 'Too many attempts; wait before trying again.');
    }
    if (record.failedAttempts >= WRONG_CODES_PER_CODE)
      throw new AppError('VERIFICATION_CODE_EXPIRED', 'Too many wrong codes: ask for a new code.');
    if (record.expiresAt.getTime() <= this.now().getTime())
      throw new AppError('VERIFICATION_CODE_EXPIRED', 'This code has expired: ask for a new code.');
    const hash = sha256Hex(`${transfer.id}:${rawCode.trim()}`);
    if (!constantTimeEqual(hash, record.codeHash)) {
      const failed = await this.store.failedAttempt(transfer.id);
      const left = Math.max(0, WRONG_CODES_PER_CODE - failed);
      if (left === 0)
        throw new AppError('VERIFICATION_CODE_EXPIRED', 'Too many wrong codes: ask for a new code.');
      throw new AppError('WRONG_VERIFICATION_CODE', 'This code is not right.', {
        details: { attemptsLeft: left },
      });
    }
    await this.store.markVerified(transfer.id, record.codeHash, []);
    await this.limiter.reset(`svv:${transfer.id}`);
    await this.transferReady(transfer.id);
    return this.senderToken(email);
  }

  // --- going out -----------------------------------------------------------------------------------------

  /** Queues the sending of a transfer that may now go out (uploaded, and verified if it had to be). */
  async transferReady(transferId: string): Promise<void> {
    await this.jobs.send<DispatchJob>(TRANSFER_DISPATCH, { transferId }, { singletonKey: transferId });
  }

  /** The dispatch job: one personal e-mail per recipient, the sender's summary, then `sentAt`. */
  async dispatch(transferId: string): Promise<'sent' | 'already' | 'not_ready'> {
    const transfer = await this.repo.find(transferId);
    if (transfer?.status !== 'ENABLED' || transfer.senderVerification === 'pending') return 'not_ready';
    if (transfer.sentAt) return 'already';
    const files = (await this.repo.files(transferId)).filter((f) => f.uploadedAt);
    const recipients = await this.store.recipients(transferId);
    const ctx = await this.context(transfer);
    for (const r of recipients) await this.mailRecipient(transfer, files, r);
    if (transfer.notifySummary && transfer.senderEmail) {
      const rendered = await transferSummary(ctx, {
        transferName: transfer.name,
        message: transfer.message,
        recipients: recipients.map((r) => r.email),
        files: mailFiles(files),
        totalSize: transfer.totalSize,
        expiresAt: transfer.expiresAt,
        downloadUrl: this.senderLink(transfer, this.originFor(transfer)),
      });
      await this.mail.enqueue(this.outgoing(rendered, [transfer.senderEmail], `sum-${transferId}`));
    }
    if (transfer.type === 'S3') await this.receive?.delivered(transferId);
    await this.store.markSent(transferId);
    return 'sent';
  }

  /**
   * Mails their personal link to recipients who have had no mail yet (added from the dashboard, or while the
   * transfer was disabled), once the transfer can go out; the mail keys are the dispatch's, so nobody gets it
   * twice. With `recipientIds`, only those. Returns how many were queued.
   */
  async mailRecipients(transferId: string, recipientIds?: number[]): Promise<number> {
    const transfer = await this.repo.find(transferId);
    if (transfer?.status !== 'ENABLED' || transfer.senderVerification === 'pending') return 0;
    const files = (await this.repo.files(transferId)).filter((f) => f.uploadedAt);
    const wanted = recipientIds ? new Set(recipientIds) : null;
    let count = 0;
    for (const r of await this.store.recipients(transferId)) {
      if (wanted ? !wanted.has(r.id) : r.delivery !== null) continue;
      await this.mailRecipient(transfer, files, r);
      count++;
    }
    return count;
  }

  /**
   * Tells each recipient of a transfer that went out already that files were added (the dashboard's "add files"
   * with `notifyRecipients`), with their personal link and the new files; one mail per recipient and addition,
   * ever. A transfer that has not gone out yet sends its first mails, with every file, when it does. Returns how
   * many were queued.
   */
  async filesAdded(transferId: string, additionId: string, added: TransferFileRecord[]): Promise<number> {
    const transfer = await this.repo.find(transferId);
    if (transfer?.status !== 'ENABLED' || !transfer.sentAt || transfer.senderVerification === 'pending')
      return 0;
    let count = 0;
    for (const r of await this.store.recipients(transferId)) {
      const rendered = await filesAdded(await this.context(transfer), {
        senderName: transfer.senderName,
        senderEmail: transfer.senderEmail,
        transferName: transfer.name,
        files: mailFiles(added),
        totalSize: added.reduce((sum, f) => sum + f.size, 0),
        expiresAt: transfer.expiresAt,
        downloadUrl: this.personalLink(transfer, r.email),
      });
      await this.mail.enqueue({
        ...this.outgoing(rendered, [r.email], `add-${transferId}-${additionId}-${r.id}`),
        replyTo: transfer.senderEmail ?? undefined,
      });
      count++;
    }
    return count;
  }

  /** Notes the first visit of a recipient's personal link (the dashboard's timeline). */
  async recipientOpened(recipient: RecipientRecord): Promise<void> {
    await this.store.markOpened(recipient.id);
  }

  private async mailRecipient(transfer: TransferRecord, files: TransferFileRecord[], r: RecipientRecord) {
    const rendered = await transferReceived(await this.context(transfer), {
      senderName: transfer.senderName,
      senderEmail: transfer.senderEmail,
      transferName: transfer.name,
      message: transfer.message,
      files: mailFiles(files),
      totalSize: transfer.totalSize,
      expiresAt: transfer.expiresAt,
      downloadUrl: this.personalLink(transfer, r.email),
    });
    await this.mail.enqueue({
      ...this.outgoing(rendered, [r.email], recipientMailKey(transfer.id, r.id)),
      replyTo: transfer.senderEmail ?? undefined,
    });
  }

  // --- undelivered mail ----------------------------------------------------------------------------------

  /**
   * A recipient's "files for you" mail will not arrive (refused, or out of retries): tell the sender, who may
   * have left the page that shows it, so they can check the address or pass the link on. Once per recipient.
   */
  async undeliverable(key: string, reason: string): Promise<boolean> {
    const parsed = parseRecipientMailKey(key);
    if (!parsed) return false;
    const transfer = await this.repo.find(parsed.transferId);
    const recipient = transfer && (await this.store.recipient(transfer.id, parsed.recipientId));
    if (!transfer?.senderEmail || !recipient || transfer.expiredAt) return false;
    const rendered = await deliveryFailed(await this.context(transfer), {
      transferName: transfer.name,
      transferFileCount: transfer.fileCount,
      recipientEmail: recipient.email,
      reason,
      downloadUrl: this.senderLink(transfer, this.originFor(transfer)),
    });
    await this.mail.enqueue(
      this.outgoing(rendered, [transfer.senderEmail], `bounce-${transfer.id}-${recipient.id}`),
    );
    return true;
  }

  /** The virus scan blocked a file: its sender is told, once per file. */
  async fileInfected(transferId: string, file: TransferFileRecord, signature: string): Promise<boolean> {
    const transfer = await this.repo.find(transferId);
    // An account's own address, or a sender's proven one: never an address anybody could have typed.
    const proven = transfer?.ownerId || transfer?.senderVerification === 'verified';
    if (!transfer?.senderEmail || !proven || transfer.expiredAt) return false;
    const rendered = await fileInfected(await this.context(transfer), {
      transferName: transfer.name,
      transferFileCount: transfer.fileCount,
      fileName: file.relativePath ?? file.name,
      signature,
      transferUrl: this.senderLink(transfer, this.originFor(transfer)),
    });
    await this.mail.enqueue(
      this.outgoing(rendered, [transfer.senderEmail], `infected-${transfer.id}-${file.id}`),
    );
    return true;
  }

  // --- password guessing --------------------------------------------------------------------------------

  /**
   * A transfer's password was guessed at so often that it refuses every password until `lockedUntil`: its
   * owner is told, once per such window (the caller sees the window close once; the key holds on a retry).
   * The owner is the account's address, or else an anonymous sender's address once it is proven — never an
   * address nobody verified, which anyone could have typed.
   */
  async passwordGuessing(
    transfer: TransferRecord,
    info: { failures: number; lockedUntil: Date },
    account: { email: string; locale: string | null } | null,
  ): Promise<boolean> {
    const to =
      account ??
      (transfer.senderEmail && transfer.senderVerification === 'verified'
        ? { email: transfer.senderEmail, locale: transfer.locale }
        : null);
    if (!to) return false;
    const rendered = await passwordGuessing(
      { ...(await this.context(transfer)), locale: to.locale ?? transfer.locale },
      {
        kind: 'transfer',
        name: transfer.name,
        fileCount: transfer.fileCount,
        failures: info.failures,
        lockedUntil: info.lockedUntil,
        url: downloadLink(this.originFor(transfer), transfer.id, transfer.customLink),
      },
    );
    await this.mail.enqueue(
      this.outgoing(rendered, [to.email], `pwg-${transfer.id}-${info.lockedUntil.getTime()}`),
    );
    return true;
  }

  // --- download confirmations ----------------------------------------------------------------------------

  /** Whether the sender is to be told about a download of this transfer. */
  wantsConfirmation(transfer: TransferRecord): boolean {
    return (
      transfer.downloadConfirmation &&
      transfer.senderEmail !== null &&
      transfer.senderVerification !== 'pending'
    );
  }

  /** After a counted download marked 'pending': one confirmation per downloader, a little later. */
  async downloaded(transferId: string, downloadId: number, browserCode: string | undefined): Promise<void> {
    const job: ConfirmationJob = browserCode ? { transferId, browserCode } : { transferId, downloadId };
    await this.jobs.send(DOWNLOAD_CONFIRMATION, job, {
      singletonKey: `${transferId}:${browserCode ? `b:${browserCode}` : `d:${downloadId}`}`,
      startAfter: this.settings.downloadConfirmationDelaySeconds,
    });
  }

  /** The confirmation job: who (the recipient, or the e-mail the downloader gave), which files, when. */
  async confirmDownloads(job: ConfirmationJob): Promise<number> {
    const group = 'browserCode' in job ? { browserCode: job.browserCode } : { downloadId: job.downloadId };
    return this.store.withPendingConfirmations(job.transferId, group, async (pending) => {
      if (pending.length === 0) return 0;
      const transfer = await this.repo.find(job.transferId);
      if (!transfer?.senderEmail || !transfer.downloadConfirmation) return 0; // turned off since
      const files = await this.repo.files(transfer.id);
      const zipped = pending.some((d) => d.kind === 'zip');
      const ids = new Set(pending.map((d) => d.fileId));
      const downloadedFiles = files.filter((f) => zipped || ids.has(f.id));
      const who =
        pending.find((d) => d.recipientEmail)?.recipientEmail ??
        pending.find((d) => d.downloaderEmail)?.downloaderEmail ??
        null;
      const links = this.unsubscribe(transfer, { n: 'dlc' });
      const rendered = await downloadConfirmation(await this.context(transfer), {
        transferName: transfer.name,
        transferFileCount: transfer.fileCount,
        downloaderEmail: who,
        files: mailFiles(downloadedFiles),
        downloadedAt: pending[0]!.createdAt,
        transferUrl: this.senderLink(transfer, this.originFor(transfer)),
        unsubscribeUrl: links.page,
      });
      await this.mail.enqueue({
        ...this.outgoing(rendered, [transfer.senderEmail], `dlc-${transfer.id}-${pending[0]!.id}`),
        listUnsubscribeUrl: links.oneClick,
      });
      return pending.length;
    });
  }

  // --- unsubscribe ---------------------------------------------------------------------------------------

  /** Turns off what an unsubscribe link names: the sender's confirmations, or one recipient's reminders. */
  async unsubscribeWith(token: string): Promise<UnsubscribeResponse> {
    const payload = this.signer.verify<UnsubscribePayload>(token);
    if (
      payload?.k !== 'unsub' ||
      typeof payload.t !== 'string' ||
      !TransferId.safeParse(payload.t).success ||
      (payload.r !== undefined && !(Number.isSafeInteger(payload.r) && payload.r > 0 && payload.r < 2 ** 53))
    )
      throw new AppError('TRANSFER_NOT_FOUND', 'This unsubscribe link is not valid.');
    const transfer = await this.repo.find(payload.t);
    if (!transfer) throw new AppError('TRANSFER_NOT_FOUND', 'This transfer no longer exists.');
    if (payload.n === 'dlc') {
      if (transfer.downloadConfirmation)
        await this.store.setNotifications(transfer.id, { download_confirmation: false }, [
          {
            type: 'DOWNLOAD_CONFIRMATION_DISABLED',
            actor: `sender:${transfer.senderEmail ?? 'unknown'}`,
            data: { via: 'unsubscribe' },
          },
        ]);
      return { kind: 'downloadConfirmation', transferName: transfer.name };
    }
    const recipient =
      typeof payload.r === 'number' ? await this.store.recipient(transfer.id, payload.r) : null;
    if (!recipient) throw new AppError('TRANSFER_NOT_FOUND', 'This unsubscribe link is not valid.');
    await this.store.turnRemindersOff(transfer.id, recipient.id, {
      type: 'EXPIRY_REMINDER_DISABLED',
      actor: `recipient:${recipient.email}`,
      data: { recipient: recipient.email, via: 'unsubscribe' },
    });
    return { kind: 'expiryReminder', transferName: transfer.name };
  }

  // --- the maintenance tick ------------------------------------------------------------------------------

  /** Runs every step that is due; each is safe to run on several instances at once. */
  async tick(): Promise<{
    expired: number;
    reminded: number;
    requestsReminded: number;
    redispatched: number;
    reconfirmed: number;
  }> {
    const now = this.now();
    const expired = await this.expireDue(now);
    const reminded = await this.remindDue(now);
    const requestsReminded = (await this.receive?.remindDue(now)) ?? 0;
    // Jobs a crash lost between a commit and its enqueue.
    const unsent = await this.store.unsent(new Date(now.getTime() - 120_000), 100);
    for (const id of unsent) await this.transferReady(id);
    const stale = await this.store.stalePendingConfirmations(
      new Date(now.getTime() - (this.settings.downloadConfirmationDelaySeconds + 120) * 1000),
      100,
    );
    for (const s of stale) await this.downloaded(s.transferId, s.downloadId, s.browserCode ?? undefined);
    return { expired, reminded, requestsReminded, redispatched: unsent.length, reconfirmed: stale.length };
  }

  private readonly derivedBlobs: Array<(transferId: string) => Promise<void>> = [];

  /** Blobs made from a transfer's files (thumbnails, previews): deleted with its files at expiry. */
  onExpiry(remove: (transferId: string) => Promise<void>): void {
    this.derivedBlobs.push(remove);
  }

  /** Deletes the bytes of expired transfers and records EXPIRED; names, sizes, hashes and history stay. */
  async expireDue(now: Date = this.now()): Promise<number> {
    let count = 0;
    for (const id of await this.store.dueForExpiry(now, 50)) {
      const files = await this.repo.files(id);
      let failed = false;
      for (const f of files) {
        if (!f.uploadId) continue;
        try {
          await this.uploads.discardUpload(f.uploadId);
        } catch (err) {
          failed = true;
          this.logger.warn(
            { err, transferId: id, fileId: f.id },
            'could not delete an expired file; will retry',
          );
        }
      }
      for (const extra of this.derivedBlobs) {
        try {
          await extra(id);
        } catch (err) {
          failed = true;
          this.logger.warn(
            { err, transferId: id },
            'could not delete an expired transfer’s renditions; will retry',
          );
        }
      }
      if (failed) continue;
      const bytes = files.reduce((sum, f) => sum + (f.uploadedAt ? f.size : 0), 0);
      if (
        await this.store.markExpired(id, {
          type: 'EXPIRED',
          actor: 'system',
          data: { files: files.length, bytes },
        })
      )
        count++;
    }
    return count;
  }

  /** Reminds recipients who have not downloaded yet, once per expiry date. */
  async remindDue(now: Date = this.now()): Promise<number> {
    let count = 0;
    for (const id of await this.store.dueForReminder(now, this.settings.expiryReminderHours, 50)) {
      const transfer = await this.repo.find(id);
      if (!transfer) continue;
      const files = (await this.repo.files(id)).filter((f) => f.uploadedAt);
      const ctx = await this.context(transfer);
      const stamp = Math.floor(transfer.expiresAt.getTime() / 1000);
      for (const r of await this.store.recipientsToRemind(id)) {
        const links = this.unsubscribe(transfer, { n: 'rem', r: r.id });
        const rendered = await expiryReminder(ctx, {
          senderName: transfer.senderName,
          senderEmail: transfer.senderEmail,
          transferName: transfer.name,
          message: transfer.message,
          files: mailFiles(files),
          totalSize: transfer.totalSize,
          expiresAt: transfer.expiresAt,
          downloadUrl: this.personalLink(transfer, r.email),
          unsubscribeUrl: links.page,
        });
        await this.mail.enqueue({
          ...this.outgoing(rendered, [r.email], `rem-${id}-${r.id}-${stamp}`),
          replyTo: transfer.senderEmail ?? undefined,
          listUnsubscribeUrl: links.oneClick,
        });
        count++;
      }
      await this.store.markReminded(id, transfer.expiresAt);
    }
    return count;
  }

  private mailBrand: ((ownerId: string | null) => Promise<MailContext['brand']>) | null = null;

  /** The header image and colours of a transfer owner's account or team in its mails (CustomizationService). */
  brandMails(brand: (ownerId: string | null) => Promise<MailContext['brand']>): void {
    this.mailBrand = brand;
  }

  private async context(transfer: TransferRecord): Promise<MailContext> {
    return {
      locale: transfer.locale,
      timeZone: transfer.timeZone ?? undefined,
      productName: this.productName,
      brand: this.mailBrand ? await this.mailBrand(transfer.ownerId) : null,
    };
  }

  private outgoing(rendered: RenderedMail, to: string[], idempotencyKey: string): OutgoingMail {
    return { to, subject: rendered.subject, html: rendered.html, text: rendered.text, idempotencyKey };
  }
}
