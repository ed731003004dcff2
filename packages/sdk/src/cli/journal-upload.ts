import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatSize, type TransferFile } from '@ferry/core';
import type { DetailedError } from 'tus-js-client';
import type { FerryClient } from '../client.js';
import { sha256File } from '../node/hash.js';
import { errorCodes, retryDelaysFor } from '../retry.js';
import { CliError } from './exit-codes.js';
import type { SendJournal, SendJournalFile } from './journal.js';
import type { ProgressReporter } from './progress.js';
import type { LocalFile } from './walk.js';

/**
 * The steps `ferry send` and `ferry upload-to` share: the journal's files, and uploading one file of it (tus,
 * resumed from the journal's upload URL, hashed alongside, progress on stderr).
 */

/** A journal file as the user names it: its relative path, else its file name. */
export function displayName(file: SendJournalFile): string {
  return file.relativePath ?? path.basename(file.absPath);
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

/** The journal's entries for local files the server listed as `remote`: nothing uploaded or hashed yet. */
export function journalFiles(
  local: readonly LocalFile[],
  remote: readonly TransferFile[],
): SendJournalFile[] {
  const ids = matchServerFiles(local, remote);
  return local.map((f, i) => ({
    absPath: f.absPath,
    relativePath: f.relativePath ?? null,
    size: f.size,
    mtimeMs: f.mtimeMs,
    fileId: ids[i] as string,
    uploadUrl: null,
    sha256: null,
    uploaded: false,
  }));
}

export interface JournalUploaderOptions {
  client: FerryClient;
  ui: ProgressReporter;
  /** Stops the uploads and the hashing. */
  signal: AbortSignal;
  /** How long an upload keeps retrying (default 60 s). */
  retryForMs?: number;
  /** Records the journal after a change (a file's upload URL, a file uploaded). */
  save: (journal: SendJournal) => void;
  /** Also records a file's SHA-256 as soon as it is known. */
  saveHashes?: boolean;
  /** Says on stderr when a file's upload is interrupted and retried. */
  logRetries?: boolean;
}

/** Uploads a journal's files one by one, each hashed once alongside its upload. */
export class JournalUploader {
  private readonly hashes = new Map<string, Promise<string>>();

  constructor(private readonly options: JournalUploaderOptions) {}

  /** Our SHA-256 of a file, computed once (streaming, alongside its upload) and kept in the journal. */
  hashOf(journal: SendJournal, file: SendJournalFile): Promise<string> {
    let hashing = this.hashes.get(file.fileId);
    if (!hashing) {
      hashing = file.sha256
        ? Promise.resolve(file.sha256)
        : sha256File(file.absPath, { signal: this.options.signal }).then((sha) => {
            file.sha256 = sha;
            if (this.options.saveHashes) this.options.save(journal);
            return sha;
          });
      hashing.catch(() => undefined); // awaited later; never an unhandled rejection
      this.hashes.set(file.fileId, hashing);
    }
    return hashing;
  }

  /** Uploads one file (resuming at its upload URL), checks it did not change meanwhile, marks it uploaded. */
  async upload(journal: SendJournal, file: SendJournalFile): Promise<void> {
    const { client, ui, save } = this.options;
    const hashing = this.hashOf(journal, file);
    ui.setLabel(displayName(file));
    await client.uploadFile({
      path: file.absPath,
      endpoint: journal.uploadEndpoint,
      transferId: journal.transferId,
      fileId: file.fileId,
      uploadToken: journal.uploadToken,
      uploadUrl: file.uploadUrl,
      retryDelays: retryDelaysFor(this.options.retryForMs ?? 60_000),
      signal: this.options.signal,
      onUploadUrl: (url) => {
        if (url === file.uploadUrl) return;
        file.uploadUrl = url;
        save(journal);
      },
      onProgress: (sent) => {
        ui.setLabel(displayName(file));
        ui.update(file.fileId, sent);
      },
      onRetry: this.options.logRetries
        ? (error, attempt, delayMs) => {
            const status = (error as DetailedError).originalResponse?.getStatus();
            const why = status ? `server answered ${status}` : (errorCodes(error)[0] ?? 'connection lost');
            ui.log(
              `ferry: upload of ${displayName(file)} interrupted (${why}); retry ${attempt} in ${Math.ceil(delayMs / 1000)} s`,
            );
          }
        : undefined,
    });
    const now = await stat(file.absPath);
    if (now.size !== file.size || Math.trunc(now.mtimeMs) !== Math.trunc(file.mtimeMs)) {
      throw new CliError(`${file.absPath} changed while it was being sent; run the command again`);
    }
    await hashing;
    file.uploaded = true;
    ui.update(file.fileId, file.size);
    save(journal);
    if (!ui.live) ui.log(`uploaded ${displayName(file)} (${formatSize(file.size)})`);
  }
}
