import type { TransferCreateRequest, TransferCreateResponse, TransferSummary } from '@ferry/core';
import { useCallback, useState } from 'react';
import { completeTransfer, createTransfer } from '../../lib/transfer-api';
import {
  clearPending,
  finishPendingUpload,
  type PendingTransfer,
  type PendingVerification,
  savePending,
} from './resume-store';
import type { SelectedFile } from './selection';
import type { UploadEngine, UploadSnapshot, UploadTarget } from './upload-engine';
import { engineFilesOfNew, engineFilesOfPending, pairCreatedFiles, pendingOf, targetOf } from './upload-plan';
import { useEngineRunner } from './use-upload-engine';

/** Without an answer from the server, the rule of the contract: one code per 60 s. */
export const DEFAULT_RESEND_WAIT_SECONDS = 60;

/** What the saved record keeps of how the transfer is sent and whether it waits for the sender's code. */
export function verificationOf(
  request: TransferCreateRequest,
  response: Pick<TransferCreateResponse, 'senderVerification'>,
  now = new Date(),
): PendingVerification {
  return {
    type: request.type === 'S1' ? 'S1' : 'S2',
    senderEmail: request.senderEmail ?? '',
    recipients: [...(request.recipients ?? [])],
    state: response.senderVerification,
    codeSentAt: now.toISOString(),
    resendAfterSeconds: DEFAULT_RESEND_WAIT_SECONDS,
    uploaded: false,
  };
}

export type StartResult =
  | { ok: true; target: UploadTarget; verification: PendingVerification }
  | { ok: false; error: unknown };

export interface UploadFlow {
  engine: UploadEngine | null;
  snapshot: UploadSnapshot | null;
  creating: boolean;
  /** Creates the transfer on the server, then uploads; resolves with where it uploads, or the error. */
  start(request: TransferCreateRequest, files: readonly SelectedFile[]): Promise<StartResult>;
  /** Continues an unfinished transfer with the re-added files. */
  resume(
    pending: PendingTransfer,
    attached: ReadonlyMap<string, { file: File }>,
    uploadedIds: ReadonlySet<string>,
  ): void;
  /** Stops uploading and forgets the unfinished transfer. */
  cancel(): void;
  /** Lets go of a finished upload (send another). */
  release(): void;
}

/** The upload of the page: creation, the engine, its snapshots, the speed tick and leave-page protection. */
export function useUploadFlow(onFinished: (summary: TransferSummary) => void): UploadFlow {
  const [creating, setCreating] = useState(false);
  const runner = useEngineRunner<TransferSummary>({
    complete: (t, completed) => completeTransfer(t.transferId, t.uploadToken, completed),
    onFinished: (summary, target) => {
      finishPendingUpload(target.transferId);
      onFinished(summary);
    },
  });
  const { launch, release } = runner;

  const start = useCallback(
    async (request: TransferCreateRequest, files: readonly SelectedFile[]): Promise<StartResult> => {
      setCreating(true);
      try {
        const response = await createTransfer(request);
        const pairs = pairCreatedFiles(files, response.files);
        const verification = verificationOf(request, response);
        savePending({ ...pendingOf(response, pairs), verification });
        const target = targetOf(response);
        launch(target, engineFilesOfNew(pairs));
        return { ok: true, target, verification };
      } catch (error) {
        return { ok: false, error };
      } finally {
        setCreating(false);
      }
    },
    [launch],
  );

  const resume = useCallback(
    (
      pending: PendingTransfer,
      attached: ReadonlyMap<string, { file: File }>,
      uploadedIds: ReadonlySet<string>,
    ) => {
      launch(targetOf(pending), engineFilesOfPending(pending, attached, uploadedIds));
    },
    [launch],
  );

  const engine = runner.engine;
  const cancel = useCallback(() => {
    const transferId = engine?.transferId;
    release();
    if (transferId) clearPending(transferId);
  }, [engine, release]);

  return { engine, snapshot: runner.snapshot, creating, start, resume, cancel, release };
}
