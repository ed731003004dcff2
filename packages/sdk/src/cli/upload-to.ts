import path from 'node:path';
import { formatSize, type ReceiveReceipt, type ReceiveTarget } from '@ferry/core';
import { FerryClient } from '../client.js';
import { FerryApiError } from '../errors.js';
import { parseReceiveLink, receiveTargetKey } from '../receive-links.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { JournalStore, optionsDigest, type SendJournal, sendJournalKey, stateDir } from './journal.js';
import { JournalUploader, journalFiles } from './journal-upload.js';
import { pool } from './pool.js';
import { ProgressReporter } from './progress.js';
import { localTimeZone } from './send-options.js';
import { collectFiles, emptyFileWarnings, type LocalFile } from './walk.js';

/** Options of `ferry upload-to`. */
export interface UploadToOptions {
  password?: string;
  name?: string;
  email?: string;
  message?: string;
  /** Answers to the form's questions: `id=answer`. */
  answer?: Record<string, string>;
  lang?: string;
  quiet?: boolean;
  concurrency?: number;
  retryForMs?: number;
}

/**
 * The refusals of an upload into a receive point, in words, with the CLI's exit codes: a wrong or missing
 * password (2), a point that is unknown, closed or expired (3), a file type it does not take (1).
 */
export function receiveError(error: unknown): unknown {
  if (!(error instanceof FerryApiError)) return error;
  if (error.has('PASSWORD_REQUIRED'))
    return new CliError('this upload page is password protected; pass --password', ExitCode.PASSWORD);
  if (error.has('WRONG_PASSWORD')) return new CliError('wrong password', ExitCode.PASSWORD);
  if (error.has('RECEIVE_CLOSED'))
    return new CliError('this request or inbox is closed: it takes no uploads now', ExitCode.NOT_FOUND);
  if (error.has('RECEIVE_EXPIRED'))
    return new CliError('this request has expired: it takes no uploads any more', ExitCode.NOT_FOUND);
  if (error.has('NOT_FOUND'))
    return new CliError('no such request, inbox or widget (check the link)', ExitCode.NOT_FOUND);
  if (error.has('EXTENSION_NOT_AUTHORIZED')) {
    const refused = ((error.details?.files as Array<{ name?: string }> | undefined) ?? []).map((f) => f.name);
    const allowed = (error.details?.allowedExtensions as string[] | undefined) ?? [];
    return new CliError(
      `refused: ${refused.join(', ')}; this page only takes ${allowed.map((e) => `.${e}`).join(', ')} files`,
    );
  }
  if (error.has('VALIDATION_FAILED') && typeof error.details?.field === 'string') {
    const field = error.details.field as string;
    const flag =
      field === 'uploader.name'
        ? ' (--name)'
        : field === 'uploader.email'
          ? ' (--email)'
          : field === 'uploader.message'
            ? ' (--message)'
            : field.startsWith('answers.')
              ? ` (--answer ${field.slice(8)}=…)`
              : '';
    return new CliError(`${error.message}${flag}`);
  }
  return error;
}

class UploadToRun {
  private readonly client: FerryClient;
  private readonly ui: ProgressReporter;
  private readonly store: JournalStore<SendJournal>;
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private readonly uploader: JournalUploader;

  constructor(
    server: string,
    private readonly target: ReceiveTarget,
    private readonly options: UploadToOptions,
    private readonly io: CliIO,
  ) {
    this.ui = new ProgressReporter(io.stderr, { quiet: options.quiet });
    this.signal = AbortSignal.any([io.signal, this.stop.signal]);
    this.store = new JournalStore<SendJournal>(path.join(stateDir(io.env), 'uploads'));
    this.client = new FerryClient({
      server,
      retryForMs: options.retryForMs,
      onRetry: ({ delayMs }) =>
        this.ui.log(`ferry: ${this.client.server} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s`),
    });
    this.uploader = new JournalUploader({
      client: this.client,
      ui: this.ui,
      signal: this.signal,
      retryForMs: options.retryForMs,
      save: (journal) => void this.store.save(journal).catch(() => undefined),
    });
  }

  async run(paths: readonly string[]): Promise<void> {
    const { files, skipped } = await collectFiles(paths);
    for (const s of skipped) this.ui.warn(`ferry: skipping ${s.path}: ${s.reason}`);
    if (files.length === 0) throw new CliError('nothing to upload: no file is left after skipping');
    for (const line of emptyFileWarnings(files)) this.ui.warn(line);
    await this.store.prune().catch(() => 0);
    // Another point (or another uploader identity) is another upload, even with the same files.
    const key = sendJournalKey(`${this.client.server} upload-to ${receiveTargetKey(this.target)}`, files);
    const o = this.options;
    const digest = optionsDigest({
      password: o.password,
      name: o.name,
      email: o.email?.toLowerCase(),
      message: o.message,
      answer: o.answer,
    });
    const resumed = await this.resumable(key, digest);
    let receipt = resumed && resumed.receipt.status !== 'UPLOADING' ? resumed.receipt : null;
    const journal = resumed?.journal ?? (await this.create(key, digest, files));
    receipt ??= await this.uploadAll(journal);
    await this.store.remove(key);
    this.print(receipt);
  }

  private async create(key: string, digest: string, files: LocalFile[]): Promise<SendJournal> {
    const o = this.options;
    const point = await this.client.getReceivePoint(this.target);
    if (!o.quiet) {
      const to = point.title ?? point.ownerName ?? 'the recipient';
      this.io.stderr.write(`ferry: uploading to “${to}”\n`);
    }
    const created = await this.client.createReceiveUpload({
      target: this.target,
      password: o.password,
      uploaderName: o.name,
      uploaderEmail: o.email,
      message: o.message,
      answers: Object.entries(o.answer ?? {}).map(([questionId, answer]) => ({ questionId, answer })),
      locale: o.lang,
      timeZone: localTimeZone(),
      files: files.map((f) => ({ name: f.name, size: f.size, relativePath: f.relativePath })),
    });
    const journal: SendJournal = {
      version: 1,
      key,
      server: this.client.server,
      optionsDigest: digest,
      transferId: created.transferId,
      uploadToken: created.uploadToken,
      uploadEndpoint: this.client.resolve(created.uploadEndpoint),
      link: '',
      // The journal outlives no upload: an unfinished upload is removed by the server after a day or so.
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      createdAt: new Date().toISOString(),
      files: journalFiles(files, created.files),
    };
    await this.store.save(journal);
    return journal;
  }

  /** The journal of an interrupted upload of the same files to the same point, if the server still has it. */
  private async resumable(key: string, digest: string) {
    const journal = await this.store.load(key);
    if (!journal) return null;
    if (journal.optionsDigest !== digest) {
      this.ui.warn('ferry: options differ from the interrupted upload of these files; starting a new upload');
      return null;
    }
    let receipt: ReceiveReceipt;
    try {
      receipt = await this.client.getReceiveReceipt(journal.transferId, journal.uploadToken);
    } catch (error) {
      if (!(error instanceof FerryApiError) || error.status >= 500 || error.status === 429) throw error;
      this.ui.warn(`ferry: the interrupted upload cannot be resumed (${error.message}); starting a new one`);
      await this.store.remove(key);
      return null;
    }
    const uploaded = new Set(receipt.files.filter((f) => f.uploaded).map((f) => f.id));
    for (const file of journal.files) file.uploaded = uploaded.has(file.fileId);
    if (receipt.status === 'UPLOADING' && uploaded.size > 0)
      this.ui.log(
        `ferry: resuming the upload (${uploaded.size} of ${journal.files.length} files already there)`,
      );
    return { journal, receipt };
  }

  private async uploadAll(journal: SendJournal): Promise<ReceiveReceipt> {
    this.ui.setTotal(journal.files.reduce((sum, f) => sum + f.size, 0));
    for (const file of journal.files) if (file.uploaded) this.ui.update(file.fileId, file.size);
    try {
      for (let round = 0; ; round++) {
        await pool(
          journal.files.filter((f) => !f.uploaded),
          this.options.concurrency ?? 3,
          (file) => this.uploader.upload(journal, file),
          () => this.stop.abort(new Error('another upload failed')),
        );
        try {
          return await this.complete(journal);
        } catch (error) {
          if (round > 0 || !(error instanceof FerryApiError) || !error.has('UPLOAD_INCOMPLETE')) throw error;
          const missing = new Set((error.details?.files as string[] | undefined) ?? []);
          for (const file of journal.files)
            if (missing.has(file.fileId)) Object.assign(file, { uploaded: false, uploadUrl: null });
        }
      }
    } finally {
      this.ui.finish();
      await this.store.save(journal).catch(() => undefined);
    }
  }

  private async complete(journal: SendJournal): Promise<ReceiveReceipt> {
    const files: Array<{ id: string; sha256: string }> = [];
    for (const f of journal.files)
      files.push({ id: f.fileId, sha256: await this.uploader.hashOf(journal, f) });
    try {
      return await this.client.completeReceiveUpload(journal.transferId, journal.uploadToken, files);
    } catch (error) {
      if (error instanceof FerryApiError && error.has('CHECKSUM_MISMATCH')) {
        const bad = new Set(
          ((error.details?.files as Array<{ id?: string }> | undefined) ?? []).map((f) => f.id),
        );
        for (const file of journal.files)
          if (bad.has(file.fileId)) Object.assign(file, { uploaded: false, uploadUrl: null, sha256: null });
        await this.store.save(journal);
        throw new CliError(
          'SHA-256 mismatch: the server received different bytes; run the same command again to re-send',
        );
      }
      throw error;
    }
  }

  /** The receipt: one `sha256  path` line per file on stdout (as sha256sum writes them), a summary on stderr. */
  private print(receipt: ReceiveReceipt): void {
    for (const f of receipt.files) this.io.stdout.write(`${f.sha256 ?? '-'}  ${f.relativePath ?? f.name}\n`);
    if (this.options.quiet) return;
    const n = receipt.files.length;
    const to = receipt.title ?? receipt.ownerName;
    this.io.stderr.write(
      `ferry: delivered ${n} file${n === 1 ? '' : 's'} (${formatSize(receipt.totalSize)})${to ? ` to “${to}”` : ''}` +
        `${receipt.receiptSentTo ? `; a receipt was e-mailed to ${receipt.receiptSentTo}` : ''}\n`,
    );
  }
}

/** `ferry upload-to LINK PATH...`: uploads into a request, an inbox or a widget's inbox; prints the receipt. */
export async function runUploadTo(
  link: string,
  paths: readonly string[],
  options: UploadToOptions,
  io: CliIO,
): Promise<void> {
  let parsed: ReturnType<typeof parseReceiveLink>;
  try {
    parsed = parseReceiveLink(link);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  try {
    await new UploadToRun(parsed.server, parsed.target, options, io).run(paths);
  } catch (error) {
    throw receiveError(error);
  }
}
