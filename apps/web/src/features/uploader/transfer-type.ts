import { defaultTransferType, type UploaderSettings } from '@ferry/core';
import type { UploadType } from './uploader-state';

/**
 * Transfer types the uploader can send, the default first (spec §4: S1, by e-mail). S3 (requests) has pages
 * of its own.
 */
export const AVAILABLE_UPLOAD_TYPES: readonly UploadType[] = ['S1', 'S2'];

/**
 * The types a sender may choose (spec §4, §6): a team member only those their manager allows; anyone else
 * both. Never none: a member allowed neither keeps the one the default rule gives.
 */
export function availableUploadTypes(
  settings: Pick<UploaderSettings, 'allowS1' | 'allowS2'>,
  managed: boolean,
  fallback: UploadType,
): readonly UploadType[] {
  if (!managed) return AVAILABLE_UPLOAD_TYPES;
  const allowed = AVAILABLE_UPLOAD_TYPES.filter((type) =>
    type === 'S1' ? settings.allowS1 : settings.allowS2,
  );
  return allowed.length > 0 ? allowed : [fallback];
}

/**
 * The default type of the uploader page (spec §4, core's defaultTransferType): S1, S2 when the template says
 * s2AsDefault, and for a team member only an allowed type.
 */
export function defaultUploadType(
  settings: Pick<UploaderSettings, 'allowS1' | 'allowS2'>,
  s2AsDefault: boolean,
  managed: boolean,
): UploadType {
  const type = defaultTransferType({ page: 'uploader', s2AsDefault, managed, ...settings });
  return type === 'S2' ? 'S2' : 'S1';
}

/**
 * The type chosen by the URL hash (`/#S1`, `/#S2`, spec §2) when it is available; otherwise the default, or
 * the first available type.
 */
export function transferTypeFromHash(
  hash: string,
  available: readonly UploadType[] = AVAILABLE_UPLOAD_TYPES,
  fallback: UploadType = available[0] ?? 'S2',
): UploadType {
  const wanted = hash.replace(/^#/, '').toUpperCase();
  const match = available.find((type) => type === wanted);
  if (match) return match;
  return available.includes(fallback) ? fallback : (available[0] ?? fallback);
}
