import { type TransferStatus, transferStatusLabel } from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { TransferRecord, TransferRepository } from './ports.js';
import { permissionsOf } from './user.service.js';

/** Where a dashboard request comes from: the origin links start with, and the client's address. */
export interface DashboardContext {
  origin: string;
  ip?: string;
}

/** Who acts on a transfer, and whose it is. */
export interface Access {
  transfer: TransferRecord;
  caller: UserRecord;
  owner: UserRecord;
}

/** Statuses whose transfer can be changed from the dashboard (not while uploading, cloning, or once deleted). */
const EDITABLE: readonly TransferStatus[] = ['ENABLED', 'DISABLED', 'PENDING', 'MODERATING', 'SCANNING'];

export const notFound = () => new AppError('TRANSFER_NOT_FOUND', 'Unknown transfer, or not yours to manage.');

/**
 * Who may see and change a transfer from the dashboard: its owner, the owner's team manager, or a member of the
 * owner's team with TRANSFER_MANAGER. Anyone else learns nothing, not even that it exists. Every dashboard service
 * (reading, actions, clones, added files) asks here first.
 */
export class DashboardAccess {
  constructor(
    private readonly transfers: Pick<TransferRepository, 'find'>,
    private readonly accounts: Pick<PgAccountRepository, 'user'>,
  ) {}

  async check(auth: Authenticated | null, transferId: string): Promise<Access> {
    const caller = signedIn(auth);
    const transfer = await this.transfers.find(transferId);
    if (!transfer?.ownerId) throw notFound();
    if (transfer.ownerId === caller.id) return { transfer, caller, owner: caller };
    const owner = await this.accounts.user(transfer.ownerId);
    if (!owner) throw notFound();
    const team = owner.managerId ?? owner.id;
    const manager = caller.id === team;
    const transferManager = caller.managerId === team && permissionsOf(caller).includes('TRANSFER_MANAGER');
    if (!manager && !transferManager) throw notFound();
    return { transfer, caller, owner };
  }
}

export function signedIn(auth: Authenticated | null): UserRecord {
  if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
  return auth.user;
}

/** The actor of an event a signed-in user caused. */
export function actor(user: UserRecord): string {
  return `user:${user.id}`;
}

export function editable(transfer: TransferRecord): void {
  if (!EDITABLE.includes(transfer.status))
    throw new AppError(
      'CONFLICT',
      `A transfer that is ${transferStatusLabel(transfer.status)} cannot be changed.`,
      { details: { status: transfer.status } },
    );
}

/**
 * A transfer under review (MODERATING) keeps its files until an operator decides: its owner cannot delete it or
 * its files meanwhile (what was reported would be gone before it could be retained).
 */
export function notUnderReview(transfer: TransferRecord): void {
  if (transfer.status === 'MODERATING')
    throw new AppError(
      'TRANSFER_UNDER_REVIEW',
      'This transfer is being reviewed: its files cannot be deleted until the review ends.',
    );
}

/** Not expired: its date is ahead and its bytes are still stored. */
export function isLive(transfer: TransferRecord, now: Date): boolean {
  return transfer.expiredAt === null && transfer.expiresAt.getTime() > now.getTime();
}
