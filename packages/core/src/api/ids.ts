import { z } from 'zod';
import { CUSTOM_LINK_REF_PATTERN, FILE_ID_PATTERN, TRANSFER_ID_PATTERN } from '../rules/id-format.js';

export const TransferId = z.string().regex(TRANSFER_ID_PATTERN, 'not a transfer id');
export const FileId = z.string().regex(FILE_ID_PATTERN, 'not a file id');

/**
 * What download calls accept as `transferId`: the transfer's id, or its custom link in any case (a custom link is
 * never 16 letters and digits, so the two cannot be confused).
 */
export const TransferRef = z.union([
  TransferId,
  z.string().regex(CUSTOM_LINK_REF_PATTERN, 'not a transfer id or custom link'),
]);
