import { randomUUID } from 'node:crypto';
import { lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { checkFileName, type DownloadInfo, Email, type TransferFile } from '@ferry/core';
import { type DownloadLinkParams, FerryClient } from '../client.js';
import { FerryApiError, FerryIntegrityError } from '../errors.js';
import { parseDownloadLink } from '../links.js';
import { sha256File } from '../node/hash.js';
import { resolveSafeOutputPath } from '../safe-path.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { type DownloadJournal, downloadJournalKey, JournalStore, stateDir } from './journal.js';
import { ProgressReporter } from './progress.js';
import { Asker } from './prompt.js';

/** Options of `ferry get`. */
export interface GetOptions {
  password?: string;
  /** `--email`: the downloader's address, for transfers that ask for it (sent as `downloaderEmail`). */
  email?: string;
  /** `--purchase-token`: what a buyer of a priced transfer got (the mailed personal link carries it too). */
  purchaseToken?: string;
  /** Output directory (default: the current one). */
  out: string;
  /** The whole transfer as one ZIP. */
  zip?: boolean;
  quiet?: boolean;
  /** How long to keep retrying while the server is unreachable (default 60 s). */
  retryForMs?: number;
  /** The credential `ferry login` stored for the link's server, sent with the API requests. */
  credential?: string;
  /** Called when the server refuses the credential (the session has ended). */
  onCredentialRejected?: () => void;
}

/** One thing to fetch: where it goes, and how to get a signed URL for it. */
interface Target {
  dest: string;
  label: string;
  fileId: string | null;
  size: number;
  sha256: string | null;
}

/** "a.txt" → "a (2).txt": a free name for a second file that would land on the same path. */
export function numbered(dest: string, n: number): string {
  const ext = path.extname(dest);
  return `${dest.slice(0, dest.length - ext.length)} (${n})${ext}`;
}

/** Maps every file of a transfer to a safe path inside `outDir`; refuses the whole set if one would escape. */
export function planDestinations(
  outDir: string,
  files: readonly TransferFile[],
): Array<{ file: TransferFile; dest: string }> {
  const taken = new Set<string>();
  return files.map((file) => {
    let dest = resolveSafeOutputPath(outDir, file.relativePath ?? file.name);
    for (let n = 2; taken.has(dest); n++)
      dest = numbered(resolveSafeOutputPath(outDir, file.relativePath ?? file.name), n);
    taken.add(dest);
    return { file, dest };
  });
}

/** The ZIP's file name from the server, if it is a plain safe name; otherwise `<transferId>.zip`. */
export function zipFileName(serverName: string, transferId: string): string {
  const name = serverName.trim();
  if (name.includes('/') || name.includes('\\') || checkFileName(name, { bypassExtensionBans: true })) {
    return `${transferId}.zip`;
  }
  return name.toLowerCase().endsWith('.zip') ? name : `${name}.zip`;
}

async function isCompleteOnDisk(dest: string, size: number, sha256: string | null): Promise<boolean> {
  const info = await lstat(dest).catch(() => null);
  if (!info?.isFile() || info.size !== size || sha256 === null) return false;
  return (await sha256File(dest)) === sha256;
}

class GetRun {
  private readonly ui: ProgressReporter;
  private readonly store: JournalStore<DownloadJournal>;
  private client!: FerryClient;
  private readonly browserCode = randomUUID();
  private order = 0;
  /** From a personal link (`?userSecret=…`). */
  private userSecret: string | undefined;
  /** A buyer's purchase token: from --purchase-token or the personal link (`?purchase=…`). */
  private purchaseToken: string | undefined;
  private email: string | undefined;
  /** The transfer asks for the downloader's address (asked once, before the first link). */
  private emailRequired = false;

  constructor(
    private readonly options: GetOptions,
    private readonly io: CliIO,
  ) {
    this.ui = new ProgressReporter(io.stderr, { quiet: options.quiet });
    this.store = new JournalStore<DownloadJournal>(path.join(stateDir(io.env), 'downloads'));
    this.email = options.email;
  }

  async run(link: string): Promise<void> {
    let parsed: ReturnType<typeof parseDownloadLink>;
    try {
      parsed = parseDownloadLink(link);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    this.userSecret = parsed.userSecret;
    this.purchaseToken = this.options.purchaseToken ?? parsed.purchaseToken;
    this.client = new FerryClient({
      server: parsed.server,
      retryForMs: this.options.retryForMs,
      onRetry: ({ delayMs }) =>
        this.ui.log(`ferry: ${parsed.server} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s`),
      credential: this.options.credential,
      onCredentialRejected: this.options.onCredentialRejected,
    });
    const info = await this.info(parsed.transferId);
    if (info.recipientEmail) this.ui.log(`ferry: personal link of ${info.recipientEmail}`);
    this.emailRequired = info.downloaderEmailRequired;
    const outDir = path.resolve(this.options.out);
    await mkdir(outDir, { recursive: true });
    await this.store.prune().catch(() => 0);
    if (this.options.zip) {
      if (parsed.fileId)
        throw new CliError('--zip downloads a whole transfer: give the transfer link, without the file id');
      // The server leaves infected files out of the ZIP: say so, and end with an error once the rest is here.
      for (const f of info.files.filter((x) => x.scanStatus === 'infected'))
        this.skipInfected(f.relativePath ?? f.name);
      await this.getZip(info, outDir);
      this.endIfSkipped();
      return;
    }
    let files = info.files;
    if (parsed.fileId) {
      files = info.files.filter((f) => f.id === parsed.fileId);
      if (files.length === 0) throw new CliError('file not found in this transfer', ExitCode.NOT_FOUND);
    }
    if (files.length === 0) throw new CliError('this transfer has no files to download');
    for (const f of files.filter((x) => x.scanStatus === 'infected'))
      this.skipInfected(f.relativePath ?? f.name);
    files = files.filter((f) => f.scanStatus !== 'infected');
    let targets: Target[];
    try {
      targets = planDestinations(outDir, files).map(({ file, dest }) => ({
        dest,
        label: file.relativePath ?? file.name,
        fileId: file.id,
        size: file.size,
        sha256: file.sha256,
      }));
    } catch (error) {
      throw new CliError(`${(error as Error).message}; nothing was downloaded`);
    }
    this.ui.setTotal(targets.reduce((sum, t) => sum + t.size, 0));
    const todo: Target[] = [];
    for (const target of targets) {
      if (await isCompleteOnDisk(target.dest, target.size, target.sha256)) {
        this.ui.update(target.dest, target.size);
        this.ui.log(`ferry: ${target.label} is already downloaded`);
        this.io.stdout.write(`${target.dest}\n`);
      } else todo.push(target);
    }
    if (info.downloadsLeft === 0 && todo.length > 0) {
      throw new CliError('this transfer has reached its download limit', ExitCode.DOWNLOAD_LIMIT);
    }
    try {
      for (const target of todo) {
        try {
          await this.fetchTarget(info.transferId, outDir, target);
        } catch (error) {
          // Found infected since the info was read (a scan in the background): skipped, as the others are.
          if (!(error instanceof FerryApiError) || !error.has('FILE_INFECTED')) throw error;
          this.skipInfected(target.label);
        }
      }
    } finally {
      this.ui.finish();
    }
    this.endIfSkipped();
  }

  /** Files the virus scan blocked: named on stderr as they are skipped. */
  private readonly infected: string[] = [];

  private skipInfected(label: string): void {
    this.infected.push(label);
    this.ui.warn(`ferry: skipped ${label}: the virus scan found it infected, so it cannot be downloaded`);
  }

  /** Exit 1 once the rest is downloaded, when a file was skipped as infected. */
  private endIfSkipped(): void {
    const n = this.infected.length;
    if (n > 0)
      throw new CliError(
        n === 1
          ? `1 file was skipped because it is infected: ${this.infected[0]}`
          : `${n} files were skipped because they are infected: ${this.infected.join(', ')}`,
      );
  }

  /** Download info, with the password check of spec §8 when the transfer is locked. */
  private async info(transferId: string): Promise<DownloadInfo> {
    const password = this.options.password;
    const info = await this.client.getDownloadInfo(transferId, {
      password,
      userSecret: this.userSecret,
      purchaseToken: this.purchaseToken,
    });
    if (info.locked) {
      if (password === undefined) {
        throw new CliError('this transfer is password protected; pass --password', ExitCode.PASSWORD);
      }
      await this.client.checkPassword(transferId, password, this.userSecret);
      throw new CliError('wrong password', ExitCode.PASSWORD);
    }
    if (info.status === 'UPLOADING')
      throw new CliError('this transfer is still being uploaded; try again later');
    if (info.status === 'SCANNING')
      throw new CliError("this transfer's files are still being checked for viruses; try again in a moment");
    // For sale and not bought: the link call's 402 carries where to buy it (exit 5); it counts nothing.
    if (!info.purchased) await this.downloadLink({ transferId });
    return info;
  }

  /**
   * The downloader's address for a transfer that asks for it: typed at the terminal, else an exit 2 that says
   * to pass --email.
   */
  private async askEmail(): Promise<string> {
    const asker = new Asker(this.io);
    const missing = () =>
      new CliError(
        'this transfer asks for your e-mail address before downloading; pass --email',
        ExitCode.PASSWORD,
      );
    if (!asker.interactive) throw missing();
    this.ui.clearBar();
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await asker.ask('The sender asks who downloads: enter your e-mail address:');
        if (answer === null) throw missing();
        const parsed = Email.safeParse(answer);
        if (parsed.success) return parsed.data;
        this.ui.warn(`ferry: "${answer}" is not an e-mail address`);
      }
      throw missing();
    } finally {
      asker.close();
    }
  }

  /** A signed URL for one file (or the ZIP); asks for the downloader's address if the server wants one. */
  private async downloadLink(params: Pick<DownloadLinkParams, 'transferId' | 'fileId'>) {
    const request = () =>
      this.client.getDownloadLink({
        ...params,
        password: this.options.password,
        userSecret: this.userSecret,
        purchaseToken: this.purchaseToken,
        downloaderEmail: this.email,
        // One run is one visit: the server counts its link calls as a single download (spec §3 browserCode).
        browserCode: this.browserCode,
        orderId: String(++this.order),
      });
    if (this.emailRequired && this.email === undefined) this.email = await this.askEmail();
    try {
      return await request();
    } catch (error) {
      // The sender may have turned the question on since the info was read.
      if (!(error instanceof FerryApiError) || !error.has('DOWNLOADER_EMAIL_REQUIRED') || this.email)
        throw error;
      this.email = await this.askEmail();
      return await request();
    }
  }

  private async getZip(info: DownloadInfo, outDir: string): Promise<void> {
    const key = downloadJournalKey(this.client.server, info.transferId, null, outDir);
    let entry = await this.freshEntry(key);
    if (!entry) {
      const link = await this.downloadLink({ transferId: info.transferId });
      entry = {
        version: 1,
        key,
        url: this.client.resolve(link.url),
        expiresAt: link.expiresAt,
        fileName: zipFileName(link.fileName, info.transferId),
        size: link.size,
        sha256: link.sha256,
      };
      await this.store.save(entry);
    }
    const dest = resolveSafeOutputPath(outDir, entry.fileName);
    this.ui.setTotal(entry.size);
    const target: Target = {
      dest,
      label: entry.fileName,
      fileId: null,
      size: entry.size,
      sha256: entry.sha256,
    };
    try {
      await this.download(target, outDir, entry);
    } finally {
      this.ui.finish();
    }
  }

  /** A saved signed URL that is still valid for a minute or more. */
  private async freshEntry(key: string): Promise<DownloadJournal | null> {
    const entry = await this.store.load(key);
    if (!entry || Date.parse(entry.expiresAt) < Date.now() + 60_000) return null;
    return entry;
  }

  private async fetchTarget(transferId: string, outDir: string, target: Target): Promise<void> {
    const key = downloadJournalKey(this.client.server, transferId, target.fileId, target.dest);
    let entry = await this.freshEntry(key);
    const reused = entry !== null;
    const newEntry = async (): Promise<DownloadJournal> => {
      const link = await this.downloadLink({ transferId, fileId: target.fileId ?? undefined });
      const fresh: DownloadJournal = {
        version: 1,
        key,
        url: this.client.resolve(link.url),
        expiresAt: link.expiresAt,
        fileName: link.fileName,
        size: link.size,
        sha256: link.sha256 ?? target.sha256,
      };
      await this.store.save(fresh);
      return fresh;
    };
    entry ??= await newEntry();
    try {
      await this.download(target, outDir, entry);
    } catch (error) {
      // A saved URL the server no longer honours (e.g. its key changed): ask for a new one, once.
      if (!reused || !(error instanceof FerryApiError) || error.status >= 500 || error.status === 429)
        throw error;
      await this.download(target, outDir, await newEntry());
    }
  }

  private async download(target: Target, outDir: string, entry: DownloadJournal): Promise<void> {
    await mkdir(path.dirname(target.dest), { recursive: true });
    // Lexically safe is not enough if a folder on the way is a symlink planted to lead elsewhere.
    const realDir = await realpath(path.dirname(target.dest));
    const realOut = await realpath(outDir);
    if (realDir !== realOut && !realDir.startsWith(`${realOut}${path.sep}`)) {
      throw new CliError(`refusing to write ${target.dest}: a folder on the way leads outside ${outDir}`);
    }
    if ((await lstat(target.dest).catch(() => null))?.isSymbolicLink()) {
      throw new CliError(`refusing to write ${target.dest}: it is a symbolic link`);
    }
    this.ui.setLabel(target.label);
    try {
      await this.client.download({
        url: entry.url,
        dest: target.dest,
        size: entry.size,
        sha256: entry.sha256 ?? target.sha256,
        signal: this.io.signal,
        onProgress: (done) => this.ui.update(target.dest, done),
        onRetry: ({ delayMs }) =>
          this.ui.log(
            `ferry: download of ${target.label} interrupted; retrying in ${Math.ceil(delayMs / 1000)} s`,
          ),
      });
    } catch (error) {
      if (error instanceof FerryIntegrityError) await this.store.remove(entry.key);
      throw error;
    }
    await this.store.remove(entry.key);
    if (!this.ui.live) this.ui.log(`downloaded ${target.label}`);
    this.io.stdout.write(`${target.dest}\n`);
  }
}

/** `ferry get LINK`: downloads a transfer (or one file, or the ZIP) into a folder, resuming and verifying. */
export function runGet(link: string, options: GetOptions, io: CliIO): Promise<void> {
  return new GetRun(options, io).run(link);
}
