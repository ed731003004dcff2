import { FILE_ID_LENGTH, TRANSFER_ID_LENGTH } from '../constants.js';

/*
 * The forms of ids, as plain patterns: the zod schemas of api/ids.ts are built from them, and a page that only
 * checks an id in its address (the download page) uses them without loading zod.
 */

/** A transfer's id: TRANSFER_ID_LENGTH letters and digits. */
export const TRANSFER_ID_PATTERN = new RegExp(`^[A-Za-z0-9]{${TRANSFER_ID_LENGTH}}$`);
/** A file's id: FILE_ID_LENGTH letters and digits. */
export const FILE_ID_PATTERN = new RegExp(`^[A-Za-z0-9]{${FILE_ID_LENGTH}}$`);
/** A custom link where download calls take a transfer's id (any case; never 16 letters and digits only). */
export const CUSTOM_LINK_REF_PATTERN = /^[A-Za-z0-9-]{3,64}$/;

export function isTransferId(value: string): boolean {
  return TRANSFER_ID_PATTERN.test(value);
}

/** What download calls accept as `transferId`: the transfer's id, or its custom link. */
export function isTransferRef(value: string): boolean {
  return isTransferId(value) || CUSTOM_LINK_REF_PATTERN.test(value);
}
