import type { TransferCreateResponse, TransferFile } from '@ferry/core';
import type { PendingTransfer } from './resume-store';
import type { SelectedFile } from './selection';
import type { EngineFile, UploadTarget } from './upload-engine';

function sameFile(selected: SelectedFile, created: TransferFile): boolean {
  return (
    selected.name === created.name &&
    selected.size === created.size &&
    (selected.relativePath ?? null) === (created.relativePath ?? null)
  );
}

/**
 * Pairs the chosen files with the ids the server gave them. The server answers in request order; if it does
 * not, files are matched by name, size and path instead. Throws when a file has no counterpart.
 */
export function pairCreatedFiles(
  selected: readonly SelectedFile[],
  created: readonly TransferFile[],
): Array<{ selected: SelectedFile; created: TransferFile }> {
  if (selected.length === created.length && selected.every((s, i) => created[i] && sameFile(s, created[i]))) {
    return selected.map((s, i) => ({ selected: s, created: created[i] as TransferFile }));
  }
  const unused = [...created];
  return selected.map((s) => {
    const index = unused.findIndex((c) => sameFile(s, c));
    if (index < 0) throw new Error(`the server did not list ${s.relativePath ?? s.name}`);
    const [match] = unused.splice(index, 1);
    return { selected: s, created: match as TransferFile };
  });
}

export function targetOf(
  source: Pick<TransferCreateResponse, 'transferId' | 'uploadToken' | 'uploadEndpoint'>,
): UploadTarget {
  return {
    transferId: source.transferId,
    uploadToken: source.uploadToken,
    uploadEndpoint: source.uploadEndpoint,
  };
}

/** What is saved so that this upload can be resumed after a reload (never the file bodies). */
export function pendingOf(
  response: Pick<
    TransferCreateResponse,
    'transferId' | 'uploadToken' | 'uploadEndpoint' | 'link' | 'expiresAt'
  >,
  pairs: ReturnType<typeof pairCreatedFiles>,
  now = new Date(),
): PendingTransfer {
  return {
    ...targetOf(response),
    link: response.link,
    expiresAt: response.expiresAt,
    createdAt: now.toISOString(),
    files: pairs.map(({ selected, created }) => ({
      id: created.id,
      name: selected.name,
      size: selected.size,
      relativePath: selected.relativePath,
      lastModified: selected.file.lastModified,
    })),
  };
}

export function engineFilesOfNew(pairs: ReturnType<typeof pairCreatedFiles>): EngineFile[] {
  return pairs.map(({ selected, created }) => ({
    id: created.id,
    name: selected.name,
    relativePath: selected.relativePath,
    size: selected.size,
    file: selected.file,
    uploaded: created.uploaded,
  }));
}

/** Engine files of a resumed transfer: re-added files where found, the server's word on what is complete. */
export function engineFilesOfPending(
  pending: PendingTransfer,
  attached: ReadonlyMap<string, { file: File }>,
  uploadedIds: ReadonlySet<string>,
): EngineFile[] {
  return pending.files.map((f) => ({
    id: f.id,
    name: f.name,
    relativePath: f.relativePath,
    size: f.size,
    file: attached.get(f.id)?.file ?? null,
    uploaded: uploadedIds.has(f.id),
  }));
}
