import type { TransferRepository } from './ports.js';
import type { UploadStorage } from './transfer.service.js';

/**
 * Removes transfers whose upload was abandoned: still UPLOADING after the configured time to live (a shorter one
 * for anonymous transfers, which anyone can create: declared space is not held for long). Their
 * partial uploads are deleted from storage first, then the rows; running it on several instances at once is safe
 * (each deletion is conditional, and deleting a blob that is gone is not an error).
 */
export class CleanupService {
  constructor(
    private readonly repo: TransferRepository,
    private readonly storage: UploadStorage,
    private readonly unfinishedTtlHours: number,
    private readonly now: () => Date = () => new Date(),
    /** Time to live of an anonymous transfer's unfinished upload; the account's when not given. */
    private readonly anonymousTtlHours = unfinishedTtlHours,
  ) {}

  async sweepUnfinished(batch = 100): Promise<number> {
    let removed = await this.sweep(this.unfinishedTtlHours, false, batch);
    if (this.anonymousTtlHours < this.unfinishedTtlHours)
      removed += await this.sweep(this.anonymousTtlHours, true, batch);
    return removed;
  }

  private async sweep(ttlHours: number, anonymousOnly: boolean, batch: number): Promise<number> {
    const cutoff = new Date(this.now().getTime() - ttlHours * 3_600_000);
    let removed = 0;
    for (;;) {
      const stale = await this.repo.unfinishedBefore(cutoff, batch, anonymousOnly);
      for (const transfer of stale) {
        for (const file of await this.repo.files(transfer.id)) {
          if (file.uploadId) await this.storage.discardUpload(file.uploadId);
        }
        if (await this.repo.deleteUnfinished(transfer.id)) removed++;
      }
      if (stale.length < batch) return removed;
    }
  }
}
