import type { TransferType } from '@ferry/core';

/**
 * Transfer types the uploader can send today. S1 (send by e-mail) is the hook for later: add it here and give
 * the options step its recipients fields; `/#S1` then selects it.
 */
export const AVAILABLE_UPLOAD_TYPES: readonly TransferType[] = ['S2'];

/** The type chosen by the URL hash (`/#S1`, `/#S2`, spec §2), falling back to the first available type. */
export function transferTypeFromHash(
  hash: string,
  available: readonly TransferType[] = AVAILABLE_UPLOAD_TYPES,
): TransferType {
  const wanted = hash.replace(/^#/, '').toUpperCase();
  const match = available.find((type) => type === wanted);
  return match ?? available[0] ?? 'S2';
}
