import type { Readable } from 'node:stream';
import { DataStore, type Upload } from '@tus/utils';
import type { BlobStore, Storage } from './blob-store.js';

/**
 * The transfer an upload id or blob key belongs to: `<transferId>-<fileId>` (S3's keys), or a preview's rendition
 * `previews/<transferId>/<fileId>/…`.
 */
export function transferOfKey(key: string): string | null {
  return /^(?:previews\/)?([A-Za-z0-9]+)[-/]/.exec(key)?.[1] ?? null;
}

/**
 * One Storage over several regions' (S3_REGIONS): every call goes to the storage of the region the transfer was
 * created in (its `storageRegion`, spec §3 forcedRegion), so a region-locked transfer's bytes are written, read,
 * copied and deleted only in its region's bucket. The region of a transfer never changes: answers are remembered.
 * A region that is no longer configured makes the call fail (`forRegion` throws) rather than fall back elsewhere.
 */
export function routeByTransferRegion(
  main: Storage,
  forRegion: (name: string | null) => Storage,
  regionOf: (transferId: string) => Promise<string | null>,
  allRegions: readonly Storage[],
): Storage {
  const known = new Map<string, string | null>();
  const pick = async (key: string): Promise<Storage> => {
    const transferId = transferOfKey(key);
    if (!transferId) return main;
    let region = known.get(transferId);
    if (region === undefined) {
      region = await regionOf(transferId);
      if (known.size > 10_000) known.clear();
      known.set(transferId, region);
    }
    return forRegion(region);
  };
  const blobs: BlobStore = {
    read: async (key, range) => (await pick(key)).blobs.read(key, range),
    size: async (key) => (await pick(key)).blobs.size(key),
    putFile: async (key, filePath, contentType) =>
      (await pick(key)).blobs.putFile(key, filePath, contentType),
    delete: async (key) => (await pick(key)).blobs.delete(key),
    ping: async () => void (await Promise.all(allRegions.map((s) => s.blobs.ping()))),
  };
  if (main.blobs.presignedUrl)
    blobs.presignedUrl = async (key, options) => {
      const target = (await pick(key)).blobs;
      return target.presignedUrl ? target.presignedUrl(key, options) : null;
    };
  return {
    blobs,
    tusStore: new RoutingDataStore(main.tusStore, pick, allRegions),
    uploadBlobKey: (uploadId) => main.uploadBlobKey(uploadId),
    readPartialUpload: async (uploadId, end) => (await pick(uploadId)).readPartialUpload(uploadId, end),
    // A clone is stored in its source's region (dashboard-clone.service.ts), so one bucket holds both.
    copyUpload: async (sourceKey, targetUploadId) =>
      (await pick(targetUploadId)).copyUpload(sourceKey, targetUploadId),
  };
}

/** The tus data store of each upload's region. */
class RoutingDataStore extends DataStore {
  constructor(
    private readonly main: DataStore,
    private readonly pick: (id: string) => Promise<Storage>,
    private readonly all: readonly Storage[],
  ) {
    super();
    this.extensions = main.extensions;
  }

  private async store(id: string): Promise<DataStore> {
    return (await this.pick(id)).tusStore;
  }

  override async create(upload: Upload): Promise<Upload> {
    return (await this.store(upload.id)).create(upload);
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    return (await this.store(id)).write(stream, id, offset);
  }

  override async getUpload(id: string): Promise<Upload> {
    return (await this.store(id)).getUpload(id);
  }

  override async remove(id: string): Promise<void> {
    return (await this.store(id)).remove(id);
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    return (await this.store(id)).declareUploadLength(id, length);
  }

  override async deleteExpired(): Promise<number> {
    let count = 0;
    for (const storage of this.all) count += await storage.tusStore.deleteExpired();
    return count;
  }

  override getExpiration(): number {
    return this.main.getExpiration();
  }
}
