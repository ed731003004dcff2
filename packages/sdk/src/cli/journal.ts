import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where `ferry` keeps what it needs to resume: `$FERRY_STATE_DIR`, else `$XDG_STATE_HOME/ferry`, else
 * `~/.local/state/ferry` (XDG_STATE_HOME is ignored unless absolute, as the XDG spec says).
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  if (env.FERRY_STATE_DIR) return path.resolve(env.FERRY_STATE_DIR);
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'ferry');
  return path.join(home, '.local', 'state', 'ferry');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What identifies a local file in the journal key. */
export interface KeyedFile {
  absPath: string;
  relativePath?: string;
  size: number;
  mtimeMs: number;
}

/**
 * The key of a send: the server plus, for every file, its absolute path, relative path, size and mtime (order
 * of the arguments does not matter). Touching or resizing any file, or adding one, gives another key.
 */
export function sendJournalKey(server: string, files: readonly KeyedFile[]): string {
  const entries = files
    .map((f) => [f.absPath, f.relativePath ?? null, f.size, Math.trunc(f.mtimeMs)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sha256(JSON.stringify(['send', server, entries])).slice(0, 40);
}

/** The key of a download: where it comes from and where it goes. */
export function downloadJournalKey(
  server: string,
  transferId: string,
  fileId: string | null,
  dest: string,
): string {
  return sha256(JSON.stringify(['get', server, transferId, fileId, dest])).slice(0, 40);
}

/** A digest of the options a transfer was created with; resuming with other options starts a new transfer. */
export function optionsDigest(options: Record<string, unknown>): string {
  const sorted = Object.keys(options)
    .sort()
    .map((k) => [k, options[k] ?? null]);
  return sha256(JSON.stringify(sorted));
}

/** One file of an interrupted send. */
export interface SendJournalFile {
  absPath: string;
  relativePath: string | null;
  size: number;
  mtimeMs: number;
  fileId: string;
  /** tus upload URL, known once the upload was created: resume asks it for its offset. */
  uploadUrl: string | null;
  /** Our SHA-256 of the file, once computed (the key guarantees the file did not change since). */
  sha256: string | null;
  /** All bytes accepted by the server. */
  uploaded: boolean;
}

/** An interrupted `ferry send`: enough to continue the same transfer. Removed once the transfer is complete. */
export interface SendJournal {
  version: 1;
  key: string;
  server: string;
  optionsDigest: string;
  transferId: string;
  /** Secret: authorises uploads into the transfer. The journal file is readable by its owner only. */
  uploadToken: string;
  uploadEndpoint: string;
  link: string;
  expiresAt: string;
  createdAt: string;
  files: SendJournalFile[];
}

/** An interrupted `ferry get` of one file (or ZIP): its signed URL, so resuming does not count another download. */
export interface DownloadJournal {
  version: 1;
  key: string;
  url: string;
  expiresAt: string;
  fileName: string;
  size: number;
  sha256: string | null;
}

/** JSON records in one directory, one file per key, written atomically (temp file + rename), mode 0600. */
export class JournalStore<T extends { key: string; expiresAt: string }> {
  private queue: Promise<unknown> = Promise.resolve();
  private counter = 0;

  constructor(readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }

  async load(key: string): Promise<T | null> {
    try {
      const record = JSON.parse(await readFile(this.file(key), 'utf8')) as T;
      return record.key === key ? record : null;
    } catch {
      return null; // absent or unreadable: nothing to resume
    }
  }

  /** Saves a record; saves are serialised so the last one wins. */
  save(record: T): Promise<void> {
    const text = `${JSON.stringify(record, null, 2)}\n`;
    const run = this.queue.then(async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const temp = path.join(this.dir, `.${record.key}.${process.pid}.${this.counter++}.tmp`);
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.file(record.key));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  remove(key: string): Promise<void> {
    const run = this.queue.then(() => unlink(this.file(key)).catch(() => undefined));
    this.queue = run;
    return run;
  }

  /** Removes records whose transfer (or signed URL) has expired: they can never be resumed. */
  async prune(now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const record = await this.load(name.slice(0, -'.json'.length));
      const expires = record ? Date.parse(record.expiresAt) : Number.NaN;
      if (!record || (Number.isFinite(expires) && expires < now)) {
        await unlink(path.join(this.dir, name)).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }
}
