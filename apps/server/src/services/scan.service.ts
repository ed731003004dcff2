import type { Readable } from 'node:stream';
import type { ScanStatus } from '@ferry/core';
import type { Logger } from 'pino';
import type { ScanRepository, TransferFileRecord, TransferRecord, TransferRepository } from './ports.js';
import type { FilesArrivedListener, HeldStatus, TransferHold } from './transfer-holds.js';

export const SCAN_FILE_QUEUE = 'scan.file';

/** One file to scan: the job's data. */
export interface ScanJob {
  transferId: string;
  fileId: string;
}

/** What a virus scanner says of a stream of bytes (scan/clamd-client.ts); it throws when it cannot be reached. */
export interface Scanner {
  scan(
    body: Readable,
  ): Promise<{ result: 'clean' } | { result: 'infected'; signature: string } | { result: 'too-large' }>;
}

/** How scans are queued: once per file, however many instances (pg-boss, singleton per file). */
export interface ScanQueue {
  send(name: string, data: ScanJob, options: { singletonKey: string }): Promise<string | null>;
}

export interface ScanSettings {
  /** block: a transfer is SCANNING until its files are scanned; background: delivered at once. */
  policy: 'block' | 'background';
  /** Larger files are not sent to the scanner (clamd's StreamMaxLength): they are not-scanned. */
  streamMaxBytes: number;
}

/**
 * The hourly sweep of an instance without clamd: if scanning was turned off, files left pending become
 * not-scanned and transfers held SCANNING move on (other holds are asked again). Returns how many moved.
 */
export async function releaseAfterScanningOff(
  scans: ScanRepository,
  release: (transferId: string) => Promise<unknown>,
): Promise<number> {
  const held = await scans.abandonPending();
  for (const id of held) await release(id);
  return held.length;
}

/** Who is told of an infected file (the sender, by mail). */
export type InfectedListener = (
  transferId: string,
  file: TransferFileRecord,
  signature: string,
) => Promise<void>;

/**
 * Virus scanning of uploaded files (docs/scanning.md). A hold keeps a finished transfer SCANNING under the block
 * policy; each arrival queues one job per file; a job streams the file to the scanner and records its verdict,
 * and the last verdict of a held transfer releases it. A scanner that cannot be reached fails the job, which is
 * retried: a file stays pending, never becomes clean, until a verdict is in.
 */
export class ScanService implements TransferHold, FilesArrivedListener {
  constructor(
    private readonly scans: ScanRepository,
    private readonly transfers: TransferRepository,
    private readonly read: (key: string) => Promise<Readable>,
    private readonly scanner: Scanner,
    private readonly queue: ScanQueue,
    private readonly release: (transferId: string) => Promise<unknown>,
    private readonly infected: InfectedListener,
    private readonly settings: ScanSettings,
    private readonly logger: Logger,
  ) {}

  /** Whether a file is still to be sent to the scanner. */
  private toScan(file: TransferFileRecord): boolean {
    if (!file.uploadedAt || !file.blobKey) return false;
    if (file.scanStatus === 'pending') return true;
    return file.scanStatus === 'not-scanned' && file.size <= this.settings.streamMaxBytes;
  }

  async statusFor(
    _transfer: TransferRecord,
    files: TransferFileRecord[],
    phase: 'uploaded' | 'recheck',
  ): Promise<HeldStatus | null> {
    if (this.settings.policy !== 'block') return null;
    const waiting =
      phase === 'uploaded'
        ? files.some((f) => this.toScan(f))
        : files.some((f) => f.scanStatus === 'pending');
    return waiting ? 'SCANNING' : null;
  }

  /**
   * Queues a scan of each arrived file not scanned yet. Files of a clone keep their source's verdict (same bytes);
   * files larger than the scanner takes stay not-scanned.
   */
  async filesArrived(transfer: TransferRecord, files: TransferFileRecord[]): Promise<void> {
    const queued = files.filter((f) => this.toScan(f));
    await this.scans.start(
      transfer.id,
      queued.map((f) => f.id),
      { type: 'SCAN_STARTED', actor: 'system', data: { files: queued.length } },
    );
    for (const f of queued) await this.enqueue(transfer.id, f.id);
    // A transfer held with nothing (left) to scan goes on.
    if (queued.length === 0 && transfer.status === 'SCANNING') await this.release(transfer.id);
  }

  private async enqueue(transferId: string, fileId: string): Promise<void> {
    await this.queue.send(
      SCAN_FILE_QUEUE,
      { transferId, fileId },
      { singletonKey: `${transferId}/${fileId}` },
    );
  }

  /** The job: scans one file and records the verdict. Throws (and is retried) when the scanner cannot answer. */
  async scanFile(job: ScanJob): Promise<ScanStatus | 'skipped'> {
    const file = await this.transfers.file(job.transferId, job.fileId);
    if (file?.scanStatus !== 'pending') return 'skipped';
    if (!file.blobKey) return 'skipped';
    if (file.size > this.settings.streamMaxBytes) return this.finish(file, 'not-scanned', null);
    const verdict = await this.scanner.scan(await this.read(file.blobKey));
    if (verdict.result === 'clean') return this.finish(file, 'clean', null);
    if (verdict.result === 'too-large') {
      this.logger.warn(
        { transferId: file.transferId, fileId: file.id, size: file.size },
        "clamd refused a file under CLAMD_STREAM_MAX_BYTES as too large: raise clamd's StreamMaxLength or lower the setting",
      );
      return this.finish(file, 'not-scanned', null);
    }
    return this.finish(file, 'infected', verdict.signature);
  }

  private async finish(
    file: TransferFileRecord,
    status: Exclude<ScanStatus, 'pending'>,
    signature: string | null,
  ): Promise<ScanStatus> {
    const event =
      status === 'not-scanned'
        ? null
        : {
            type: status === 'infected' ? ('SCAN_DONE_INFECTED' as const) : ('SCAN_DONE_OK' as const),
            actor: 'system',
            data: { fileId: file.id, name: file.name, ...(signature ? { signature } : {}) },
          };
    const recorded = await this.scans.record(file.transferId, file.id, status, signature, event);
    if (!recorded.changed) return status;
    if (status === 'infected') {
      this.logger.warn({ transferId: file.transferId, fileId: file.id, signature }, 'infected file blocked');
      await this.infected(file.transferId, file, signature!);
    }
    if (recorded.pendingLeft === 0) await this.release(file.transferId);
    return status;
  }

  /**
   * Part of the hourly sweep: queues again every pending file (a job out of retries after a long outage; a queued
   * one is not doubled) and moves on SCANNING transfers that have nothing pending. Returns how many it touched.
   */
  async requeue(): Promise<number> {
    const pending = await this.scans.pending();
    for (const p of pending) await this.enqueue(p.transferId, p.fileId);
    const stuck = await this.scans.scanningWithoutPending();
    for (const id of stuck) {
      const transfer = await this.transfers.find(id);
      if (transfer) await this.filesArrived(transfer, await this.transfers.files(id));
    }
    return pending.length + stuck.length;
  }
}
