import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { buildZipLayout, streamZipRange, type ZipEntryInput, type ZipLayout } from './index.js';

// The real Info-ZIP `unzip` is the reference reader; CI installs it, so its absence is an error, not a skip.
if (spawnSync('unzip', ['-v']).status !== 0)
  throw new Error('These tests need the `unzip` command: apt-get install unzip');

const GiB = 1024 ** 3;
const U32_MAX = 0xffffffff;
const MODIFIED = new Date(Date.UTC(2024, 4, 17, 13, 45, 31));

function entry(name: string, size = 3, overrides: Partial<ZipEntryInput> = {}): ZipEntryInput {
  return { name, size, crc32: 0x12345678, modifiedAt: MODIFIED, key: `blob:${name}`, ...overrides };
}

interface CentralRecord {
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc32: number;
  size32: number;
  offset32: number;
  name: string;
  /** 64-bit values of the ZIP64 extra field, empty when there is none. */
  zip64: number[];
}

interface ParsedTail {
  zip64Eocd: { count: number; size: number; offset: number } | null;
  eocd: { count: number; size: number; offset: number };
  records: CentralRecord[];
}

/** Parses the end records and central directory from the layout's last segment, as a reader would. */
function parseTail(layout: ZipLayout): ParsedTail {
  const last = layout.segments.at(-1);
  if (last?.kind !== 'bytes') throw new Error('layout does not end with bytes');
  const tail = last.data;
  const tailStart = layout.totalSize - tail.length;
  const at = tail.length - 22;
  expect(tail.readUInt32LE(at)).toBe(0x06054b50);
  const eocd = {
    count: tail.readUInt16LE(at + 10),
    size: tail.readUInt32LE(at + 12),
    offset: tail.readUInt32LE(at + 16),
  };
  let zip64Eocd: ParsedTail['zip64Eocd'] = null;
  if (at >= 20 && tail.readUInt32LE(at - 20) === 0x07064b50) {
    const recordAt = Number(tail.readBigUInt64LE(at - 12)) - tailStart;
    expect(tail.readUInt32LE(recordAt)).toBe(0x06064b50);
    expect(tail.readUInt16LE(recordAt + 14)).toBe(45);
    zip64Eocd = {
      count: Number(tail.readBigUInt64LE(recordAt + 32)),
      size: Number(tail.readBigUInt64LE(recordAt + 40)),
      offset: Number(tail.readBigUInt64LE(recordAt + 48)),
    };
  }
  const directory = zip64Eocd ?? eocd;
  const records: CentralRecord[] = [];
  let pos = directory.offset - tailStart;
  for (let i = 0; i < directory.count; i++) {
    expect(tail.readUInt32LE(pos)).toBe(0x02014b50);
    const nameLength = tail.readUInt16LE(pos + 28);
    const extraLength = tail.readUInt16LE(pos + 30);
    const extra = tail.subarray(pos + 46 + nameLength, pos + 46 + nameLength + extraLength);
    const zip64: number[] = [];
    if (extraLength > 0) {
      expect(extra.readUInt16LE(0)).toBe(0x0001);
      for (let v = 4; v < extraLength; v += 8) zip64.push(Number(extra.readBigUInt64LE(v)));
    }
    records.push({
      versionNeeded: tail.readUInt16LE(pos + 6),
      flags: tail.readUInt16LE(pos + 8),
      method: tail.readUInt16LE(pos + 10),
      time: tail.readUInt16LE(pos + 12),
      date: tail.readUInt16LE(pos + 14),
      crc32: tail.readUInt32LE(pos + 16),
      size32: tail.readUInt32LE(pos + 24),
      offset32: tail.readUInt32LE(pos + 42),
      name: tail.toString('utf8', pos + 46, pos + 46 + nameLength),
      zip64,
    });
    pos += 46 + nameLength + extraLength;
  }
  expect(pos).toBe(directory.offset + directory.size - tailStart);
  return { zip64Eocd, eocd, records };
}

/** The local header segment of the entry at `index`, found by walking the segments. */
function localHeaderOf(layout: ZipLayout, index: number): Buffer {
  const headers = layout.segments.filter((s) => s.kind === 'bytes').map((s) => s.data);
  const header = headers[index];
  if (!header) throw new Error(`no local header ${index}`);
  expect(header.readUInt32LE(0)).toBe(0x04034b50);
  return header;
}

describe('buildZipLayout', () => {
  it('lays out headers and blobs in order, with a size matching the segments', () => {
    const layout = buildZipLayout([entry('a.txt', 10), entry('empty.txt', 0), entry('photos/2024/b.jpg', 7)]);
    expect(layout.segments.map((s) => s.kind)).toEqual(['bytes', 'blob', 'bytes', 'bytes', 'blob', 'bytes']);
    expect(layout.segments[1]).toEqual({ kind: 'blob', key: 'blob:a.txt', size: 10 });
    const sum = layout.segments.reduce((n, s) => n + (s.kind === 'bytes' ? s.data.length : s.size), 0);
    expect(layout.totalSize).toBe(sum);

    const { zip64Eocd, eocd, records } = parseTail(layout);
    expect(zip64Eocd).toBeNull();
    expect(eocd.count).toBe(3);
    expect(records.map((r) => r.name)).toEqual(['a.txt', 'empty.txt', 'photos/2024/b.jpg']);
    expect(records.map((r) => r.offset32)).toEqual([0, 30 + 5 + 10, 30 + 5 + 10 + 30 + 9]);
    for (const record of records) {
      expect(record).toMatchObject({
        versionNeeded: 20,
        flags: 0x0800,
        method: 0,
        crc32: 0x12345678,
        zip64: [],
      });
    }
    const local = localHeaderOf(layout, 0);
    expect(local.readUInt16LE(4)).toBe(20);
    expect(local.readUInt16LE(6)).toBe(0x0800);
    expect(local.readUInt32LE(18)).toBe(10);
    expect(local.readUInt32LE(22)).toBe(10);
    expect(local.toString('utf8', 30)).toBe('a.txt');
  });

  it('is deterministic', () => {
    const entries = [entry('x/y.txt', 4), entry('z', 9)];
    const a = buildZipLayout(entries);
    const b = buildZipLayout(entries);
    expect(b).toEqual(a);
  });

  it('encodes UTF-8 names with flag bit 11', () => {
    const layout = buildZipLayout([entry('été/résumé.txt'), entry('emoji 🎉/🚀.bin')]);
    const { records } = parseTail(layout);
    expect(records.map((r) => r.name)).toEqual(['été/résumé.txt', 'emoji 🎉/🚀.bin']);
    expect(records.every((r) => (r.flags & 0x0800) !== 0)).toBe(true);
    expect(localHeaderOf(layout, 0).readUInt16LE(26)).toBe(Buffer.byteLength('été/résumé.txt'));
  });

  it('writes MS-DOS dates from UTC, clamped to the representable years', () => {
    const layout = buildZipLayout([
      entry('now'),
      entry('old', 3, { modifiedAt: new Date(Date.UTC(1975, 5, 15, 10, 0, 0)) }),
      entry('future', 3, { modifiedAt: new Date(Date.UTC(2200, 0, 1)) }),
    ]);
    const [now, old, future] = parseTail(layout).records;
    expect(now).toMatchObject({ time: (13 << 11) | (45 << 5) | 15, date: (44 << 9) | (5 << 5) | 17 });
    expect(old).toMatchObject({ time: 0, date: (1 << 5) | 1 });
    expect(future).toMatchObject({ time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 });
  });

  it('uses ZIP64 for an entry over 4 GiB and for entries whose local header lies beyond 4 GiB', () => {
    const big = 5 * GiB;
    const layout = buildZipLayout([entry('before.txt', 10), entry('big.bin', big), entry('after.txt', 10)]);
    const { zip64Eocd, eocd, records } = parseTail(layout);
    const [before, bigRecord, after] = records;
    const afterOffset = 30 + 10 + 10 + (30 + 7 + 20 + big);

    expect(before).toMatchObject({ versionNeeded: 20, size32: 10, offset32: 0, zip64: [] });
    expect(bigRecord).toMatchObject({ versionNeeded: 45, size32: U32_MAX, offset32: 50, zip64: [big, big] });
    expect(after).toMatchObject({ versionNeeded: 45, size32: 10, offset32: U32_MAX, zip64: [afterOffset] });

    const bigLocal = localHeaderOf(layout, 1);
    expect(bigLocal.readUInt16LE(4)).toBe(45);
    expect(bigLocal.readUInt32LE(18)).toBe(U32_MAX);
    expect(bigLocal.readUInt32LE(22)).toBe(U32_MAX);
    expect(bigLocal.readUInt16LE(28)).toBe(20);
    expect(Number(bigLocal.readBigUInt64LE(30 + 7 + 4))).toBe(big);
    expect(Number(bigLocal.readBigUInt64LE(30 + 7 + 12))).toBe(big);
    // The local header has no offset field, so the entry after the big one needs no ZIP64 extra there.
    const afterLocal = localHeaderOf(layout, 2);
    expect(afterLocal.readUInt16LE(4)).toBe(45);
    expect(afterLocal.readUInt16LE(28)).toBe(0);
    expect(afterLocal.readUInt32LE(22)).toBe(10);

    const directoryOffset = afterOffset + 30 + 9 + 10;
    expect(zip64Eocd).toEqual({ count: 3, offset: directoryOffset, size: expect.any(Number) });
    expect(eocd).toMatchObject({ count: 3, offset: U32_MAX });
  });

  it('treats a size of exactly 0xFFFFFFFF as needing ZIP64, and one less as not', () => {
    const [below] = parseTail(buildZipLayout([entry('a', U32_MAX - 1)])).records;
    expect(below).toMatchObject({ versionNeeded: 20, size32: U32_MAX - 1, zip64: [] });
    const [at] = parseTail(buildZipLayout([entry('b', U32_MAX)])).records;
    expect(at).toMatchObject({ versionNeeded: 45, size32: U32_MAX, zip64: [U32_MAX, U32_MAX] });
  });

  it('writes the ZIP64 end records from 65535 entries on, not before', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => entry(`f/${i}.txt`, 0));
    const below = parseTail(buildZipLayout(names(65534)));
    expect(below.zip64Eocd).toBeNull();
    expect(below.eocd.count).toBe(65534);

    const at = parseTail(buildZipLayout(names(65535)));
    expect(at.zip64Eocd?.count).toBe(65535);
    expect(at.eocd.count).toBe(0xffff);

    const above = parseTail(buildZipLayout(names(70000)));
    expect(above.zip64Eocd?.count).toBe(70000);
    expect(above.eocd.count).toBe(0xffff);
    expect(above.eocd.offset).toBe(above.zip64Eocd?.offset);
    expect(above.records).toHaveLength(70000);
  });

  it('writes >65535 entries that unzip and yauzl accept', async () => {
    const text = Buffer.from('x');
    const entries = Array.from({ length: 70_000 }, (_, i) => {
      const size = i % 1000 === 0 ? 1 : 0;
      return entry(`many/${String(i).padStart(5, '0')}.txt`, size, { crc32: size ? zlib.crc32(text) : 0 });
    });
    const layout = buildZipLayout(entries);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-zip-many-'));
    try {
      const archive = path.join(dir, 'many.zip');
      await fs.writeFile(
        archive,
        streamZipRange(layout, async () => Readable.from([text])),
      );
      expect((await fs.stat(archive)).size).toBe(layout.totalSize);
      expect(spawnSync('unzip', ['-tq', archive], { encoding: 'utf8' }).stdout).toMatch(/No errors detected/);
      const zip = await yauzl.openPromise(archive, { lazyEntries: true });
      expect(zip.entryCount).toBe(70_000);
      zip.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('lays out an empty archive as a bare end record', () => {
    const layout = buildZipLayout([]);
    expect(layout.totalSize).toBe(22);
    expect(parseTail(layout).eocd).toEqual({ count: 0, size: 0, offset: 0 });
  });

  it.each([
    ['empty', ''],
    ['absolute', '/etc/passwd'],
    ['parent segment', 'a/../b'],
    ['leading parent', '../b'],
    ['bare parent', '..'],
    ['backslash', 'a\\b'],
    ['NUL', 'a\0b'],
    ['trailing slash', 'folder/'],
    ['empty segment', 'a//b'],
    ['dot segment', './a'],
    ['lone surrogate', 'bad\ud800.txt'],
  ])('rejects a name that is %s', (_, name) => {
    expect(() => buildZipLayout([entry(name)])).toThrow();
  });

  it('accepts names that merely contain dots', () => {
    expect(() => buildZipLayout([entry('a..b/..c/d..'), entry('.hidden/.x')])).not.toThrow();
  });

  it('rejects duplicate names', () => {
    expect(() => buildZipLayout([entry('a/b.txt'), entry('c.txt'), entry('a/b.txt')])).toThrow(/duplicate/);
  });

  it.each([
    ['negative size', { size: -1 }],
    ['fractional size', { size: 1.5 }],
    ['CRC above 32 bits', { crc32: 2 ** 32 }],
    ['negative CRC', { crc32: -1 }],
    ['invalid date', { modifiedAt: new Date(Number.NaN) }],
  ])('rejects an entry with a %s', (_, overrides: Partial<ZipEntryInput>) => {
    expect(() => buildZipLayout([entry('a.txt', 3, overrides)])).toThrow(RangeError);
  });
});
