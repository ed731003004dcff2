import path from 'node:path';
import { type Config, DEFAULT_STORAGE_REGION } from '../config.js';
import type { Storage } from './blob-store.js';
import { createLocalStorage } from './local.js';
import { routeByTransferRegion } from './region-routing.js';

/** The main storage, plus the storage of every region a transfer can be forced into. */
export interface RegionalStorage extends Storage {
  /** Names `forRegion` accepts: `default` (the main storage) and the keys of S3_REGIONS. */
  readonly regionNames: readonly string[];
  /**
   * The storage of a region (spec §3 `forcedRegion`); null or `default` is the main one. An unknown name throws:
   * a region lock must never fall back to storing elsewhere.
   */
  forRegion(name: string | null | undefined): Storage;
}

/** The one storage factory: local disk under DATA_DIR/files, or S3 (STORAGE=s3) with its regions. */
export async function createStorage(
  config: Pick<Config, 'storage' | 's3' | 'dataDir' | 'storageEncryptionKey'>,
  transfers: {
    /** With S3 and a key: whether a transfer is stored with SSE-C (its `sseC` flag). */
    sseC?: (transferId: string) => Promise<boolean>;
    /** With S3_REGIONS: the region a transfer's bytes live in (its `storageRegion`); null: the main one. */
    region?: (transferId: string) => Promise<string | null>;
  } = {},
): Promise<RegionalStorage> {
  const regions = new Map<string, Storage>();
  if (config.storage === 's3' && config.s3) {
    // Loaded only when used: the S3 client and its tus store take about 17 MB of memory.
    const { createS3Storage } = await import('./s3.js');
    const { transferSseCKeys } = await import('./s3-sse-c.js');
    const { regions: others, ...s3 } = config.s3;
    const main = {
      ...s3,
      sseC:
        config.storageEncryptionKey && transfers.sseC
          ? transferSseCKeys(config.storageEncryptionKey, transfers.sseC)
          : undefined,
    };
    regions.set(DEFAULT_STORAGE_REGION, createS3Storage(main));
    for (const [name, target] of Object.entries(others))
      regions.set(name, createS3Storage({ ...main, ...target }));
  } else {
    regions.set(
      DEFAULT_STORAGE_REGION,
      await createLocalStorage(path.join(config.dataDir, 'files'), config.storageEncryptionKey),
    );
  }
  const main = regions.get(DEFAULT_STORAGE_REGION)!;
  const forRegion = (name: string | null | undefined): Storage => {
    const storage = regions.get(name ?? DEFAULT_STORAGE_REGION);
    if (!storage)
      throw new Error(`unknown storage region "${name}" (known: ${[...regions.keys()].join(', ')})`);
    return storage;
  };
  // With several regions, each call goes to the region of the transfer it concerns.
  const routed =
    regions.size > 1 && transfers.region
      ? routeByTransferRegion(main, forRegion, transfers.region, [...regions.values()])
      : main;
  return { ...routed, regionNames: [...regions.keys()], forRegion };
}
