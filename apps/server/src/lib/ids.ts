import { randomInt } from 'node:crypto';
import { ALPHANUMERIC, FILE_ID_LENGTH, TRANSFER_ID_LENGTH } from '@ferry/core';

/** A random string over [A-Za-z0-9] from the CSPRNG, without modulo bias. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export const newTransferId = (): string => randomAlphanumeric(TRANSFER_ID_LENGTH);
/** File ids are 6 random alphanumerics (spec §3), unique within their transfer. */
export const newFileId = (): string => randomAlphanumeric(FILE_ID_LENGTH);
