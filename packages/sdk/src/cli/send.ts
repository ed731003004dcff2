import path from 'node:path';
import { type Currency, formatSize, type TransferSummary } from '@ferry/core';
import { FerryClient } from '../client.js';
import { FerryApiError } from '../errors.js';
import { currentAccount } from './auth.js';
import { deliveryReport, waitForDeliveries } from './deliveries.js';
import { CliError } from './exit-codes.js';
import type { CliIO } from './io.js';
import { JournalStore, type SendJournal, sendJournalKey, stateDir } from './journal.js';
import { displayName, JournalUploader, journalFiles } from './journal-upload.js';
import { pool } from './pool.js';
import { ProgressReporter } from './progress.js';
import { Asker } from './prompt.js';
import {
  checkEmailOptions,
  checkLinkPreviewOptions,
  type EmailOptions,
  emailRequestFields,
  type LinkPreviewOptions,
  linkPreviewRequestFields,
  localTimeZone,
  sendOptionsDigest,
} from './send-options.js';
import { SenderTokenStore } from './sender-tokens.js';
import { isoWithOffset, localTime } from './transfer-input.js';
import { verifySenderAddress } from './verify.js';
import { collectFiles, emptyFileWarnings, type LocalFile } from './walk.js';

/** Options of `ferry send`. */
export interface SendOptions extends EmailOptions, LinkPreviewOptions {
  server: string;
  password?: string;
  maxDownloads?: number;
  /** `--price` in minor units (and `--currency`): the files are sold (S2). */
  price?: number;
  currency?: Currency;
  expiresInDays?: number;
  /** `--custom-link`: the transfer also answers at /dl/{customLink} (paying plans). */
  customLink?: string;
  /** `--available-from`: the moment the transfer opens (PENDING until then). */
  availableFrom?: Date;
  name?: string;
  message?: string;
  quiet?: boolean;
  /** Files uploaded at the same time. */
  concurrency?: number;
  /** How long to keep retrying while the server is unreachable (default 60 s). */
  retryForMs?: number;
  /** How long to wait for the recipients' e-mails to be delivered (S1), for the report (default 30 s). */
  deliveryWaitMs?: number;
  /** The credential `ferry login` stored for the server: the transfer is then made as that account. */
  credential?: string;
  /** Called when the server refuses the credential (the session has ended). */
  onCredentialRejected?: () => void;
}

class SendRun {
  private readonly store: JournalStore<SendJournal>;
  private readonly tokens: SenderTokenStore;
  private readonly client: FerryClient;
  private readonly ui: ProgressReporter;
  private readonly uploader: JournalUploader;
  private saveTimer: NodeJS.Timeout | null = null;
  /** Aborted on Ctrl-C, or when one upload fails so the others stop too. */
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;

  constructor(
    private readonly options: SendOptions,
    private readonly io: CliIO,
  ) {
    this.ui = new ProgressReporter(io.stderr, { quiet: options.quiet });
    this.signal = AbortSignal.any([io.signal, this.stop.signal]);
    this.store = new JournalStore<SendJournal>(path.join(stateDir(io.env), 'uploads'));
    this.tokens = new SenderTokenStore(stateDir(io.env));
    this.client = new FerryClient({
      server: options.server,
      retryForMs: options.retryForMs,
      onRetry: ({ delayMs }) =>
        this.ui.log(`ferry: ${this.client.server} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s`),
      credential: options.credential,
      onCredentialRejected: options.onCredentialRejected,
    });
    this.uploader = new JournalUploader({
      client: this.client,
      ui: this.ui,
      signal: this.signal,
      retryForMs: options.retryForMs,
      save: (journal) => this.saveSoon(journal),
      saveHashes: true,
      logRetries: true,
    });
  }

  async run(paths: readonly string[]): Promise<void> {
    const signedIn = this.client.credential !== undefined;
    checkEmailOptions(this.options, { signedIn });
    if (this.options.price === undefined && this.options.currency)
      throw new CliError('--currency goes with --price');
    if (this.options.price !== undefined && (this.options.to?.length ?? 0) > 0)
      throw new CliError('--price sells a link transfer: leave out --to');
    if (this.options.price !== undefined && !signedIn)
      throw new CliError('selling files needs a paid plan: sign in first with `ferry login`');
    checkLinkPreviewOptions(this.options, { signedIn });
    const { openGraph } = linkPreviewRequestFields(this.options);
    if (openGraph && this.options.password !== undefined)
      this.ui.warn(
        'ferry: the link preview is not shown while the transfer has a password: its page shows a general one',
      );
    const { files, skipped } = await collectFiles(paths);
    for (const s of skipped) this.ui.warn(`ferry: skipping ${s.path}: ${s.reason}`);
    if (files.length === 0) throw new CliError('nothing to send: no file is left after skipping');
    for (const line of emptyFileWarnings(files)) this.ui.warn(line);
    // Signed in: make sure the session still holds before anything is created (an ended one is exit 2).
    const account = signedIn ? await currentAccount(this.client, this.client.server) : null;
    if (account && !this.options.quiet)
      this.io.stderr.write(`ferry: sending as ${account.user.email} (${account.planType})\n`);
    await this.store.prune().catch(() => 0);
    const key = sendJournalKey(this.client.server, files);
    // A transfer started as someone else (or anonymously) is not continued as this account.
    const digest = sendOptionsDigest({ ...this.options, account: account?.user.uid });
    const resumed = await this.resumable(key, digest);
    const journal = resumed?.journal ?? (await this.create(key, digest, files));
    // Completed by an earlier run: its answer was lost, or it is waiting for the sender's code.
    let summary = resumed && resumed.state.status !== 'UPLOADING' ? resumed.state : null;
    summary ??= await this.uploadAll(journal);
    summary = await this.verification(journal, summary);
    this.cancelSave();
    await this.store.remove(key);
    this.printLink(summary.link, journal, summary);
    if (summary.type === 'S1') await this.reportDeliveries(journal, summary);
  }

  /** Uploads what the server does not have yet and completes the transfer. */
  private async uploadAll(journal: SendJournal): Promise<TransferSummary> {
    this.ui.setTotal(journal.files.reduce((sum, f) => sum + f.size, 0));
    const pending = journal.files.filter((f) => !f.uploaded);
    for (const file of journal.files) if (file.uploaded) this.ui.update(file.fileId, file.size);
    if (pending.length < journal.files.length) {
      this.ui.log(
        `ferry: resuming transfer ${journal.transferId} (${journal.files.length - pending.length} of ${journal.files.length} files already uploaded)`,
      );
    }
    try {
      return await this.uploadAndComplete(journal);
    } finally {
      this.ui.finish();
      await this.flush(journal).catch(() => undefined);
    }
  }

  /**
   * When the server waits for the sender's code, gets it (flag, terminal or stdin) and confirms the address,
   * keeping the token for later sends. Without a right code this throws and the journal stays, so running the
   * same command again (with --verification-code) finishes the transfer.
   */
  private async verification(journal: SendJournal, summary: TransferSummary): Promise<TransferSummary> {
    if (summary.senderVerification !== 'pending') return summary;
    const email = this.options.from ?? summary.senderEmail ?? 'your address';
    const asker = new Asker(this.io);
    try {
      const verified = await verifySenderAddress({
        client: this.client,
        transferId: journal.transferId,
        uploadToken: journal.uploadToken,
        email,
        code: this.options.verificationCode,
        resend: this.options.resendCode,
        asker,
        log: (line) => this.ui.log(line),
        warn: (line) => this.ui.warn(line),
      });
      if (!verified) return await this.client.getUploadState(journal.transferId, journal.uploadToken);
      await this.tokens
        .put(this.client.server, email, verified.senderVerificationToken, verified.expiresAt)
        .catch((error: Error) =>
          this.ui.warn(`ferry: could not remember the verification of ${email}: ${error.message}`),
        );
      this.ui.log(`ferry: ${email} is confirmed; later sends from it need no code`);
      return verified.transfer;
    } finally {
      asker.close();
    }
  }

  /** S1: waits (a while) for the recipients' e-mails to be delivered and says how each went, on stderr. */
  private async reportDeliveries(journal: SendJournal, first: TransferSummary): Promise<void> {
    let result: Awaited<ReturnType<typeof waitForDeliveries>>;
    try {
      result = await waitForDeliveries(
        first,
        () => this.client.getUploadState(journal.transferId, journal.uploadToken),
        { timeoutMs: this.options.deliveryWaitMs ?? 30_000, signal: this.io.signal },
      );
    } catch (error) {
      // Ctrl-C while waiting only stops the wait: the transfer is sent and its link printed.
      if (this.io.signal.aborted) return;
      throw error;
    }
    const { summary, error } = result;
    for (const { line, warning } of deliveryReport(summary)) {
      if (warning) this.ui.warn(line);
      else this.ui.log(line);
    }
    if (error)
      this.ui.warn(`ferry: could not check the deliveries: ${(error as Error).message ?? String(error)}`);
  }

  /**
   * Saves the journal soon (at most every 250 ms): with thousands of small files, saving the whole journal after
   * each one would write it thousands of times. Losing the last 250 ms to a crash only costs a re-check.
   */
  private saveSoon(journal: SendJournal): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.store.save(journal).catch(() => undefined);
    }, 250);
  }

  private cancelSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
  }

  private async flush(journal: SendJournal): Promise<void> {
    this.cancelSave();
    await this.store.save(journal);
  }

  private async uploadAndComplete(journal: SendJournal): Promise<TransferSummary> {
    for (let round = 0; ; round++) {
      const pending = journal.files.filter((f) => !f.uploaded);
      await pool(
        pending,
        this.options.concurrency ?? 3,
        (file) => this.uploader.upload(journal, file),
        () => this.stop.abort(new Error('another upload failed')),
      );
      try {
        return await this.complete(journal);
      } catch (error) {
        if (round > 0 || !(error instanceof FerryApiError) || !error.has('UPLOAD_INCOMPLETE')) throw error;
        // The server lost the end of some upload (e.g. it stopped right after receiving it): send those again.
        const state = await this.client.getUploadState(journal.transferId, journal.uploadToken);
        const missing = new Set(state.files.filter((f) => !f.uploaded).map((f) => f.id));
        for (const file of journal.files) {
          if (!missing.has(file.fileId)) continue;
          Object.assign(file, { uploaded: false, uploadUrl: null });
          this.ui.update(file.fileId, 0);
        }
        this.ui.log(`ferry: the server is missing ${missing.size} file(s); sending them again`);
      }
    }
  }

  /** The journal of an interrupted send of the same files, if the server can still continue it. */
  private async resumable(
    key: string,
    digest: string,
  ): Promise<{ journal: SendJournal; state: TransferSummary } | null> {
    const journal = await this.store.load(key);
    if (!journal) return null;
    const warn = (line: string) => this.ui.warn(line);
    if (journal.optionsDigest !== digest) {
      warn('ferry: options differ from the interrupted send of these files; starting a new transfer');
      return null;
    }
    let state: TransferSummary;
    try {
      state = await this.client.getUploadState(journal.transferId, journal.uploadToken);
    } catch (error) {
      if (!(error instanceof FerryApiError) || error.status >= 500 || error.status === 429) throw error;
      warn(
        `ferry: the interrupted transfer ${journal.transferId} cannot be resumed (${error.message}); starting a new one`,
      );
      await this.store.remove(key);
      return null;
    }
    if (state.status === 'DISABLED' || state.status === 'DELETED') {
      warn(
        `ferry: the interrupted transfer ${journal.transferId} was ${state.status.toLowerCase()}; starting a new one`,
      );
      await this.store.remove(key);
      return null;
    }
    const uploaded = new Set(state.files.filter((f) => f.uploaded).map((f) => f.id));
    for (const file of journal.files) file.uploaded = uploaded.has(file.fileId);
    return { journal, state };
  }

  private async create(key: string, digest: string, files: LocalFile[]): Promise<SendJournal> {
    const o = this.options;
    const savedToken = o.from ? await this.tokens.get(this.client.server, o.from) : undefined;
    const created = await this.client.createTransfer({
      ...emailRequestFields(o),
      name: o.name,
      message: o.message,
      password: o.password,
      expiresInDays: o.expiresInDays,
      maxDownloads: o.maxDownloads,
      customLink: o.customLink,
      availableFrom: o.availableFrom ? isoWithOffset(o.availableFrom) : undefined,
      ...linkPreviewRequestFields(o),
      ...(o.price !== undefined ? { price: { amount: o.price, currency: o.currency ?? 'EUR' } } : {}),
      senderVerificationToken: savedToken,
      locale: o.lang,
      timeZone: localTimeZone(),
      files: files.map((f) => ({ name: f.name, size: f.size, relativePath: f.relativePath })),
    });
    if (created.senderVerification === 'pending' && o.from) {
      // Written directly: the progress bar is not drawn yet (ui.log would draw an empty one).
      const info = (line: string) => (o.quiet ? undefined : this.io.stderr.write(`${line}\n`));
      if (savedToken) {
        await this.tokens.remove(this.client.server, o.from);
        info(`ferry: the saved confirmation of ${o.from} is no longer valid`);
      }
      info(
        `ferry: a 6-digit code was sent to ${o.from} to confirm it is yours; the upload goes on meanwhile`,
      );
    }
    const journal: SendJournal = {
      version: 1,
      key,
      server: this.client.server,
      optionsDigest: digest,
      transferId: created.transferId,
      uploadToken: created.uploadToken,
      uploadEndpoint: this.client.resolve(created.uploadEndpoint),
      link: created.link,
      expiresAt: created.expiresAt,
      createdAt: new Date().toISOString(),
      files: journalFiles(files, created.files),
    };
    await this.store.save(journal);
    return journal;
  }

  private async complete(journal: SendJournal): Promise<TransferSummary> {
    const files: Array<{ id: string; sha256: string }> = [];
    // One at a time: most are known already, and thousands of files must not be opened at once.
    for (const f of journal.files)
      files.push({ id: f.fileId, sha256: await this.uploader.hashOf(journal, f) });
    try {
      return await this.client.completeTransfer(journal.transferId, journal.uploadToken, files);
    } catch (error) {
      if (!(error instanceof FerryApiError)) throw error;
      if (error.has('CHECKSUM_MISMATCH')) {
        const bad = new Set(
          ((error.details?.files as Array<{ id?: string }> | undefined) ?? [])
            .map((f) => f.id)
            .filter(Boolean),
        );
        const names: string[] = [];
        for (const file of journal.files) {
          if (bad.size > 0 && !bad.has(file.fileId)) continue;
          names.push(displayName(file));
          Object.assign(file, { uploaded: false, uploadUrl: null, sha256: null });
        }
        await this.flush(journal);
        throw new CliError(
          `SHA-256 mismatch: the server received different bytes for ${names.join(', ')}; run the same command again to re-send`,
        );
      }
      if (error.has('TRANSFER_NOT_UPLOADING')) {
        // An earlier attempt did complete it (its answer was lost).
        const state = await this.client.getUploadState(journal.transferId, journal.uploadToken);
        if (state.status !== 'UPLOADING') return state;
      }
      throw error;
    }
  }

  private printLink(link: string, journal: SendJournal, summary: TransferSummary): void {
    const absolute = this.client.resolve(link);
    const size = formatSize(journal.files.reduce((sum, f) => sum + f.size, 0));
    if (!this.options.quiet) {
      const n = journal.files.length;
      const opens =
        summary.status === 'PENDING' && summary.availableFrom
          ? `, opens on ${localTime(new Date(summary.availableFrom))} local time (nothing goes out before)`
          : '';
      this.io.stderr.write(
        `ferry: sent ${n} file${n === 1 ? '' : 's'} (${size})${opens}, available until ${summary.expiresAt}\n`,
      );
    }
    this.io.stdout.write(`${absolute}\n`);
  }
}

/** `ferry send PATH...`: uploads files and folders resumably and prints the download link on stdout. */
export function runSend(paths: readonly string[], options: SendOptions, io: CliIO): Promise<void> {
  return new SendRun(options, io).run(paths);
}
