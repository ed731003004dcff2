import { createHash, type Hash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from '@node-rs/crc32';
import { DataStore, type Upload } from '@tus/utils';
import { BatchedFileStore, type ChunkObserver } from './batched-file-store.js';
import type { Storage } from './blob-store.js';

export interface UploadDigest {
  sha256: string;
  crc32: number;
}

interface HashState {
  offset: number;
  sha256: Hash;
  crc32: number;
}

/**
 * A tus data store that hashes every byte on its way to the real store: SHA-256 for end-to-end integrity and
 * CRC32 for the ZIP (@node-rs/crc32, with carry-less multiplication: a fifth of the CPU of zlib's CRC32). The running state lives in memory per upload; when a write starts at an offset the state
 * does not know (this process restarted, another instance took the upload over, or a write broke off after
 * part of its bytes were hashed), the stored prefix is read back and hashed first — or, where the store cannot
 * read an upload in progress, the whole blob is hashed once it is finished.
 */
export class HashingDataStore extends DataStore {
  private readonly states = new Map<string, HashState>();

  constructor(
    private readonly storage: Storage,
    /** Told how many bytes each write received, for metrics. */
    private readonly onBytes: (count: number) => void = () => undefined,
  ) {
    super();
    this.extensions = storage.tusStore.extensions;
  }

  override create(upload: Upload): Promise<Upload> {
    this.states.delete(upload.id);
    return this.storage.tusStore.create(upload);
  }

  override getUpload(id: string): Promise<Upload> {
    return this.storage.tusStore.getUpload(id);
  }

  override declareUploadLength(id: string, length: number): Promise<void> {
    return this.storage.tusStore.declareUploadLength(id, length);
  }

  override async remove(id: string): Promise<void> {
    this.states.delete(id);
    await this.storage.tusStore.remove(id);
  }

  override deleteExpired(): Promise<number> {
    return this.storage.tusStore.deleteExpired();
  }

  override getExpiration(): number {
    return this.storage.tusStore.getExpiration();
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const state = await this.stateAt(id, offset);
    if (!state) {
      const end = await this.storage.tusStore.write(stream, id, offset);
      this.onBytes(end - offset);
      return end;
    }
    this.states.delete(id); // only a write that ends cleanly puts a state back
    let hashed = 0;
    const observe: ChunkObserver = (chunk) => {
      state.sha256.update(chunk);
      state.crc32 = crc32(chunk, state.crc32);
      hashed += chunk.length;
    };
    const store = this.storage.tusStore;
    let newOffset: number;
    if (store instanceof BatchedFileStore) {
      newOffset = await store.writeObserved(stream, id, offset, observe);
    } else {
      // The tap goes straight to the store: an extra buffering stage here would hold many socket chunks at once,
      // and those buffers, promoted to V8's old generation, set off a storm of full garbage collections.
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          observe(chunk);
          callback(null, chunk);
        },
      });
      const feeding = pipeline(stream, tap);
      [newOffset] = await Promise.all([store.write(tap, id, offset), feeding]);
    }
    this.onBytes(newOffset - offset);
    if (newOffset === offset + hashed) this.states.set(id, { ...state, offset: newOffset });
    return newOffset;
  }

  /** The final digest of a finished upload; hashes the stored blob when the running state is missing. */
  async digest(id: string, size: number): Promise<UploadDigest> {
    let state = this.states.get(id);
    this.states.delete(id);
    if (!state || state.offset !== size) {
      state = { offset: 0, sha256: createHash('sha256'), crc32: 0 };
      if (size > 0) await hashInto(state, await this.storage.blobs.read(this.storage.uploadBlobKey(id)));
    }
    return { sha256: state.sha256.digest('hex'), crc32: state.crc32 >>> 0 };
  }

  /** Forgets the running state of an upload (e.g. when it is reset after a checksum mismatch). */
  forget(id: string): void {
    this.states.delete(id);
  }

  private async stateAt(id: string, offset: number): Promise<HashState | null> {
    const known = this.states.get(id);
    if (known && known.offset === offset) return known;
    const fresh: HashState = { offset: 0, sha256: createHash('sha256'), crc32: 0 };
    if (offset === 0) return fresh;
    const prefix = await this.storage.readPartialUpload(id, offset);
    if (!prefix) return null; // hashed whole at the end instead
    await hashInto(fresh, prefix);
    fresh.offset = offset;
    return fresh;
  }
}

async function hashInto(state: HashState, source: Readable): Promise<void> {
  for await (const chunk of source) {
    state.sha256.update(chunk as Buffer);
    state.crc32 = crc32(chunk as Buffer, state.crc32);
    state.offset += (chunk as Buffer).length;
  }
}
