/** One file to put in an archive; its size and CRC32 were computed while it was uploaded. */
export interface ZipEntryInput {
  /** Path inside the archive, `/` between folders. The caller sanitizes it; unsafe names still throw here. */
  name: string;
  size: number;
  /** Unsigned 32-bit CRC-32 of the whole file. */
  crc32: number;
  modifiedAt: Date;
  /** Opaque blob key, handed back to the opener when the file's bytes are needed. */
  key: string;
}

/** A run of archive bytes: either generated header bytes or a slice of a stored blob. */
export type ZipSegment = { kind: 'bytes'; data: Buffer } | { kind: 'blob'; key: string; size: number };

/** The whole archive as an ordered list of segments; `totalSize` is the sum of their lengths. */
export interface ZipLayout {
  totalSize: number;
  segments: ZipSegment[];
}

const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

const SIG_LOCAL_HEADER = 0x04034b50;
const SIG_CENTRAL_HEADER = 0x02014b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_EOCD = 0x06054b50;

const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const ZIP64_EOCD_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const EOCD_SIZE = 22;

const ZIP64_EXTRA_ID = 0x0001;
/** Bit 11: names are UTF-8. Bit 3 (data descriptor) stays clear because sizes and CRCs are known up front. */
const FLAG_UTF8 = 0x0800;
const METHOD_STORED = 0;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Host "Unix" in the high byte, so unzip applies the mode in the external attributes instead of guessing. */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0;

interface PreparedEntry {
  name: Buffer;
  size: number;
  crc32: number;
  dosTime: number;
  dosDate: number;
  key: string;
}

/**
 * Lays out a stored (uncompressed) ZIP archive of the given files without reading any of them: local header,
 * raw blob bytes, local header, ... then the central directory and end records. Because sizes and CRCs are
 * known, there are no data descriptors, so the result is deterministic: the same entries always give the same
 * bytes, which is what makes an exact Content-Length and resumable Range downloads possible.
 *
 * ZIP64 is used per entry only where a field would overflow (size, or local header offset, >= 0xFFFFFFFF), and
 * the ZIP64 end-of-central-directory record and locator are written only when the entry count, central
 * directory size or offset overflow. Plain archives thus stay readable by old tools that know no ZIP64.
 *
 * @throws {Error} on an unsafe or duplicate name, or an entry whose size, CRC or date is not valid.
 */
export function buildZipLayout(entries: readonly ZipEntryInput[]): ZipLayout {
  const seen = new Set<string>();
  const segments: ZipSegment[] = [];
  const centralHeaders: Buffer[] = [];
  let offset = 0;
  for (const input of entries) {
    const entry = prepareEntry(input, seen);
    const local = localHeader(entry, offset);
    segments.push({ kind: 'bytes', data: local });
    // Empty files get no blob segment, so the opener is never asked for an empty range.
    if (entry.size > 0) segments.push({ kind: 'blob', key: entry.key, size: entry.size });
    centralHeaders.push(centralHeader(entry, offset));
    offset += local.length + entry.size;
  }
  const directoryOffset = offset;
  const directorySize = centralHeaders.reduce((sum, header) => sum + header.length, 0);
  const end = endRecords(entries.length, directoryOffset, directorySize);
  segments.push({ kind: 'bytes', data: Buffer.concat([...centralHeaders, end]) });
  const totalSize = directoryOffset + directorySize + end.length;
  if (!Number.isSafeInteger(totalSize)) throw new RangeError('ZIP archive too large');
  return { totalSize, segments };
}

function prepareEntry(input: ZipEntryInput, seen: Set<string>): PreparedEntry {
  assertSafeName(input.name);
  if (seen.has(input.name)) throw new Error(`duplicate ZIP entry name: ${input.name}`);
  seen.add(input.name);
  const name = Buffer.from(input.name, 'utf8');
  // A lone surrogate would be encoded as U+FFFD, so two distinct names could collide after encoding.
  if (name.toString('utf8') !== input.name) {
    throw new Error(`ZIP entry name is not valid Unicode: ${input.name}`);
  }
  if (name.length > U16_MAX) throw new Error(`ZIP entry name too long: ${input.name}`);
  if (!Number.isSafeInteger(input.size) || input.size < 0) {
    throw new RangeError(`invalid size ${input.size} for ZIP entry ${input.name}`);
  }
  if (!Number.isInteger(input.crc32) || input.crc32 < 0 || input.crc32 > U32_MAX) {
    throw new RangeError(`invalid CRC32 ${input.crc32} for ZIP entry ${input.name}`);
  }
  const { time, date } = dosDateTime(input.modifiedAt, input.name);
  return { name, size: input.size, crc32: input.crc32, dosTime: time, dosDate: date, key: input.key };
}

function assertSafeName(name: string): void {
  if (name === '') throw new Error('ZIP entry name is empty');
  if (name.startsWith('/')) throw new Error(`ZIP entry name is absolute: ${name}`);
  if (name.includes('\\')) throw new Error(`ZIP entry name contains a backslash: ${name}`);
  if (name.includes('\0')) throw new Error(`ZIP entry name contains NUL: ${name}`);
  for (const part of name.split('/')) {
    if (part === '..') throw new Error(`ZIP entry name contains a '..' segment: ${name}`);
    // A trailing slash would make a file look like a directory entry, and `a//b` or `./a` alias `a/b` and `a`
    // in extractors, defeating the duplicate check.
    if (part === '' || part === '.') throw new Error(`ZIP entry name has an empty or '.' segment: ${name}`);
  }
}

/** MS-DOS date and time fields, from the UTC calendar (the format has no time zone). */
function dosDateTime(date: Date, name: string): { time: number; date: number } {
  if (Number.isNaN(date.getTime())) throw new RangeError(`invalid modification date for ZIP entry ${name}`);
  const year = date.getUTCFullYear();
  // The format counts years from 1980 in 7 bits, so clamp to the first and last representable instants.
  if (year < 1980) return { time: 0, date: (1 << 5) | 1 };
  if (year > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** A ZIP64 extended information extra field holding the given 64-bit values, in the spec's fixed order. */
function zip64Extra(values: readonly number[]): Buffer {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(ZIP64_EXTRA_ID, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => {
    extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i);
  });
  return extra;
}

/** Version needed to extract: the same in the local and central headers, 4.5 once any ZIP64 field is involved. */
function versionNeeded(entry: PreparedEntry, localOffset: number): number {
  return entry.size >= U32_MAX || localOffset >= U32_MAX ? VERSION_ZIP64 : VERSION_DEFAULT;
}

function localHeader(entry: PreparedEntry, localOffset: number): Buffer {
  // The local header holds no offset, so only the size needs a ZIP64 field here; the spec then wants both sizes.
  const zip64 = entry.size >= U32_MAX;
  const extra = zip64 ? zip64Extra([entry.size, entry.size]) : Buffer.alloc(0);
  const header = Buffer.alloc(LOCAL_HEADER_SIZE + entry.name.length + extra.length);
  const size32 = zip64 ? U32_MAX : entry.size;
  header.writeUInt32LE(SIG_LOCAL_HEADER, 0);
  header.writeUInt16LE(versionNeeded(entry, localOffset), 4);
  header.writeUInt16LE(FLAG_UTF8, 6);
  header.writeUInt16LE(METHOD_STORED, 8);
  header.writeUInt16LE(entry.dosTime, 10);
  header.writeUInt16LE(entry.dosDate, 12);
  header.writeUInt32LE(entry.crc32, 14);
  header.writeUInt32LE(size32, 18);
  header.writeUInt32LE(size32, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  entry.name.copy(header, LOCAL_HEADER_SIZE);
  extra.copy(header, LOCAL_HEADER_SIZE + entry.name.length);
  return header;
}

function centralHeader(entry: PreparedEntry, localOffset: number): Buffer {
  const bigSize = entry.size >= U32_MAX;
  const bigOffset = localOffset >= U32_MAX;
  const wide: number[] = [];
  if (bigSize) wide.push(entry.size, entry.size);
  if (bigOffset) wide.push(localOffset);
  const extra = wide.length > 0 ? zip64Extra(wide) : Buffer.alloc(0);
  const header = Buffer.alloc(CENTRAL_HEADER_SIZE + entry.name.length + extra.length);
  const size32 = bigSize ? U32_MAX : entry.size;
  header.writeUInt32LE(SIG_CENTRAL_HEADER, 0);
  header.writeUInt16LE(VERSION_MADE_BY, 4);
  header.writeUInt16LE(versionNeeded(entry, localOffset), 6);
  header.writeUInt16LE(FLAG_UTF8, 8);
  header.writeUInt16LE(METHOD_STORED, 10);
  header.writeUInt16LE(entry.dosTime, 12);
  header.writeUInt16LE(entry.dosDate, 14);
  header.writeUInt32LE(entry.crc32, 16);
  header.writeUInt32LE(size32, 20);
  header.writeUInt32LE(size32, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  // Bytes 32-37 (comment length, disk number, internal attributes) stay zero.
  header.writeUInt32LE(EXTERNAL_ATTRS, 38);
  header.writeUInt32LE(bigOffset ? U32_MAX : localOffset, 42);
  entry.name.copy(header, CENTRAL_HEADER_SIZE);
  extra.copy(header, CENTRAL_HEADER_SIZE + entry.name.length);
  return header;
}

/**
 * The end-of-central-directory record, preceded by the ZIP64 record and locator only when a field overflows:
 * always writing them would be valid too, but some old extractors choke on ZIP64 records they do not need.
 */
function endRecords(count: number, directoryOffset: number, directorySize: number): Buffer {
  const zip64 = count >= U16_MAX || directoryOffset >= U32_MAX || directorySize >= U32_MAX;
  const records = Buffer.alloc((zip64 ? ZIP64_EOCD_SIZE + ZIP64_LOCATOR_SIZE : 0) + EOCD_SIZE);
  let at = 0;
  if (zip64) {
    records.writeUInt32LE(SIG_ZIP64_EOCD, 0);
    records.writeBigUInt64LE(BigInt(ZIP64_EOCD_SIZE - 12), 4);
    records.writeUInt16LE(VERSION_MADE_BY, 12);
    records.writeUInt16LE(VERSION_ZIP64, 14);
    // Bytes 16-23: this disk and the directory's disk, both 0.
    records.writeBigUInt64LE(BigInt(count), 24);
    records.writeBigUInt64LE(BigInt(count), 32);
    records.writeBigUInt64LE(BigInt(directorySize), 40);
    records.writeBigUInt64LE(BigInt(directoryOffset), 48);
    records.writeUInt32LE(SIG_ZIP64_LOCATOR, ZIP64_EOCD_SIZE);
    records.writeBigUInt64LE(BigInt(directoryOffset + directorySize), ZIP64_EOCD_SIZE + 8);
    records.writeUInt32LE(1, ZIP64_EOCD_SIZE + 16);
    at = ZIP64_EOCD_SIZE + ZIP64_LOCATOR_SIZE;
  }
  // Overflowing fields hold the 0xFFFF / 0xFFFFFFFF sentinels that send readers to the ZIP64 record.
  records.writeUInt32LE(SIG_EOCD, at);
  records.writeUInt16LE(Math.min(count, U16_MAX), at + 8);
  records.writeUInt16LE(Math.min(count, U16_MAX), at + 10);
  records.writeUInt32LE(Math.min(directorySize, U32_MAX), at + 12);
  records.writeUInt32LE(Math.min(directoryOffset, U32_MAX), at + 16);
  return records;
}
