import type { TransferFileRecord, TransferRecord, TransferRepository } from './ports.js';
import type { TransferService } from './transfer.service.js';
import type { HeldStatus, TransferHold } from './transfer-holds.js';

/** Queues the release of a transfer at a moment (jobs/availability-job.ts: a pg-boss job with startAfter). */
export interface ReleaseScheduler {
  releaseAt(transferId: string, at: Date): Promise<void>;
}

/**
 * The availability window's TransferHold (spec §3 "from" date): a transfer whose `availableFrom` is still ahead is
 * PENDING, whenever asked — its files are uploaded, scanned and rendered as usual, but it does not go out. Each time
 * it answers PENDING it queues a release at that moment; a release that comes early (the date was moved later) asks
 * again and queues the next one, so one lost or stale job never matters. The sweep ({@link releaseDue}) is the net
 * under all of them.
 */
export class AvailabilityHold implements TransferHold {
  constructor(
    private readonly scheduler: ReleaseScheduler,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async statusFor(
    transfer: TransferRecord,
    _files: TransferFileRecord[],
    _phase: 'uploaded' | 'recheck',
  ): Promise<HeldStatus | null> {
    const from = transfer.availableFrom;
    if (!from || from.getTime() <= this.now().getTime()) return null;
    await this.scheduler.releaseAt(transfer.id, from);
    return 'PENDING';
  }
}

/**
 * The release side of the window: the job at `availableFrom`, the dashboard's moves, and the sweep that releases
 * whatever a lost job left PENDING past its moment.
 */
export class AvailabilityReleases {
  constructor(
    private readonly transfers: Pick<TransferService, 'releaseHeld'>,
    private readonly repo: Pick<TransferRepository, 'pendingDue'>,
    private readonly scheduler: ReleaseScheduler,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The job's work: the holds are asked again; the transfer goes out if none keeps it. */
  async release(transferId: string): Promise<string | null> {
    return this.transfers.releaseHeld(transferId);
  }

  /**
   * An owner moved the window of a transfer that had not opened: a moment still ahead gets its release queued; none
   * (or one already past) releases it now.
   */
  async moved(transferId: string, availableFrom: Date | null): Promise<void> {
    if (availableFrom && availableFrom.getTime() > this.now().getTime())
      await this.scheduler.releaseAt(transferId, availableFrom);
    else await this.transfers.releaseHeld(transferId);
  }

  /** Releases PENDING transfers whose moment passed (at most `limit` a run); returns how many it asked about. */
  async releaseDue(limit = 500): Promise<number> {
    const due = await this.repo.pendingDue(this.now(), limit);
    for (const id of due) await this.transfers.releaseHeld(id);
    return due.length;
  }
}
