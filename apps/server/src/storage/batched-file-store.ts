import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, isPathInsideDirectory } from '@tus/utils';

/**
 * Bytes per file write. Sockets deliver 64 KiB chunks; four of them make one write. Larger writes saved no more
 * CPU in `npm run bench` (docs/benchmarks.md): the kernel then caches the file in larger pages, which on a busy
 * virtual machine cost more to allocate than the saved system calls.
 */
export const WRITE_BATCH_BYTES = 256 * 1024;
/** Chunks per write at most (a slow client's chunks can be a few bytes each); well under the kernel's IOV_MAX. */
export const WRITE_BATCH_CHUNKS = 256;

/** Told each chunk of an upload's body, in order, before it is written. */
export type ChunkObserver = (chunk: Buffer) => void;

/**
 * The tus file store, writing an upload in batches of WRITE_BATCH_BYTES instead of one write per socket chunk.
 *
 * Every file write is a request to libuv's thread pool: a wake-up of one of its threads, and a wake-up of the event
 * loop when it is done. Per 64 KiB chunk, those cost more CPU than the write itself on a machine with few cores.
 * The body's own chunks are gathered and written with one `pwritev` (no copy into a batch buffer), in order, one
 * write at a time, while the next batch gathers.
 *
 * As with tus's own file store, every byte that arrived is written, also when the body breaks off: the client asks
 * for the offset (the file's size) and sends the rest from there. A write that fails (disk full) ends the upload's
 * PATCH with an error; the bytes of earlier writes stay.
 */
export class BatchedFileStore extends FileStore {
  override write(readable: Readable, id: string, offset: number): Promise<number> {
    return this.writeObserved(readable, id, offset);
  }

  /** `write`, telling `observe` every chunk of the body (the hashing store's tap, without a stream stage). */
  async writeObserved(
    readable: Readable,
    id: string,
    offset: number,
    observe?: ChunkObserver,
  ): Promise<number> {
    const file = path.join(this.directory, id);
    if (!isPathInsideDirectory(this.directory, file)) throw ERRORS.FILE_NOT_FOUND;
    let handle: FileHandle;
    try {
      handle = await fs.open(file, 'r+');
    } catch {
      readable.destroy();
      throw ERRORS.FILE_WRITE_ERROR;
    }
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let position = offset;
    let writing: Promise<void> | null = null;
    const submit = async () => {
      if (writing) await writing; // one write at a time, in order
      writing = writeAll(handle, batch, batchBytes, position);
      writing.catch(() => undefined); // awaited by the next submit or below; no unhandled rejection meanwhile
      position += batchBytes;
      batch = [];
      batchBytes = 0;
    };
    let failure: unknown = null;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        if (chunk.length === 0) continue;
        observe?.(chunk);
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= WRITE_BATCH_BYTES || batch.length === WRITE_BATCH_CHUNKS) await submit();
      }
    } catch (error) {
      failure = error; // the body broke off (or a write failed): what arrived is still written below
      readable.destroy();
    }
    try {
      if (batchBytes > 0) await submit();
      await writing;
    } catch (error) {
      failure ??= error;
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (failure) throw ERRORS.FILE_WRITE_ERROR;
    return position;
  }
}

/** Writes all `length` bytes of `buffers` at `position`, again from where a short write stopped. */
export async function writeAll(
  handle: FileHandle,
  buffers: Buffer[],
  length: number,
  position: number,
): Promise<void> {
  let rest = buffers;
  for (let done = 0; done < length; ) {
    const { bytesWritten } = await handle.writev(rest, position + done);
    if (bytesWritten === 0) throw new Error('the file took no bytes'); // no progress: fail rather than spin
    done += bytesWritten;
    if (done < length) rest = dropBytes(rest, bytesWritten);
  }
}

/** The buffers without their first `count` bytes. */
export function dropBytes(buffers: Buffer[], count: number): Buffer[] {
  let index = 0;
  let skip = count;
  while (index < buffers.length && skip >= buffers[index]!.length) skip -= buffers[index++]!.length;
  const rest = buffers.slice(index);
  if (skip > 0 && rest.length > 0) rest[0] = rest[0]!.subarray(skip);
  return rest;
}
