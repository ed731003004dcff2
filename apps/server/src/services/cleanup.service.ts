import type { TransferRepository } from './ports.js';
import type { UploadStorage } from './transfer.service.js';

/**
 * Removes transfers whose upload was abandoned: still UPLOADING after the configured time to live. Their
 * partial uploads are deleted from storage first, then the rows; running it on several instances at once is safe
 * (each deletion is conditional, and deleting a blob that is gone is not an error).
 */
export class CleanupService {
  constructor(
    private readonly repo: TransferRepository,
    private readonly storage: UploadStorage,
    private readonly unfinishedTtlHours: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async sweepUnfinished(batch = 100): Promise<number> {
    const cutoff = new Date(this.now().getTime() - this.unfinishedTtlHours * 3_600_000);
    let removed = 0;
    for (;;) {
      const stale = await this.repo.unfinishedBefore(cutoff, batch);
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
