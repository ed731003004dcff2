/** Read size for hashing: large enough to be fast, small enough that a file is never held whole in memory. */
export const HASH_SLICE_BYTES = 8 * 1024 * 1024;

/** The incremental hasher of hash-wasm (createSHA256), reduced to what hashing a blob needs. */
export interface IncrementalHasher {
  init(): unknown;
  update(data: Uint8Array): unknown;
  digest(encoding: 'hex'): string;
}

/**
 * SHA-256 of a Blob (or File) read slice by slice with `blob.slice().arrayBuffer()`, reporting the bytes
 * hashed after each slice. Returns lowercase hex.
 */
export async function hashBlob(
  blob: Blob,
  hasher: IncrementalHasher,
  onProgress?: (hashedBytes: number) => void,
  sliceBytes = HASH_SLICE_BYTES,
): Promise<string> {
  hasher.init();
  for (let offset = 0; offset < blob.size; offset += sliceBytes) {
    const end = Math.min(blob.size, offset + sliceBytes);
    const buffer = await blob.slice(offset, end).arrayBuffer();
    hasher.update(new Uint8Array(buffer));
    onProgress?.(end);
  }
  return hasher.digest('hex');
}
