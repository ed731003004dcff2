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
/** Free batch buffers kept for the next uploads (4 MiB); more are made while more uploads run at once. */
const POOL_LIMIT = 16;
const pool: Buffer[] = [];

const takeBuffer = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(WRITE_BATCH_BYTES);
const giveBack = (buffer: Buffer): void => {
  if (pool.length < POOL_LIMIT) pool.push(buffer);
};

/**
 * The tus file store, writing an upload in batches of WRITE_BATCH_BYTES instead of one write per socket chunk.
 *
 * Every file write is a request to libuv's thread pool: a wake-up of one of its threads, and a wake-up of the event
 * loop when it is done. Per 64 KiB chunk, those cost more CPU than the write itself on a machine with few cores.
 * Bytes are copied into two reused buffers, one filling while the other is written (in order, one write at a time),
 * so no buffer is allocated per write either.
 *
 * As with tus's own file store, every byte that arrived is written, also when the body breaks off: the client asks
 * for the offset (the file's size) and sends the rest from there. A write that fails (disk full) ends the upload's
 * PATCH with an error; the bytes of earlier writes stay.
 */
export class BatchedFileStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const file = path.join(this.directory, id);
    if (!isPathInsideDirectory(this.directory, file)) throw ERRORS.FILE_NOT_FOUND;
    let handle: FileHandle;
    try {
      handle = await fs.open(file, 'r+');
    } catch {
      readable.destroy();
      throw ERRORS.FILE_WRITE_ERROR;
    }
    let filling = takeBuffer();
    let spare = takeBuffer(); // written while `filling` fills
    let filled = 0;
    let position = offset;
    let writing: Promise<void> | null = null;
    const submit = async () => {
      if (writing) await writing; // `spare` is free again
      const full = filling;
      writing = writeAll(handle, full, filled, position);
      writing.catch(() => undefined); // awaited by the next submit or below; no unhandled rejection meanwhile
      position += filled;
      filling = spare;
      spare = full;
      filled = 0;
    };
    let failure: unknown = null;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        for (let at = 0; at < chunk.length; ) {
          const copied = chunk.copy(filling, filled, at);
          filled += copied;
          at += copied;
          if (filled === WRITE_BATCH_BYTES) await submit();
        }
      }
    } catch (error) {
      failure = error; // the body broke off (or a write failed): what arrived is still written below
      readable.destroy();
    }
    try {
      if (filled > 0) await submit();
      await writing;
    } catch (error) {
      failure ??= error;
    } finally {
      await handle.close().catch(() => undefined);
      giveBack(filling);
      giveBack(spare);
    }
    if (failure) throw ERRORS.FILE_WRITE_ERROR;
    return position;
  }
}

async function writeAll(handle: FileHandle, buffer: Buffer, length: number, position: number): Promise<void> {
  for (let done = 0; done < length; ) {
    const { bytesWritten } = await handle.write(buffer, done, length - done, position + done);
    done += bytesWritten;
  }
}
