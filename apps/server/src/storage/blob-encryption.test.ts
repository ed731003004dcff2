import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BlobDecryptError,
  decryptSegment,
  encryptedLength,
  HEADER_BYTES,
  layoutFor,
  layoutOf,
  newHeader,
  plaintextLength,
  SEGMENT_BYTES,
  SEGMENT_OVERHEAD,
  SegmentEncryptor,
  V1_SEGMENT_BYTES,
} from './blob-encryption.js';

describe('the encrypted blob format', () => {
  const master = randomBytes(32);

  it('writes version 2 headers naming their segment size, and reads version 1 as 64 KiB', () => {
    const now = newHeader(master);
    expect(now.header[8]).toBe(2);
    expect(layoutOf(now.header)).toEqual(layoutFor(SEGMENT_BYTES));
    expect(SEGMENT_BYTES).toBe(1024 * 1024);
    const old = newHeader(master, V1_SEGMENT_BYTES);
    expect(old.header[8]).toBe(1);
    expect(layoutOf(old.header)).toEqual(layoutFor(64 * 1024));
    expect(layoutOf(newHeader(master, 4096).header).segmentBytes).toBe(4096);
  });

  it('refuses headers of unknown versions or sizes', () => {
    const { header } = newHeader(master);
    const bad = (edit: (h: Buffer) => void) => {
      const copy = Buffer.from(header);
      edit(copy);
      return () => layoutOf(copy);
    };
    expect(bad((h) => (h[8] = 3))).toThrow(BlobDecryptError);
    expect(bad((h) => (h[9] = 11))).toThrow(/no valid segment size/);
    expect(bad((h) => (h[9] = 25))).toThrow(/no valid segment size/);
    expect(() => newHeader(master, 1000)).toThrow(RangeError);
  });

  it('maps plaintext lengths to disk sizes and back for either layout', () => {
    for (const segmentBytes of [V1_SEGMENT_BYTES, SEGMENT_BYTES]) {
      const layout = layoutFor(segmentBytes);
      for (const length of [0, 1, segmentBytes - 1, segmentBytes, segmentBytes + 1, 3 * segmentBytes + 17]) {
        const disk = encryptedLength(layout, length);
        expect(disk).toBe(HEADER_BYTES + length + Math.ceil(length / segmentBytes) * SEGMENT_OVERHEAD);
        expect(plaintextLength(layout, disk)).toBe(length);
      }
    }
  });

  it('binds each segment to its index and key', () => {
    const { key } = newHeader(master);
    const segment = new SegmentEncryptor(key, 7);
    const plain = randomBytes(100_000);
    segment.update(plain.subarray(0, 3));
    segment.update(plain.subarray(3));
    const stored = Buffer.concat(segment.finish());
    expect(decryptSegment(key, 7, stored).equals(plain)).toBe(true);
    expect(() => decryptSegment(key, 8, stored)).toThrow(BlobDecryptError);
    expect(() => decryptSegment(randomBytes(32), 7, stored)).toThrow(BlobDecryptError);
    const flipped = Buffer.from(stored);
    flipped[50_000] = (flipped[50_000] ?? 0) ^ 1;
    expect(() => decryptSegment(key, 7, flipped)).toThrow(BlobDecryptError);
  });
});
