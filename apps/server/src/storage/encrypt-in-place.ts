import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeAll } from './batched-file-store.js';
import { inspect, newHeader, SegmentEncryptor } from './blob-encryption.js';

export interface EncryptInPlaceReport {
  /** Stored files encrypted by this run (a file with several hard-linked names counts once). */
  encrypted: number;
  /** Files already encrypted (an earlier run, or stored with the key set). */
  alreadyEncrypted: number;
  /** Plaintext uploads not finished yet: left as they are, encrypted by a run after they finish. */
  unfinished: number;
  /** Plaintext bytes encrypted. */
  bytes: number;
}

/** Temporary names of this tool, never blobs. */
const TEMP = /\.(encrypting|relinking)-[0-9a-f]{8}$/;

/**
 * Encrypts, in place, every stored plaintext file under the local store's root (`DATA_DIR/files`), for
 * `npm run storage:encrypt`. Each file is encrypted into a temporary file beside it, flushed to disk, then renamed
 * over the original in one step: a reader sees either the old plaintext or the whole encrypted file, both of which
 * Ferry reads. Names hard-linked to one file (clones) are moved to the one encrypted file together, so they stay
 * linked. Idempotent and resumable: encrypted files are recognised by their header and skipped; temporaries left
 * by an interrupted run are removed. Unfinished uploads are skipped (a server may still be appending to them).
 */
export async function encryptInPlace(
  root: string,
  master: Buffer,
  progress: (line: string) => void = () => undefined,
): Promise<EncryptInPlaceReport> {
  const report: EncryptInPlaceReport = { encrypted: 0, alreadyEncrypted: 0, unfinished: 0, bytes: 0 };
  // Names of each plaintext file, grouped by inode (hard links).
  const groups = new Map<string, string[]>();
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (TEMP.test(entry.name)) {
      await fs.rm(file, { force: true });
      continue;
    }
    if (entry.name.endsWith('.json')) continue; // tus's record of an upload, not a blob
    const handle = await fs.open(file, 'r');
    let state: Awaited<ReturnType<typeof inspect>>;
    let stat: Awaited<ReturnType<typeof handle.stat>>;
    try {
      state = await inspect(handle);
      stat = await handle.stat();
    } finally {
      await handle.close();
    }
    if (state.salt) {
      report.alreadyEncrypted++;
      continue;
    }
    if (!(await isFinished(file, stat.size))) {
      report.unfinished++;
      continue;
    }
    const id = `${stat.dev}:${stat.ino}`;
    groups.set(id, [...(groups.get(id) ?? []), file]);
  }
  const total = groups.size;
  let done = 0;
  for (const names of groups.values()) {
    const [first, ...others] = names as [string, ...string[]];
    const bytes = await encryptFile(first, master);
    for (const other of others) {
      const temporary = `${other}.relinking-${randomBytes(4).toString('hex')}`;
      await fs.link(first, temporary);
      await fs.rename(temporary, other);
    }
    report.encrypted++;
    report.bytes += bytes;
    progress(
      `encrypted ${++done}/${total}: ${path.relative(root, first)} (${bytes} bytes${others.length ? `, ${others.length + 1} linked names` : ''})`,
    );
  }
  return report;
}

/** A file is a finished upload when tus's record beside it says so (no record: not a tus upload, so finished). */
async function isFinished(file: string, size: number): Promise<boolean> {
  try {
    const record = JSON.parse(await fs.readFile(`${file}.json`, 'utf8')) as { size?: number };
    return typeof record.size === 'number' && record.size === size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Writes the encrypted form of `file` beside it and renames it over `file`; returns the plaintext length. */
async function encryptFile(file: string, master: Buffer): Promise<number> {
  const temporary = `${file}.encrypting-${randomBytes(4).toString('hex')}`;
  const length = await writeEncryptedCopy(file, temporary, master);
  try {
    const before = await fs.stat(file);
    if (before.size !== length) throw new Error(`${file} changed while it was being encrypted`);
    await fs.rename(temporary, file);
    return length;
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes `source`, encrypted in the stored format (a header, then segments), to the new file `target`, synced;
 * returns the plaintext length. `target` is removed again on failure.
 */
export async function writeEncryptedCopy(source: string, target: string, master: Buffer): Promise<number> {
  const { header, key, layout } = newHeader(master);
  const out = await fs.open(target, 'wx');
  let position = 0;
  let length = 0;
  try {
    await writeAll(out, [header], header.length, 0);
    position = header.length;
    let segment = new SegmentEncryptor(key, 0);
    const flush = async () => {
      const parts = segment.finish();
      await writeAll(out, parts, segment.diskBytes, position);
      position += segment.diskBytes;
      segment = new SegmentEncryptor(key, segment.index + 1);
    };
    for await (const chunk of createReadStream(source, { highWaterMark: 64 * 1024 })) {
      for (let rest = chunk as Buffer; rest.length > 0; ) {
        const take = Math.min(layout.segmentBytes - segment.plaintextBytes, rest.length);
        segment.update(rest.subarray(0, take));
        rest = rest.subarray(take);
        length += take;
        if (segment.plaintextBytes === layout.segmentBytes) await flush();
      }
    }
    if (segment.plaintextBytes > 0) await flush();
    await out.sync();
    await out.close();
    return length;
  } catch (error) {
    await out.close().catch(() => undefined);
    await fs.rm(target, { force: true });
    throw error;
  }
}
