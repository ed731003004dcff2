import { z } from 'zod';
import { FILE_ID_LENGTH, TRANSFER_ID_LENGTH } from '../constants.js';

export const TransferId = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9]{${TRANSFER_ID_LENGTH}}$`), 'not a transfer id');
export const FileId = z.string().regex(new RegExp(`^[A-Za-z0-9]{${FILE_ID_LENGTH}}$`), 'not a file id');
