import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatSize, type TransferFile, type TransferSummary } from '@ferry/core';
import type { DetailedError } from 'tus-js-client';
import { FerryClient } from '../client.js';
import { FerryApiError } from '../errors.js';
import { sha256File } from '../node/hash.js';
import { errorCodes, retryDelaysFor } from '../retry.js';
import { CliError } from './exit-codes.js';
import type { CliIO } from './io.js';
import {
  JournalStore,
  optionsDigest,
  type SendJournal,
  type SendJournalFile,
  sendJournalKey,
  stateDir,
} from './journal.js';
import { pool } from './pool.js';
import { ProgressReporter } from './progress.js';
import { collectFiles, type LocalFile } from './walk.js';

/** Options of `ferry send`. */
export interface SendOptions {
  server: string;
  password?: string;
  maxDownloads?: number;
  expiresInDays?: number;
  name?: string;
  message?: string;
  quiet?: boolean;
  /** Files uploaded at the same time. */
  concurrency?: number;
  /** How long to keep retrying while the server is unreachable (default 60 s). */
  retryForMs?: number;
}

/** Pairs each local file with the server's file of the same relative path, name and size. */
export function matchServerFiles(local: readonly LocalFile[], remote: readonly TransferFile[]): string[] {
  const unused = [...remote];
  return local.map((file) => {
    const index = unused.findIndex(
      (r) =>
        r.name === file.name &&
        r.size === file.size &&
        (r.relativePath ?? null) === (file.relativePath ?? null),
    );
    const match = index >= 0 ? unused.splice(index, 1)[0] : undefined;
    if (!match)
      throw new CliError(`the server did not list ${file.relativePath ?? file.name} in the transfer`);
    return match.id;
  });
}

function displayName(file: SendJournalFile): string {
  return file.relativePath ?? path.basename(file.absPath);
}

class SendRun {
  private readonly store: JournalStore<SendJournal>;
  private readonly client: FerryClient;
  private readonly ui: ProgressReporter;
  private readonly hashes = new Map<string, Promise<string>>();
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
    this.client = new FerryClient({
      server: options.server,
      retryForMs: options.retryForMs,
      onRetry: ({ delayMs }) =>
        this.ui.log(`ferry: ${this.client.server} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s`),
    });
  }

  async run(paths: readonly string[]): Promise<void> {
    const { files, skipped } = await collectFiles(paths);
    for (const s of skipped) this.ui.warn(`ferry: skipping ${s.path}: ${s.reason}`);
    if (files.length === 0) throw new CliError('nothing to send: no file is left after skipping');
    await this.store.prune().catch(() => 0);
    const key = sendJournalKey(this.client.server, files);
    const { name, message, password, maxDownloads, expiresInDays } = this.options;
    const digest = optionsDigest({ name, message, password, maxDownloads, expiresInDays });
    let journal = await this.resumable(key, digest);
    if (journal === 'complete') return;
    journal ??= await this.create(key, digest, files);
    this.ui.setTotal(journal.files.reduce((sum, f) => sum + f.size, 0));
    const pending = journal.files.filter((f) => !f.uploaded);
    for (const file of journal.files) if (file.uploaded) this.ui.update(file.fileId, file.size);
    if (pending.length < journal.files.length) {
      this.ui.log(
        `ferry: resuming transfer ${journal.transferId} (${journal.files.length - pending.length} of ${journal.files.length} files already uploaded)`,
      );
    }
    const current = journal;
    let done = false;
    try {
      const summary = await this.uploadAndComplete(current);
      done = true;
      this.cancelSave();
      this.ui.finish();
      await this.store.remove(key);
      this.printLink(summary.link, current, summary);
    } finally {
      this.ui.finish();
      if (!done) await this.flush(current).catch(() => undefined);
    }
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
        (file) => this.upload(journal, file),
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
  private async resumable(key: string, digest: string): Promise<SendJournal | 'complete' | null> {
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
    if (state.status !== 'UPLOADING') {
      // Completed by an earlier run whose answer was lost.
      await this.store.remove(key);
      this.printLink(state.link, journal, state);
      return 'complete';
    }
    const uploaded = new Set(state.files.filter((f) => f.uploaded).map((f) => f.id));
    for (const file of journal.files) file.uploaded = uploaded.has(file.fileId);
    return journal;
  }

  private async create(key: string, digest: string, files: LocalFile[]): Promise<SendJournal> {
    const o = this.options;
    const created = await this.client.createTransfer({
      type: 'S2',
      name: o.name,
      message: o.message,
      password: o.password,
      expiresInDays: o.expiresInDays,
      maxDownloads: o.maxDownloads,
      files: files.map((f) => ({ name: f.name, size: f.size, relativePath: f.relativePath })),
    });
    const ids = matchServerFiles(files, created.files);
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
      files: files.map((f, i) => ({
        absPath: f.absPath,
        relativePath: f.relativePath ?? null,
        size: f.size,
        mtimeMs: f.mtimeMs,
        fileId: ids[i] as string,
        uploadUrl: null,
        sha256: null,
        uploaded: false,
      })),
    };
    await this.store.save(journal);
    return journal;
  }

  /** Our SHA-256 of a file, computed once (streaming, alongside its upload) and kept in the journal. */
  private hashOf(journal: SendJournal, file: SendJournalFile): Promise<string> {
    let hashing = this.hashes.get(file.fileId);
    if (!hashing) {
      hashing = file.sha256
        ? Promise.resolve(file.sha256)
        : sha256File(file.absPath, { signal: this.signal }).then((sha) => {
            file.sha256 = sha;
            this.saveSoon(journal);
            return sha;
          });
      hashing.catch(() => undefined); // awaited later; never an unhandled rejection
      this.hashes.set(file.fileId, hashing);
    }
    return hashing;
  }

  private async upload(journal: SendJournal, file: SendJournalFile): Promise<void> {
    const hashing = this.hashOf(journal, file);
    this.ui.setLabel(displayName(file));
    await this.client.uploadFile({
      path: file.absPath,
      endpoint: journal.uploadEndpoint,
      transferId: journal.transferId,
      fileId: file.fileId,
      uploadToken: journal.uploadToken,
      uploadUrl: file.uploadUrl,
      retryDelays: retryDelaysFor(this.options.retryForMs ?? 60_000),
      signal: this.signal,
      onUploadUrl: (url) => {
        if (url === file.uploadUrl) return;
        file.uploadUrl = url;
        this.saveSoon(journal);
      },
      onProgress: (sent) => {
        this.ui.setLabel(displayName(file));
        this.ui.update(file.fileId, sent);
      },
      onRetry: (error, attempt, delayMs) => {
        const status = (error as DetailedError).originalResponse?.getStatus();
        const why = status ? `server answered ${status}` : (errorCodes(error)[0] ?? 'connection lost');
        this.ui.log(
          `ferry: upload of ${displayName(file)} interrupted (${why}); retry ${attempt} in ${Math.ceil(delayMs / 1000)} s`,
        );
      },
    });
    const now = await stat(file.absPath);
    if (now.size !== file.size || Math.trunc(now.mtimeMs) !== Math.trunc(file.mtimeMs)) {
      throw new CliError(`${file.absPath} changed while it was being sent; run the command again`);
    }
    await hashing;
    file.uploaded = true;
    this.ui.update(file.fileId, file.size);
    this.saveSoon(journal);
    if (!this.ui.live) this.ui.log(`uploaded ${displayName(file)} (${formatSize(file.size)})`);
  }

  private async complete(journal: SendJournal): Promise<TransferSummary> {
    const files: Array<{ id: string; sha256: string }> = [];
    // One at a time: most are known already, and thousands of files must not be opened at once.
    for (const f of journal.files) files.push({ id: f.fileId, sha256: await this.hashOf(journal, f) });
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
      this.io.stderr.write(
        `ferry: sent ${n} file${n === 1 ? '' : 's'} (${size}), available until ${summary.expiresAt}\n`,
      );
    }
    this.io.stdout.write(`${absolute}\n`);
  }
}

/** `ferry send PATH...`: uploads files and folders resumably and prints the download link on stdout. */
export function runSend(paths: readonly string[], options: SendOptions, io: CliIO): Promise<void> {
  return new SendRun(options, io).run(paths);
}
