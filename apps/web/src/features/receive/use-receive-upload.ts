import type { ReceiveReceipt, ReceiveUploadCreate } from '@ferry/core';
import { useCallback, useState } from 'react';
import { completeReceiveUpload, createReceiveUpload } from '../../lib/receive-api';
import type { PendingTransfer } from '../uploader/resume-store';
import type { SelectedFile } from '../uploader/selection';
import type { UploadEngine, UploadSnapshot } from '../uploader/upload-engine';
import {
  engineFilesOfNew,
  engineFilesOfPending,
  pairCreatedFiles,
  pendingOf,
  targetOf,
} from '../uploader/upload-plan';
import { useEngineRunner } from '../uploader/use-upload-engine';
import { clearPendingReceive, savePendingReceive } from './receive-resume';

export type ReceiveStartResult = { ok: true } | { ok: false; error: unknown };

export interface ReceiveUpload {
  engine: UploadEngine<ReceiveReceipt> | null;
  snapshot: UploadSnapshot<ReceiveReceipt> | null;
  creating: boolean;
  /** POST /receive/uploads, then the files over tus (the uploader's engine), then …/complete. */
  start(
    body: Omit<ReceiveUploadCreate, 'files'>,
    files: readonly SelectedFile[],
  ): Promise<ReceiveStartResult>;
  /** Continues the saved upload of an earlier visit with the re-added files. */
  resume(
    pending: PendingTransfer,
    attached: ReadonlyMap<string, { file: File }>,
    uploadedIds: ReadonlySet<string>,
  ): void;
  cancel(): void;
  release(): void;
}

/**
 * An upload into a receive point (S3): the same engine as the uploader (tus, resumable, SHA-256 in a worker,
 * speed and time left), created and completed through the receive calls, saved for a resume after a reload
 * under this page's `point` key.
 */
export function useReceiveUpload(
  point: string,
  onFinished: (receipt: ReceiveReceipt) => void,
): ReceiveUpload {
  const [creating, setCreating] = useState(false);
  const runner = useEngineRunner<ReceiveReceipt>({
    complete: (t, files) => completeReceiveUpload(t.transferId, t.uploadToken, files),
    onFinished: (receipt, target) => {
      clearPendingReceive(target.transferId);
      onFinished(receipt);
    },
  });
  const { launch, release } = runner;

  const start = useCallback(
    async (body: Omit<ReceiveUploadCreate, 'files'>, files: readonly SelectedFile[]) => {
      setCreating(true);
      try {
        const response = await createReceiveUpload({
          ...body,
          files: files.map((f) => ({
            name: f.name,
            size: f.size,
            ...(f.relativePath ? { relativePath: f.relativePath } : {}),
          })),
        });
        const pairs = pairCreatedFiles(files, response.files);
        // A received upload has no link of its own (its files are the owner's): the page's address stands in;
        // whether it can still be resumed is the server's word (GET /receive/uploads/{id}).
        savePendingReceive(
          point,
          pendingOf({ ...response, link: window.location.pathname, expiresAt: '' }, pairs),
        );
        launch(targetOf(response), engineFilesOfNew(pairs));
        return { ok: true } as const;
      } catch (error) {
        return { ok: false, error } as const;
      } finally {
        setCreating(false);
      }
    },
    [launch, point],
  );

  const resume = useCallback(
    (
      pending: PendingTransfer,
      attached: ReadonlyMap<string, { file: File }>,
      uploadedIds: ReadonlySet<string>,
    ) => launch(targetOf(pending), engineFilesOfPending(pending, attached, uploadedIds)),
    [launch],
  );

  const engine = runner.engine;
  const cancel = useCallback(() => {
    const transferId = engine?.transferId;
    release();
    if (transferId) clearPendingReceive(transferId);
  }, [engine, release]);

  return { engine, snapshot: runner.snapshot, creating, start, resume, cancel, release };
}
