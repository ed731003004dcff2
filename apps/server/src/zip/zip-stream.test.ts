import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  buildZipLayout,
  streamZipRange,
  type ZipBlobOpener,
  type ZipEntryInput,
  type ZipLayout,
} from './index.js';

const run = promisify(execFile);
// The real Info-ZIP `unzip` is the reference reader; CI installs it, so its absence is an error, not a skip.
if (spawnSync('unzip', ['-v']).status !== 0)
  throw new Error('These tests need the `unzip` command: apt-get install unzip');
const GiB = 1024 ** 3;
const ZERO_BLOCK = Buffer.alloc(1 << 20);
const MODIFIED = new Date(Date.UTC(2024, 4, 17, 13, 45, 30));

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-zip-'));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function crc32OfZeros(length: number): number {
  let crc = 0;
  for (let left = length; left > 0; left -= ZERO_BLOCK.length) {
    crc = zlib.crc32(ZERO_BLOCK.subarray(0, Math.min(left, ZERO_BLOCK.length)), crc);
  }
  return crc;
}

/** Writes `files` under `root` and describes them as entries keyed by their path on disk. */
async function writeFiles(root: string, files: Record<string, Buffer>): Promise<ZipEntryInput[]> {
  const entries: ZipEntryInput[] = [];
  for (const [name, data] of Object.entries(files)) {
    const file = path.join(root, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, data);
    entries.push({ name, size: data.length, crc32: zlib.crc32(data), modifiedAt: MODIFIED, key: file });
  }
  return entries;
}

const openFile: ZipBlobOpener = async (key, start, end) =>
  createReadStream(key, { start, end, highWaterMark: 1 << 20 });

/** Streams the archive to disk, seeking over all-zero chunks so gigabytes of zeros stay a sparse file. */
async function writeSparse(source: Readable, file: string): Promise<number> {
  const handle = await fs.open(file, 'w');
  let position = 0;
  try {
    for await (const chunk of source) {
      const data = chunk as Buffer;
      const zero = data.length <= ZERO_BLOCK.length && data.equals(ZERO_BLOCK.subarray(0, data.length));
      if (!zero) await handle.write(data, 0, data.length, position);
      position += data.length;
    }
    await handle.truncate(position);
  } finally {
    await handle.close();
  }
  return position;
}

async function unzipTest(file: string, members: string[] = []): Promise<string> {
  const { stdout } = await run('unzip', ['-tq', file, ...members], { maxBuffer: 1 << 24 });
  return stdout;
}

/** Lets yauzl read an archive that exists only as a layout, through Range reads. */
class LayoutReader extends yauzl.RandomAccessReader {
  readonly ranges: Array<[number, number]> = [];

  constructor(
    private readonly layout: ZipLayout,
    private readonly openBlob: ZipBlobOpener,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end <= start) return Readable.from([]);
    this.ranges.push([start, end - 1]);
    return streamZipRange(this.layout, this.openBlob, start, end - 1);
  }
}

/** A blob of zeros generated on demand, counting how many bytes were produced. */
function zeros(length: number, counter = { produced: 0 }): Readable {
  let left = length;
  return new Readable({
    read() {
      const n = Math.min(left, 64 * 1024);
      left -= n;
      counter.produced += n;
      this.push(n === 0 ? null : ZERO_BLOCK.subarray(0, n));
    },
  });
}

describe('streamZipRange over real files', () => {
  let entries: ZipEntryInput[];
  let files: Record<string, Buffer>;
  let layout: ZipLayout;
  let full: Buffer;

  beforeAll(async () => {
    files = {
      'hello.txt': Buffer.from('hello, ferry\n'),
      'photos/2024/a.jpg': randomBytes(300_000),
      'photos/2024/b.jpg': randomBytes(5),
      'été/résumé.txt': Buffer.from('déjà vu\n'),
      'emoji 🎉/🚀 launch.bin': randomBytes(70_000),
      'empty.txt': Buffer.alloc(0),
      'big/one-mebibyte.bin': randomBytes(1 << 20),
    };
    entries = await writeFiles(path.join(dir, 'small'), files);
    layout = buildZipLayout(entries);
    full = await collect(streamZipRange(layout, openFile));
  });

  it('streams exactly totalSize bytes', () => {
    expect(full.length).toBe(layout.totalSize);
  });

  it('passes unzip -t', async () => {
    const file = path.join(dir, 'small.zip');
    await fs.writeFile(file, full);
    expect(await unzipTest(file)).toMatch(/No errors detected/);
    const { stdout } = await run('unzip', ['-Z1', file]);
    expect(stdout.trim().split('\n')).toEqual(Object.keys(files));
  });

  it('reads back with yauzl: same names, folders, bytes and dates', async () => {
    const zip = await yauzl.fromBufferPromise(full, { lazyEntries: true, strictFileNames: true });
    const contents = new Map<string, Buffer>();
    const dates: Date[] = [];
    for await (const entry of zip.eachEntry()) {
      contents.set(entry.fileName, await collect(await zip.openReadStreamPromise(entry)));
      dates.push(entry.getLastModDate({ timezone: 'UTC', forceDosFormat: true }));
    }
    expect([...contents.keys()]).toEqual(Object.keys(files));
    for (const [name, data] of Object.entries(files)) expect(contents.get(name)?.equals(data)).toBe(true);
    for (const date of dates) expect(date.getTime()).toBe(MODIFIED.getTime());
  });

  it('serves any byte range as the same slice of the full archive', async () => {
    const boundaries: number[] = [];
    let offset = 0;
    for (const segment of layout.segments) {
      boundaries.push(offset);
      offset += segment.kind === 'bytes' ? segment.data.length : segment.size;
    }
    const last = layout.totalSize - 1;
    const ranges: Array<[number, number]> = [
      [0, 0],
      [0, last],
      [last, last],
      [0, 29],
      [20, 60],
    ];
    for (const b of boundaries.slice(1)) ranges.push([b - 1, b], [b, b], [b - 7, b + 7], [b - 1, last]);
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20; i++) {
      const start = random(layout.totalSize);
      ranges.push([start, start + random(layout.totalSize - start)]);
    }
    for (const [start, end] of ranges) {
      const part = await collect(streamZipRange(layout, openFile, start, end));
      expect(part.equals(full.subarray(start, end + 1)), `range ${start}-${end}`).toBe(true);
    }
  });

  it('opens only the needed part of each blob, one blob at a time', async () => {
    const calls: Array<[string, number, number]> = [];
    let open = 0;
    let maxOpen = 0;
    const tracking: ZipBlobOpener = async (key, start, end) => {
      calls.push([path.basename(key), start, end]);
      open += 1;
      maxOpen = Math.max(maxOpen, open);
      const stream = createReadStream(key, { start, end, highWaterMark: 16 * 1024 });
      stream.once('close', () => {
        open -= 1;
      });
      return stream;
    };
    // From 100 bytes into a.jpg's data to 10 bytes into b.jpg's data.
    const aStart = 30 + 'hello.txt'.length + files['hello.txt']!.length + 30 + 'photos/2024/a.jpg'.length;
    const bStart = aStart + 300_000 + 30 + 'photos/2024/b.jpg'.length;
    const part = await collect(streamZipRange(layout, tracking, aStart + 100, bStart + 2));
    expect(part.equals(full.subarray(aStart + 100, bStart + 3))).toBe(true);
    expect(calls).toEqual([
      ['a.jpg', 100, 299_999],
      ['b.jpg', 0, 2],
    ]);
    expect(maxOpen).toBe(1);

    calls.length = 0;
    await collect(streamZipRange(layout, tracking, 0, 30));
    expect(calls).toEqual([]);

    calls.length = 0;
    await collect(streamZipRange(layout, tracking));
    expect(calls.map(([name]) => name)).toEqual([
      'hello.txt',
      'a.jpg',
      'b.jpg',
      'résumé.txt',
      '🚀 launch.bin',
      'one-mebibyte.bin',
    ]);
    expect(maxOpen).toBe(1);
  });

  it('rejects ranges outside the archive', () => {
    expect(() => streamZipRange(layout, openFile, -1, 10)).toThrow(RangeError);
    expect(() => streamZipRange(layout, openFile, 10, 9)).toThrow(RangeError);
    expect(() => streamZipRange(layout, openFile, 0, layout.totalSize)).toThrow(RangeError);
  });
});

describe('streamZipRange failures and flow control', () => {
  const layout = buildZipLayout([
    { name: 'a.bin', size: 8 << 20, crc32: 0, modifiedAt: MODIFIED, key: 'a' },
    { name: 'b.bin', size: 10, crc32: 0, modifiedAt: MODIFIED, key: 'b' },
  ]);

  it('propagates an error from opening a blob', async () => {
    const failing: ZipBlobOpener = async () => {
      throw new Error('store unavailable');
    };
    await expect(collect(streamZipRange(layout, failing))).rejects.toThrow('store unavailable');
  });

  it('propagates an error from a blob stream', async () => {
    const broken: ZipBlobOpener = async () =>
      new Readable({
        read() {
          this.destroy(new Error('disk read failed'));
        },
      });
    await expect(collect(streamZipRange(layout, broken))).rejects.toThrow('disk read failed');
  });

  it('fails when a blob is shorter or longer than asked', async () => {
    const short: ZipBlobOpener = async (_key, start, end) => zeros(end - start);
    await expect(collect(streamZipRange(layout, short))).rejects.toThrow(/ended after/);
    const long: ZipBlobOpener = async (_key, start, end) => zeros(end - start + 2);
    await expect(collect(streamZipRange(layout, long))).rejects.toThrow(/more than/);
  });

  it('destroys the blob stream when the consumer goes away mid-blob, even if the blob stalls', async () => {
    let blob: Readable | undefined;
    const stalling: ZipBlobOpener = async () => {
      let pushed = false;
      blob = new Readable({
        read() {
          if (!pushed) this.push(Buffer.alloc(1000));
          pushed = true; // then never another byte, like a hung network read
        },
      });
      return blob;
    };
    const output = streamZipRange(layout, stalling);
    let received = 0;
    output.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toBeGreaterThan(1000);
    output.destroy();
    await new Promise((resolve) => output.once('close', resolve));
    expect(blob?.destroyed).toBe(true);
  });

  it('destroys a blob that finishes opening after the consumer went away', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let blob: Readable | undefined;
    const slow: ZipBlobOpener = async (_key, start, end) => {
      await gate;
      blob = zeros(end - start + 1);
      return blob;
    };
    const output = streamZipRange(layout, slow, 100, 200);
    output.resume();
    await new Promise((resolve) => setTimeout(resolve, 20));
    output.destroy();
    release();
    await new Promise((resolve) => output.once('close', resolve));
    expect(blob?.destroyed).toBe(true);
  });

  it('reads a blob only as fast as the consumer takes it', async () => {
    const counter = { produced: 0 };
    const counted: ZipBlobOpener = async (_key, start, end) => zeros(end - start + 1, counter);
    const output = streamZipRange(layout, counted, 0, (8 << 20) - 1);
    const first = await new Promise<Buffer>((resolve) => output.once('data', resolve));
    output.pause();
    expect(first.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(counter.produced).toBeLessThan(1 << 20);
    const rest = await collect(output);
    expect(first.length + rest.length).toBe(8 << 20);
  });
});

describe('ZIP64', () => {
  it('round-trips a sparse file over 4 GiB, and a file stored beyond 4 GiB', {
    timeout: 180_000,
  }, async () => {
    const root = path.join(dir, 'zip64');
    const small = await writeFiles(root, {
      'before.txt': Buffer.from('before the big one\n'),
      'after/tail.txt': Buffer.from('stored past the 4 GiB mark\n'),
    });
    const bigFile = path.join(root, 'big.bin');
    // Just past 4 GiB: enough to need ZIP64 sizes and offsets, while keeping the reads of the holes short.
    const bigSize = 4 * GiB + (1 << 20) + 123;
    await fs.writeFile(bigFile, '');
    await fs.truncate(bigFile, bigSize);
    const big: ZipEntryInput = {
      name: 'big/zeros.bin',
      size: bigSize,
      crc32: crc32OfZeros(bigSize),
      modifiedAt: MODIFIED,
      key: bigFile,
    };
    const layout = buildZipLayout([small[0]!, big, small[1]!]);

    const archive = path.join(dir, 'zip64.zip');
    expect(await writeSparse(streamZipRange(layout, openFile), archive)).toBe(layout.totalSize);

    const zip = await yauzl.openPromise(archive, { lazyEntries: true, autoClose: false });
    const found = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) found.set(entry.fileName, entry);
    expect([...found.keys()]).toEqual(['before.txt', 'big/zeros.bin', 'after/tail.txt']);
    const bigEntry = found.get('big/zeros.bin')!;
    expect(bigEntry.uncompressedSize).toBe(bigSize);
    expect(bigEntry.compressedSize).toBe(bigSize);
    expect(bigEntry.crc32).toBe(big.crc32);
    const tail = found.get('after/tail.txt')!;
    expect(tail.relativeOffsetOfLocalHeader).toBeGreaterThan(0xffffffff);
    expect((await collect(await zip.openReadStreamPromise(tail))).toString()).toBe(
      'stored past the 4 GiB mark\n',
    );
    const end = await collect(
      await zip.openReadStreamPromise(bigEntry, { start: bigSize - 16, end: bigSize }),
    );
    expect(end.equals(Buffer.alloc(16))).toBe(true);
    zip.close();

    // unzip finds the entry stored past 4 GiB through the ZIP64 records and checks its CRC and size.
    expect(await unzipTest(archive, ['before.txt', 'after/tail.txt'])).toMatch(/No errors detected/);
    const { stdout } = await run('unzip', ['-l', archive]);
    expect(stdout).toMatch(new RegExp(`^\\s*${bigSize}\\s.*big/zeros\\.bin$`, 'm'));
  });

  it('is read by yauzl through Range reads with a generated 5 GiB blob', async () => {
    const bigSize = 5 * GiB;
    const text = Buffer.from('after the zeros');
    const layout = buildZipLayout([
      { name: 'zeros.bin', size: bigSize, crc32: 0, modifiedAt: MODIFIED, key: 'zeros' },
      { name: 'after.txt', size: text.length, crc32: zlib.crc32(text), modifiedAt: MODIFIED, key: 'text' },
    ]);
    const opener: ZipBlobOpener = async (key, start, end) =>
      key === 'text' ? Readable.from([text.subarray(start, end + 1)]) : zeros(end - start + 1);
    const reader = new LayoutReader(layout, opener);
    const zip = await yauzl.fromRandomAccessReaderPromise(reader, layout.totalSize, {
      lazyEntries: true,
      autoClose: false,
    });
    const found = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) found.set(entry.fileName, entry);
    expect(found.get('zeros.bin')?.uncompressedSize).toBe(bigSize);
    const after = found.get('after.txt')!;
    expect(after.relativeOffsetOfLocalHeader).toBe(30 + 9 + 20 + bigSize);
    expect((await collect(await zip.openReadStreamPromise(after))).equals(text)).toBe(true);
    // Every read stayed small: nothing streamed the 5 GiB of zeros.
    expect(Math.max(...reader.ranges.map(([start, end]) => end - start + 1))).toBeLessThan(1 << 20);
  });
});
