import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { BatchedFileStore } from './batched-file-store.js';
import { decryptingStream, openBlob } from './blob-encryption.js';
import { BlobMissingError, type BlobStore, type ByteRange, type Storage } from './blob-store.js';
import { writeEncryptedCopy } from './encrypt-in-place.js';
import { EncryptedFileStore } from './encrypted-file-store.js';
import { readAhead } from './read-ahead.js';

/** Blobs as files under one root folder on local disk. */
export class LocalBlobStore implements BlobStore {
  /** With a master key, files with the encrypted header are decrypted on reading; others are read as they are. */
  constructor(
    private readonly root: string,
    private readonly master: Buffer | null = null,
  ) {}

  /** The file a key names; throws for a key that would leave the store's folder. */
  resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`blob key escapes the store: ${key}`);
    return full;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.resolve(key);
    if (this.master) {
      const blob = await openBlob(file, this.master);
      if (blob.key && blob.layout) {
        const end = Math.min(range ? range.end : blob.size - 1, blob.size - 1);
        return decryptingStream(blob.handle, blob.key, blob.layout, blob.diskSize, range?.start ?? 0, end);
      }
      await blob.handle.close();
    }
    await fs.access(file);
    const highWaterMark = readAhead.next();
    return readAhead.track(
      createReadStream(
        file,
        range ? { start: range.start, end: range.end, highWaterMark } : { highWaterMark },
      ),
    );
  }

  async size(key: string): Promise<number | null> {
    try {
      if (this.master) {
        const blob = await openBlob(this.resolve(key), this.master);
        await blob.handle.close();
        return blob.size;
      }
      return (await fs.stat(this.resolve(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async putFile(key: string, filePath: string): Promise<void> {
    const target = this.resolve(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Written beside, then renamed: a reader never sees half a file.
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    // With a master key a blob put here (a preview's rendition) is stored encrypted, like every upload.
    if (this.master) await writeEncryptedCopy(filePath, temp, this.master);
    else await fs.copyFile(filePath, temp);
    await fs.rename(temp, target);
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
    await fs.rm(`${this.resolve(key)}.json`, { force: true });
  }

  async ping(): Promise<void> {
    await fs.access(this.root);
  }
}

/** Local disk: tus writes uploads into `${root}/uploads`, and a finished upload is read where it was written. */
export async function createLocalStorage(
  root: string,
  /** STORAGE_ENCRYPTION_KEY_FILE's key: new uploads are then stored encrypted (blob-encryption.ts). */
  masterKey: Buffer | null = null,
): Promise<Storage> {
  const absolute = path.resolve(root);
  const uploads = path.join(absolute, 'uploads');
  await fs.mkdir(uploads, { recursive: true });
  const blobs = new LocalBlobStore(absolute, masterKey);
  const tusStore = masterKey
    ? new EncryptedFileStore({ directory: uploads }, masterKey)
    : new BatchedFileStore({ directory: uploads });
  return {
    blobs,
    tusStore,
    uploadBlobKey: (uploadId) => `uploads/${uploadId}`,
    async readPartialUpload(uploadId, end) {
      if (end <= 0) return null;
      return blobs.read(`uploads/${uploadId}`, { start: 0, end: end - 1 });
    },
    async copyUpload(sourceKey, targetUploadId) {
      const source = blobs.resolve(sourceKey);
      const target = blobs.resolve(`uploads/${targetUploadId}`);
      await shareFile(source, target, sourceKey);
      // The plaintext size: an encrypted file is longer on disk.
      const size = (await blobs.size(`uploads/${targetUploadId}`)) ?? 0;
      await tusStore.configstore.set(
        targetUploadId,
        new Upload({
          id: targetUploadId,
          size,
          offset: size,
          metadata: {},
          creation_date: new Date().toISOString(),
        }),
      );
    },
  };
}

/** link(2) errors that mean "this file system does not do hard links here", not "something is wrong". */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK', 'ENOSYS']);

/**
 * Makes `target` hold the bytes of `source` without a second copy: a hard link (both names are the same file,
 * deleting one leaves the other); where the file system refuses links, a copy-on-write clone (btrfs, XFS, APFS),
 * and only where that is impossible too, a copy. A finished target is left as it is. Returns the size.
 */
async function shareFile(source: string, target: string, sourceKey: string): Promise<number> {
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(source);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError(sourceKey);
    throw error;
  }
  try {
    await fs.link(source, target);
    return stat.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') {
      // A link (or a renamed whole copy) made by an earlier run: done. Anything else there is replaced.
      const existing = await fs.stat(target);
      if ((existing.ino === stat.ino && existing.dev === stat.dev) || existing.size === stat.size)
        return stat.size;
      await fs.rm(target, { force: true });
      return shareFile(source, target, sourceKey);
    }
    if (!NO_LINKS.has(code)) throw error;
  }
  // Copied under a temporary name and renamed: the target never exists half written.
  const partial = `${target}.${randomBytes(4).toString('hex')}.copying`;
  try {
    await fs.copyFile(source, partial, constants.COPYFILE_FICLONE);
    await fs.rename(partial, target);
  } finally {
    await fs.rm(partial, { force: true });
  }
  return stat.size;
}
