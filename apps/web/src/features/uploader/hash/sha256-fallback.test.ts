import { describe, expect, it } from 'vitest';
import { hashBlob } from './hash-blob';
import { Sha256 } from './sha256-fallback';

async function reference(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function bytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(new ArrayBuffer(length));
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

describe('Sha256 (JavaScript fallback)', () => {
  it('matches the standard vectors', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(new Sha256().update(text('')).digest('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(new Sha256().update(text('abc')).digest('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('agrees with Web Crypto across block boundaries and uneven updates', async () => {
    for (const length of [1, 55, 56, 63, 64, 65, 119, 120, 1000, 70_001]) {
      const data = bytes(length, length);
      const hasher = new Sha256();
      // Feed in odd-sized pieces, as slices of a file would come.
      for (let offset = 0; offset < length; offset += 37) hasher.update(data.subarray(offset, offset + 37));
      expect(hasher.digest('hex'), `length ${length}`).toBe(await reference(data));
    }
  });

  it('can be reused after init, and drives hashBlob', async () => {
    const data = bytes(20_000);
    const hasher = new Sha256();
    hasher.update(bytes(10));
    expect(await hashBlob(new Blob([data]), hasher, undefined, 4096)).toBe(await reference(data));
  });
});
