import type { TransferStatus } from '../enums.js';

/** The label shown for a status (spec §2): MODERATING is pending, RETAINED is deleted, others lowercase. */
export function transferStatusLabel(status: TransferStatus): string {
  if (status === 'MODERATING') return 'pending';
  if (status === 'RETAINED') return 'deleted';
  return status.toLowerCase();
}
