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
 *   header  48 bytes: "FERRYENC" · version (1 or 2) · segment size (v2: log2 of its plaintext bytes; v1: 0) · 6 zero
 *           bytes · 16-byte blob salt · 16-byte key check
 *   segment i, for each segment's worth of plaintext (the last one shorter): 12-byte random nonce · AES-256-GCM
 *           ciphertext · 16-byte tag, with the segment's index as associated data
 *
 * Version 1 files have 64 KiB segments; version 2 (written since) says its size in the header, 1 MiB by default:
 * a segment costs a cipher set-up and a nonce, which at 64 KiB took a third of an upload's time. Readers take the
 * layout from each file's header, so both versions stay readable.
 *
 * The blob key is HKDF-SHA256(master key, salt): the salt lives in the file, so a hard-linked clone (the same bytes
 * under another name) decrypts as well. Fixed-size segments make every plaintext offset a known disk offset: a Range
 * read decrypts only the segments it needs, and an upload appends by rewriting only its partial last segment (with a
 * fresh nonce), so tus offsets stay plaintext offsets. The key check (HMAC of the blob key) tells a wrong master key
 * from a damaged file, so a wrong key is refused before anything is read or repaired.
 */
export const MAGIC = Buffer.from('FERRYENC', 'latin1');
export const FORMAT_VERSION = 2;
export const HEADER_BYTES = 48;
/** Plaintext bytes per segment of version 1 files. */
export const V1_SEGMENT_BYTES = 64 * 1024;
/** Plaintext bytes per segment of files written now. */
export const SEGMENT_BYTES = 1024 * 1024;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;
export const SEGMENT_OVERHEAD = NONCE_BYTES + TAG_BYTES;
const SIZE_OFFSET = MAGIC.length + 1;
const SALT_OFFSET = 16;
const CHECK_OFFSET = 32;
const KEY_INFO = Buffer.from('ferry blob key v1', 'latin1');
/** Segment sizes a header may name: 4 KiB to 16 MiB. */
const MIN_SIZE_LOG2 = 12;
const MAX_SIZE_LOG2 = 24;

/** Decrypted pieces are at most this long (a segment is deciphered in pieces: large outputs are slow to allocate). */
const PIECE_BYTES = 64 * 1024;

/** How an encrypted file is cut: plaintext bytes per segment, and the bytes each full segment takes on disk. */
export interface SegmentLayout {
  segmentBytes: number;
  diskBytes: number;
}

export function layoutFor(segmentBytes: number): SegmentLayout {
  return { segmentBytes, diskBytes: segmentBytes + SEGMENT_OVERHEAD };
}

/** A blob's encrypted bytes do not decrypt (wrong master key, or damaged on disk). */
export class BlobDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlobDecryptError';
  }
}

/** A fresh header with a random salt, and the key and layout of the blob it starts. */
export function newHeader(
  master: Buffer,
  segmentBytes = SEGMENT_BYTES,
): { header: Buffer; key: Buffer; layout: SegmentLayout } {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  if (segmentBytes === V1_SEGMENT_BYTES) header[MAGIC.length] = 1;
  else {
    const log2 = Math.log2(segmentBytes);
    if (!Number.isInteger(log2) || log2 < MIN_SIZE_LOG2 || log2 > MAX_SIZE_LOG2)
      throw new RangeError(`not a segment size: ${segmentBytes}`);
    header[MAGIC.length] = FORMAT_VERSION;
    header[SIZE_OFFSET] = log2;
  }
  const salt = randomBytes(16);
  salt.copy(header, SALT_OFFSET);
  const key = blobKey(master, salt);
  keyCheck(key).copy(header, CHECK_OFFSET);
  return { header, key, layout: layoutFor(segmentBytes) };
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
  layoutOf(header);
  return header.subarray(SALT_OFFSET, SALT_OFFSET + 16);
}

/** The segment layout an encrypted header names; throws for an unknown version or size. */
export function layoutOf(header: Buffer): SegmentLayout {
  const version = header[MAGIC.length];
  if (version === 1) return layoutFor(V1_SEGMENT_BYTES);
  const log2 = header[SIZE_OFFSET] ?? 0;
  if (version !== FORMAT_VERSION)
    throw new BlobDecryptError(`unknown encrypted blob format version ${version}`);
  if (log2 < MIN_SIZE_LOG2 || log2 > MAX_SIZE_LOG2)
    throw new BlobDecryptError(`encrypted blob header names no valid segment size (${log2})`);
  return layoutFor(2 ** log2);
}

export function blobKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, KEY_INFO, 32));
}

/** Plaintext length of an encrypted file of `diskSize` bytes; a torn last segment (too short to hold a tag) counts as absent. */
export function plaintextLength(layout: SegmentLayout, diskSize: number): number {
  const body = Math.max(0, diskSize - HEADER_BYTES);
  const full = Math.floor(body / layout.diskBytes);
  const rest = body % layout.diskBytes;
  return full * layout.segmentBytes + (rest > SEGMENT_OVERHEAD ? rest - SEGMENT_OVERHEAD : 0);
}

/** Disk size of an encrypted file holding `length` plaintext bytes. */
export function encryptedLength(layout: SegmentLayout, length: number): number {
  const rest = length % layout.segmentBytes;
  return (
    segmentPosition(layout, Math.floor(length / layout.segmentBytes)) +
    (rest > 0 ? rest + SEGMENT_OVERHEAD : 0)
  );
}

/** Disk offset where segment `index` starts. */
export function segmentPosition(layout: SegmentLayout, index: number): number {
  return HEADER_BYTES + index * layout.diskBytes;
}

function indexAad(index: number): Buffer {
  const aad = Buffer.alloc(8);
  aad.writeBigUInt64BE(BigInt(index));
  return aad;
}

/** Random nonces, drawn from the CSPRNG many at a time (one call per nonce costs more than the bytes). */
let noncePool = Buffer.alloc(0);
let nonceAt = 0;
function freshNonce(): Buffer {
  if (nonceAt + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_BYTES * 1024);
    nonceAt = 0;
  }
  nonceAt += NONCE_BYTES;
  return noncePool.subarray(nonceAt - NONCE_BYTES, nonceAt);
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
    const nonce = freshNonce();
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

/**
 * Decrypts one stored segment (nonce · ciphertext · tag) into pieces of at most 64 KiB, released only once the whole
 * segment authenticated; throws BlobDecryptError when it does not.
 */
export function decryptSegmentPieces(key: Buffer, index: number, stored: Buffer): Buffer[] {
  if (stored.length < SEGMENT_OVERHEAD) throw new BlobDecryptError(`segment ${index} is torn`);
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, NONCE_BYTES));
  decipher.setAAD(indexAad(index));
  const end = stored.length - TAG_BYTES;
  decipher.setAuthTag(stored.subarray(end));
  const pieces: Buffer[] = [];
  try {
    for (let at = NONCE_BYTES; at < end; at += PIECE_BYTES)
      pieces.push(decipher.update(stored.subarray(at, Math.min(at + PIECE_BYTES, end))));
    decipher.final();
    return pieces;
  } catch {
    throw new BlobDecryptError(`segment ${index} does not decrypt (wrong key or damaged file)`);
  }
}

/** Decrypts one stored segment (nonce · ciphertext · tag); throws BlobDecryptError when it does not authenticate. */
export function decryptSegment(key: Buffer, index: number, stored: Buffer): Buffer {
  const pieces = decryptSegmentPieces(key, index, stored);
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
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

/** What an opened file is: its header's salt and layout (null: plaintext) and its size on disk. */
export async function inspect(handle: FileHandle): Promise<{
  salt: Buffer | null;
  layout: SegmentLayout | null;
  header: Buffer;
  diskSize: number;
}> {
  const { size } = await handle.stat();
  const header = Buffer.alloc(HEADER_BYTES);
  if (size < HEADER_BYTES) return { salt: null, layout: null, header, diskSize: size };
  await readAt(handle, header, HEADER_BYTES, 0);
  const salt = saltOf(header);
  return { salt, layout: salt ? layoutOf(header) : null, header, diskSize: size };
}

/** Reads and decrypts segment `index` of an open encrypted file. */
export async function readSegment(
  handle: FileHandle,
  key: Buffer,
  layout: SegmentLayout,
  index: number,
  diskSize: number,
) {
  const start = segmentPosition(layout, index);
  const length = Math.min(layout.diskBytes, diskSize - start);
  const stored = Buffer.allocUnsafe(Math.max(0, length));
  const got = await readAt(handle, stored, stored.length, start);
  return decryptSegment(key, index, stored.subarray(0, got));
}

/** Disk bytes read at once when streaming: about 1 MiB, and at least one segment. */
const READ_BATCH_BYTES = 1024 * 1024;

/**
 * Streams plaintext bytes [start, end] (inclusive) of an open encrypted file, decrypting only the segments they lie
 * in, about 1 MiB of disk at a time. Closes the handle when done or destroyed.
 */
export function decryptingStream(
  handle: FileHandle,
  key: Buffer,
  layout: SegmentLayout,
  diskSize: number,
  start: number,
  end: number,
): Readable {
  const { segmentBytes, diskBytes } = layout;
  async function* segments() {
    try {
      if (end < start) return;
      const first = Math.floor(start / segmentBytes);
      const last = Math.floor(end / segmentBytes);
      const perBatch = Math.max(1, Math.floor(READ_BATCH_BYTES / diskBytes));
      const buffer = Buffer.allocUnsafe(perBatch * diskBytes);
      for (let batch = first; batch <= last; batch += perBatch) {
        const count = Math.min(perBatch, last - batch + 1);
        const position = segmentPosition(layout, batch);
        const got = await readAt(handle, buffer, Math.min(count * diskBytes, diskSize - position), position);
        for (let i = 0; i < count; i++) {
          const index = batch + i;
          const from = i * diskBytes;
          const pieces = decryptSegmentPieces(
            key,
            index,
            buffer.subarray(from, Math.min(from + diskBytes, got)),
          );
          let base = index * segmentBytes;
          for (const piece of pieces) {
            const lo = Math.max(0, start - base);
            const hi = Math.min(piece.length, end - base + 1);
            if (hi > lo) yield lo === 0 && hi === piece.length ? piece : piece.subarray(lo, hi);
            base += piece.length;
          }
        }
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
  return Readable.from(segments(), { objectMode: false, highWaterMark: 1 << 20 });
}

/** Opens a stored file for reading: plaintext files as they are, encrypted ones with their key and layout. */
export async function openBlob(file: string, master: Buffer | null) {
  const handle = await fs.open(file, 'r');
  try {
    const { salt, layout, header, diskSize } = await inspect(handle);
    if (!salt || !layout) return { handle, key: null, layout: null, diskSize, size: diskSize };
    if (!master) throw new BlobDecryptError(`${file} is encrypted but no STORAGE_ENCRYPTION_KEY_FILE is set`);
    return {
      handle,
      key: keyFor(master, header),
      layout,
      diskSize,
      size: plaintextLength(layout, diskSize),
    };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
