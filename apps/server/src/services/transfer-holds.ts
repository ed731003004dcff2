import type { TransferStatus } from '@ferry/core';
import type { TransferFileRecord, TransferRecord } from './ports.js';

/** Statuses that keep a transfer whose files all arrived from its recipients (spec §3). */
export type HeldStatus = Extract<TransferStatus, 'MODERATING' | 'SCANNING' | 'PENDING'>;

/** Every held status: releaseHeld asks the holds again for a transfer in one of these. */
export const HELD_STATUSES: readonly HeldStatus[] = ['MODERATING', 'SCANNING', 'PENDING'];

/**
 * Something that may keep a finished upload from delivery: moderation (a transfer under review), scanning (files
 * not yet scanned under SCAN_POLICY=block) or the availability window (PENDING until `availableFrom`). TransferService asks each hold, in the order they were added, when a
 * transfer's files have all arrived (`uploaded`) and again whenever a hold ends (`recheck`): the first status
 * returned is the transfer's; none, and it becomes ENABLED and goes out. Automatic rules decide at `uploaded` only.
 */
export interface TransferHold {
  statusFor(
    transfer: TransferRecord,
    files: TransferFileRecord[],
    phase: 'uploaded' | 'recheck',
  ): Promise<HeldStatus | null>;
}

/**
 * Told once every time files of a transfer have arrived and been checked — at completion, after a clone, after
 * files are added — held or not: background work starts here (scans, thumbnails). Listeners queue jobs; they do
 * not do the work in the request.
 */
export interface FilesArrivedListener {
  filesArrived(transfer: TransferRecord, files: TransferFileRecord[]): Promise<void>;
}
