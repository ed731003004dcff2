import { createSHA256 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { hashBlob } from './hash-blob';

function bytes(length: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(new ArrayBuffer(length));
  for (let i = 0; i < length; i++) data[i] = (i * 31 + 7) % 251;
  return data;
}

/** The reference: Web Crypto's one-shot digest (fine for a few kilobytes of test data). */
async function reference(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('hashBlob', () => {
  it('gives the SHA-256 of the whole file while reading it in slices', async () => {
    const data = bytes(10_000);
    const blob = new Blob([data]);
    const progress: number[] = [];
    const sha = await hashBlob(blob, await createSHA256(), (n) => progress.push(n), 4096);
    expect(sha).toBe(await reference(data));
    // Three slices (4096, 4096, 1808): never the whole file at once.
    expect(progress).toEqual([4096, 8192, 10_000]);
  });

  it('hashes an empty file', async () => {
    const sha = await hashBlob(new Blob([]), await createSHA256());
    expect(sha).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('reads through slice(), not the whole blob', async () => {
    const data = bytes(3000);
    const sliced: Array<[number, number]> = [];
    const blob = new Blob([data]);
    const spy = {
      size: blob.size,
      slice(start: number, end: number) {
        sliced.push([start, end]);
        return blob.slice(start, end);
      },
      arrayBuffer() {
        throw new Error('the whole file must not be read at once');
      },
    } as unknown as Blob;
    await hashBlob(spy, await createSHA256(), undefined, 1024);
    expect(sliced).toEqual([
      [0, 1024],
      [1024, 2048],
      [2048, 3000],
    ]);
  });
});
