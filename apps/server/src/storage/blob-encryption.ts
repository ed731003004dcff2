import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';

/**
 * Ferry's encrypted file format (local disk, STORAGE_ENCRYPTION_KEY_FILE set):
 *
 *   header  48 bytes: "FERRYENC" · version (1) · 7 zero bytes · 16-byte blob salt · 16-byte key check
 *   segment i, for each 64 KiB of plaintext (the last one shorter):
 *           12-byte random nonce · AES-256-GCM ciphertext · 16-byte tag, with the segment's index as associated data
 *
 * The blob key is HKDF-SHA256(master key, salt): the salt lives in the file, so a hard-linked clone (the same bytes
 * under another name) decrypts as well. Fixed-size segments make every plaintext offset a known disk offset: a Range
 * read decrypts only the segments it needs, and an upload appends by rewriting only its partial last segment (with a
 * fresh nonce), so tus offsets stay plaintext offsets. The key check (HMAC of the blob key) tells a wrong master key
 * from a damaged file, so a wrong key is refused before anything is read or repaired.
 */
export const MAGIC = Buffer.from('FERRYENC', 'latin1');
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = 48;
export const SEGMENT_BYTES = 64 * 1024;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;
export const SEGMENT_OVERHEAD = NONCE_BYTES + TAG_BYTES;
export const SEGMENT_DISK_BYTES = SEGMENT_BYTES + SEGMENT_OVERHEAD;
const SALT_OFFSET = 16;
const CHECK_OFFSET = 32;
const KEY_INFO = Buffer.from('ferry blob key v1', 'latin1');

/** Segments read from disk at once when streaming (about 1 MiB). */
const READ_BATCH_SEGMENTS = 16;

/** A blob's encrypted bytes do not decrypt (wrong master key, or damaged on disk). */
export class BlobDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlobDecryptError';
  }
}

/** A fresh header with a random salt, and the key of the blob it starts. */
export function newHeader(master: Buffer): { header: Buffer; key: Buffer } {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[MAGIC.length] = FORMAT_VERSION;
  const salt = randomBytes(16);
  salt.copy(header, SALT_OFFSET);
  const key = blobKey(master, salt);
  keyCheck(key).copy(header, CHECK_OFFSET);
  return { header, key };
}

function keyCheck(key: Buffer): Buffer {
  return createHmac('sha256', key).update('ferry key check').digest().subarray(0, 16);
}

/** The key of the blob an encrypted header starts; throws when the header was made under another master key. */
export function keyFor(master: Buffer, header: Buffer): Buffer {
  const salt = saltOf(header);
  if (!salt) throw new BlobDecryptError('not an encrypted blob');
  const key = blobKey(master, salt);
  if (!timingSafeEqual(keyCheck(key), header.subarray(CHECK_OFFSET, CHECK_OFFSET + 16)))
    throw new BlobDecryptError('encrypted under another key than STORAGE_ENCRYPTION_KEY_FILE holds');
  return key;
}

/** The salt of an encrypted file's header, or null for a plaintext file (no magic). */
export function saltOf(header: Buffer): Buffer | null {
  if (header.length < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  if (header[MAGIC.length] !== FORMAT_VERSION)
    throw new BlobDecryptError(`unknown encrypted blob format version ${header[MAGIC.length]}`);
  return header.subarray(SALT_OFFSET, SALT_OFFSET + 16);
}

export function blobKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, KEY_INFO, 32));
}

/** Plaintext length of an encrypted file of `diskSize` bytes; a torn last segment (too short to hold a tag) counts as absent. */
export function plaintextLength(diskSize: number): number {
  const body = Math.max(0, diskSize - HEADER_BYTES);
  const full = Math.floor(body / SEGMENT_DISK_BYTES);
  const rest = body % SEGMENT_DISK_BYTES;
  return full * SEGMENT_BYTES + (rest > SEGMENT_OVERHEAD ? rest - SEGMENT_OVERHEAD : 0);
}

/** Disk size of an encrypted file holding `length` plaintext bytes. */
export function encryptedLength(length: number): number {
  const rest = length % SEGMENT_BYTES;
  return segmentPosition(Math.floor(length / SEGMENT_BYTES)) + (rest > 0 ? rest + SEGMENT_OVERHEAD : 0);
}

/** Disk offset where segment `index` starts. */
export function segmentPosition(index: number): number {
  return HEADER_BYTES + index * SEGMENT_DISK_BYTES;
}

function indexAad(index: number): Buffer {
  const aad = Buffer.alloc(8);
  aad.writeBigUInt64BE(BigInt(index));
  return aad;
}

/** Encrypts one segment as it arrives, in pieces: `update` as plaintext comes, `finish` for nonce-led parts' tail. */
export class SegmentEncryptor {
  private readonly cipher;
  /** nonce, then the ciphertext pieces; the tag is added by `finish`. */
  readonly parts: Buffer[];
  plaintextBytes = 0;
  diskBytes = NONCE_BYTES;

  constructor(
    key: Buffer,
    readonly index: number,
  ) {
    const nonce = randomBytes(NONCE_BYTES);
    this.cipher = createCipheriv('aes-256-gcm', key, nonce);
    this.cipher.setAAD(indexAad(index));
    this.parts = [nonce];
  }

  update(plain: Buffer): void {
    const out = this.cipher.update(plain);
    if (out.length > 0) this.parts.push(out);
    this.plaintextBytes += plain.length;
    this.diskBytes += out.length;
  }

  /** Ends the segment; its parts are then the whole segment as stored. */
  finish(): Buffer[] {
    const last = this.cipher.final();
    if (last.length > 0) this.parts.push(last);
    this.parts.push(this.cipher.getAuthTag());
    this.diskBytes += last.length + TAG_BYTES;
    return this.parts;
  }
}

/** Decrypts one stored segment (nonce · ciphertext · tag); throws BlobDecryptError when it does not authenticate. */
export function decryptSegment(key: Buffer, index: number, stored: Buffer): Buffer {
  if (stored.length < SEGMENT_OVERHEAD) throw new BlobDecryptError(`segment ${index} is torn`);
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, NONCE_BYTES));
  decipher.setAAD(indexAad(index));
  decipher.setAuthTag(stored.subarray(stored.length - TAG_BYTES));
  try {
    const plain = decipher.update(stored.subarray(NONCE_BYTES, stored.length - TAG_BYTES));
    decipher.final();
    return plain;
  } catch {
    throw new BlobDecryptError(`segment ${index} does not decrypt (wrong key or damaged file)`);
  }
}

/** Reads exactly up to `length` bytes at `position` (fewer only at the end of the file). */
export async function readAt(handle: FileHandle, buffer: Buffer, length: number, position: number) {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/** What an opened file is: its header's salt (null: plaintext) and its size on disk. */
export async function inspect(
  handle: FileHandle,
): Promise<{ salt: Buffer | null; header: Buffer; diskSize: number }> {
  const { size } = await handle.stat();
  const header = Buffer.alloc(HEADER_BYTES);
  if (size < HEADER_BYTES) return { salt: null, header, diskSize: size };
  await readAt(handle, header, HEADER_BYTES, 0);
  return { salt: saltOf(header), header, diskSize: size };
}

/** Reads and decrypts segment `index` of an open encrypted file. */
export async function readSegment(handle: FileHandle, key: Buffer, index: number, diskSize: number) {
  const start = segmentPosition(index);
  const length = Math.min(SEGMENT_DISK_BYTES, diskSize - start);
  const stored = Buffer.allocUnsafe(Math.max(0, length));
  const got = await readAt(handle, stored, stored.length, start);
  return decryptSegment(key, index, stored.subarray(0, got));
}

/**
 * Streams plaintext bytes [start, end] (inclusive) of an open encrypted file, decrypting only the segments they lie
 * in, about 1 MiB of disk at a time. Closes the handle when done or destroyed.
 */
export function decryptingStream(
  handle: FileHandle,
  key: Buffer,
  diskSize: number,
  start: number,
  end: number,
): Readable {
  async function* segments() {
    try {
      if (end < start) return;
      const first = Math.floor(start / SEGMENT_BYTES);
      const last = Math.floor(end / SEGMENT_BYTES);
      const buffer = Buffer.allocUnsafe(READ_BATCH_SEGMENTS * SEGMENT_DISK_BYTES);
      for (let batch = first; batch <= last; batch += READ_BATCH_SEGMENTS) {
        const count = Math.min(READ_BATCH_SEGMENTS, last - batch + 1);
        const position = segmentPosition(batch);
        const got = await readAt(
          handle,
          buffer,
          Math.min(count * SEGMENT_DISK_BYTES, diskSize - position),
          position,
        );
        for (let i = 0; i < count; i++) {
          const index = batch + i;
          const from = i * SEGMENT_DISK_BYTES;
          const plain = decryptSegment(
            key,
            index,
            buffer.subarray(from, Math.min(from + SEGMENT_DISK_BYTES, got)),
          );
          const base = index * SEGMENT_BYTES;
          const lo = Math.max(0, start - base);
          const hi = Math.min(plain.length, end - base + 1);
          yield plain.subarray(lo, hi);
        }
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
  return Readable.from(segments(), { objectMode: false, highWaterMark: 1 << 20 });
}

/** Opens a stored file for reading: plaintext files as they are, encrypted ones with their key. */
export async function openBlob(file: string, master: Buffer | null) {
  const handle = await fs.open(file, 'r');
  try {
    const { salt, header, diskSize } = await inspect(handle);
    if (!salt) return { handle, key: null, diskSize, size: diskSize };
    if (!master) throw new BlobDecryptError(`${file} is encrypted but no STORAGE_ENCRYPTION_KEY_FILE is set`);
    return { handle, key: keyFor(master, header), diskSize, size: plaintextLength(diskSize) };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
