import type { UploadType } from './uploader-state';

/**
 * Transfer types the uploader can send, the default first (spec §4: S1, by e-mail). S3 (requests) has pages
 * of its own.
 */
export const AVAILABLE_UPLOAD_TYPES: readonly UploadType[] = ['S1', 'S2'];

/** The type chosen by the URL hash (`/#S1`, `/#S2`, spec §2), falling back to the first available type. */
export function transferTypeFromHash(
  hash: string,
  available: readonly UploadType[] = AVAILABLE_UPLOAD_TYPES,
): UploadType {
  const wanted = hash.replace(/^#/, '').toUpperCase();
  const match = available.find((type) => type === wanted);
  return match ?? available[0] ?? 'S2';
}
