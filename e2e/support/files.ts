import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';

const CHUNK = 4 * 1024 * 1024;

/** Writes `size` random bytes to `file`, streamed (never held in memory); resolves with their SHA-256. */
export async function writeRandomFile(file: string, size: number): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  try {
    for (let written = 0; written < size; ) {
      const chunk = randomBytes(Math.min(CHUNK, size - written));
      hash.update(chunk);
      written += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return hash.digest('hex');
}

/** Writes small files: `{ "a.txt": "…", "folder/nested/b.bin": Buffer }` under `root`. */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
}

/** Streamed SHA-256 of a file on disk. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Size of a file, or null when it does not exist (yet). */
export async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Every regular file under `root`, as forward-slash relative paths → bytes. */
export async function readTree(root: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile())
        found.set(path.relative(root, full).split(path.sep).join('/'), await fs.readFile(full));
    }
  };
  await walk(root);
  return found;
}

/**
 * The file entries of a ZIP (directory entries skipped), name → bytes, read with yauzl (which checks each
 * entry's CRC-32 and size while reading). Meant for the small ZIPs of the tests.
 */
export function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('yauzl gave no zip file'));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        if (entries.has(entry.fileName)) return reject(new Error(`duplicate ZIP entry ${entry.fileName}`));
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no entry stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Polls `probe` until it returns a value that is not null/undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = 30_000, intervalMs = 100, what = 'a condition' } = {},
): Promise<Exclude<T, null | undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined && value !== false)
        return value as Exclude<T, null | undefined | false>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Samples a file's size every `intervalMs` until stopped, e.g. to prove an upload never restarted from 0. */
export class SizeSampler {
  readonly samples: Array<{ at: number; size: number | null }> = [];
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    private readonly file: string,
    private readonly intervalMs = 50,
  ) {}

  start(): this {
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      sizeOf(this.file)
        .then((size) => this.samples.push({ at: Date.now(), size }))
        .catch(() => undefined)
        .finally(() => {
          this.busy = false;
        });
    }, this.intervalMs);
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Smallest size seen (a missing file counts as -1). */
  min(): number {
    return Math.min(...this.samples.map((s) => s.size ?? -1));
  }

  /** Whether the size ever went down between two samples. */
  shrank(): boolean {
    return this.samples.some((s, i) => i > 0 && (s.size ?? -1) < (this.samples[i - 1]!.size ?? -1));
  }
}
