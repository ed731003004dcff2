import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import type { BlobStore, ByteRange, Storage } from './blob-store.js';

/** Blobs as files under one root folder on local disk. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`blob key escapes the store: ${key}`);
    return full;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.resolve(key);
    await fs.access(file);
    return createReadStream(
      file,
      range ? { start: range.start, end: range.end, highWaterMark: 1 << 20 } : { highWaterMark: 1 << 20 },
    );
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.stat(this.resolve(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
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
export async function createLocalStorage(root: string): Promise<Storage> {
  const absolute = path.resolve(root);
  const uploads = path.join(absolute, 'uploads');
  await fs.mkdir(uploads, { recursive: true });
  const blobs = new LocalBlobStore(absolute);
  return {
    blobs,
    tusStore: new FileStore({ directory: uploads }),
    uploadBlobKey: (uploadId) => `uploads/${uploadId}`,
    async readPartialUpload(uploadId, end) {
      if (end <= 0) return null;
      return blobs.read(`uploads/${uploadId}`, { start: 0, end: end - 1 });
    },
  };
}
