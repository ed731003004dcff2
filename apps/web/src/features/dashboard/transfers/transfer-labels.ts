import {
  TRANSFER_STATUSES,
  type TransferDetail,
  type TransferStatus,
  transferStatusLabel,
  truncateFileName,
} from '@ferry/core';

/**
 * The status filter offers spec §2's labels, not the raw statuses: "pending" is MODERATING and PENDING,
 * "deleted" is DELETED and RETAINED. Each label maps to the statuses sent as `status=A,B`.
 */
export const STATUS_FILTERS: ReadonlyMap<string, TransferStatus[]> = (() => {
  const groups = new Map<string, TransferStatus[]>();
  for (const status of TRANSFER_STATUSES) {
    const label = transferStatusLabel(status);
    groups.set(label, [...(groups.get(label) ?? []), status]);
  }
  return groups;
})();

/** The name a transfer is shown under: its own (truncated per spec §2, keeping the extension), or null. */
export function displayTransferName(name: string | null): string | null {
  const trimmed = name?.trim();
  return trimmed ? truncateFileName(trimmed) : null;
}

/**
 * A transfer that went out and still has its files: it can be cloned and files can be added to it (the server
 * decides; this only hides what it would refuse).
 */
export function isSentAndStored(transfer: TransferDetail): boolean {
  return (
    !transfer.expired &&
    transfer.bytesDeletedAt === null &&
    !['UPLOADING', 'CLONING', 'DELETED', 'RETAINED'].includes(transfer.status)
  );
}
