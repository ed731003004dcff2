import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ERRORS, isPathInsideDirectory, type Upload } from '@tus/utils';
import {
  BatchedFileStore,
  type ChunkObserver,
  WRITE_BATCH_BYTES,
  WRITE_BATCH_CHUNKS,
  writeAll,
} from './batched-file-store.js';
import {
  BlobDecryptError,
  encryptedLength,
  HEADER_BYTES,
  inspect,
  keyFor,
  newHeader,
  plaintextLength,
  readSegment,
  SegmentEncryptor,
  type SegmentLayout,
  segmentPosition,
} from './blob-encryption.js';

/**
 * The tus file store writing uploads encrypted (blob-encryption.ts), in batches like BatchedFileStore. Offsets
 * given to and answered to tus are plaintext offsets. An upload begun as plaintext (before a key was set) is
 * continued as plaintext, so it stays one readable file; `npm run storage:encrypt` encrypts it once finished.
 */
export class EncryptedFileStore extends BatchedFileStore {
  constructor(
    options: ConstructorParameters<typeof BatchedFileStore>[0],
    private readonly master: Buffer,
  ) {
    super(options);
  }

  private pathOf(id: string): string {
    const file = path.join(this.directory, id);
    if (!isPathInsideDirectory(this.directory, file)) throw ERRORS.FILE_NOT_FOUND;
    return file;
  }

  override async create(upload: Upload): Promise<Upload> {
    const created = await super.create(upload);
    await fs.writeFile(this.pathOf(upload.id), newHeader(this.master).header);
    return created;
  }

  /**
   * The upload with its plaintext offset. A last segment that does not authenticate (a write torn by a crash) is
   * cut off here, so the client resends its bytes from the segment's start.
   */
  override async getUpload(id: string): Promise<Upload> {
    const upload = await super.getUpload(id);
    const handle = await fs.open(this.pathOf(id), 'r+');
    try {
      const { salt, layout, header, diskSize } = await inspect(handle);
      if (!salt || !layout) return upload;
      // A wrong master key throws here: only a segment that fails under the right key is cut off.
      const key = keyFor(this.master, header);
      let length = plaintextLength(layout, diskSize);
      const last = Math.ceil(length / layout.segmentBytes) - 1;
      if (last >= 0) {
        try {
          await readSegment(handle, key, layout, last, diskSize);
        } catch (error) {
          if (!(error instanceof BlobDecryptError)) throw error;
          length = last * layout.segmentBytes;
        }
      }
      const end = encryptedLength(layout, length);
      if (end < diskSize) await handle.truncate(end);
      upload.offset = length;
      return upload;
    } finally {
      await handle.close();
    }
  }

  override async writeObserved(
    readable: Readable,
    id: string,
    offset: number,
    observe?: ChunkObserver,
  ): Promise<number> {
    const file = this.pathOf(id);
    let handle: FileHandle;
    let salt: Buffer | null;
    let layout: SegmentLayout | null;
    let header: Buffer;
    let diskSize: number;
    try {
      handle = await fs.open(file, 'r+');
      ({ salt, layout, header, diskSize } = await inspect(handle));
    } catch {
      readable.destroy();
      throw ERRORS.FILE_WRITE_ERROR;
    }
    if (!salt && diskSize > 0) {
      await handle.close();
      return super.writeObserved(readable, id, offset, observe);
    }
    let key: Buffer;
    try {
      if (salt && layout) key = keyFor(this.master, header);
      else {
        let fresh: Buffer;
        ({ header: fresh, key, layout } = newHeader(this.master));
        await writeAll(handle, [fresh], HEADER_BYTES, 0);
        diskSize = HEADER_BYTES;
      }
    } catch (error) {
      await handle.close();
      readable.destroy();
      throw error instanceof BlobDecryptError ? ERRORS.FILE_WRITE_ERROR : error;
    }
    const { segmentBytes } = layout;
    if (plaintextLength(layout, diskSize) !== offset) {
      await handle.close();
      readable.destroy();
      throw ERRORS.INVALID_OFFSET;
    }

    let segment = new SegmentEncryptor(key, Math.floor(offset / segmentBytes));
    let position = segmentPosition(layout, segment.index);
    let failure: unknown = null;
    // A partial last segment is read back and re-encrypted whole with the new bytes, under a fresh nonce.
    if (offset % segmentBytes !== 0) {
      try {
        segment.update(await readSegment(handle, key, layout, segment.index, diskSize));
      } catch (error) {
        await handle.close();
        readable.destroy();
        throw error instanceof BlobDecryptError ? ERRORS.FILE_WRITE_ERROR : error;
      }
    }

    let batch: Buffer[] = [];
    let batchBytes = 0;
    let writing: Promise<void> | null = null;
    const submit = async () => {
      if (writing) await writing;
      writing = writeAll(handle, batch, batchBytes, position);
      writing.catch(() => undefined);
      position += batchBytes;
      batch = [];
      batchBytes = 0;
    };
    const close = () => {
      batch.push(...segment.finish());
      batchBytes += segment.diskBytes;
    };
    let received = 0;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        if (chunk.length === 0) continue;
        observe?.(chunk);
        received += chunk.length;
        for (let rest = chunk; rest.length > 0; ) {
          const take = Math.min(segmentBytes - segment.plaintextBytes, rest.length);
          segment.update(take === rest.length ? rest : rest.subarray(0, take));
          rest = rest.subarray(take);
          if (segment.plaintextBytes === segmentBytes) {
            close();
            segment = new SegmentEncryptor(key, segment.index + 1);
          }
        }
        if (batchBytes >= WRITE_BATCH_BYTES || batch.length >= WRITE_BATCH_CHUNKS) await submit();
      }
    } catch (error) {
      failure = error; // the body broke off: what arrived is still written below
      readable.destroy();
    }
    try {
      if (received > 0 && segment.plaintextBytes > 0) close();
      if (batchBytes > 0) await submit();
      await writing;
    } catch (error) {
      failure ??= error;
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (failure) throw ERRORS.FILE_WRITE_ERROR;
    return offset + received;
  }
}
