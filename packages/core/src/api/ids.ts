import { z } from 'zod';
import { FILE_ID_LENGTH, TRANSFER_ID_LENGTH } from '../constants.js';

export const TransferId = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9]{${TRANSFER_ID_LENGTH}}$`), 'not a transfer id');
export const FileId = z.string().regex(new RegExp(`^[A-Za-z0-9]{${FILE_ID_LENGTH}}$`), 'not a file id');

/**
 * What download calls accept as `transferId`: the transfer's id, or its custom link in any case (a custom link is
 * never 16 letters and digits, so the two cannot be confused).
 */
export const TransferRef = z.union([
  TransferId,
  z.string().regex(/^[A-Za-z0-9-]{3,64}$/, 'not a transfer id or custom link'),
]);
