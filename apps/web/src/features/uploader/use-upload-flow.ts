import type { TransferCreateRequest, TransferCreateResponse, TransferSummary } from '@ferry/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { completeTransfer, createTransfer } from '../../lib/transfer-api';
import { createWorkerHasher } from './hash/hasher';
import {
  clearPending,
  finishPendingUpload,
  type PendingTransfer,
  type PendingVerification,
  savePending,
} from './resume-store';
import type { SelectedFile } from './selection';
import { createTusTransport } from './tus-transport';
import { type EngineFile, UploadEngine, type UploadSnapshot, type UploadTarget } from './upload-engine';
import { engineFilesOfNew, engineFilesOfPending, pairCreatedFiles, pendingOf, targetOf } from './upload-plan';

function buildEngine(target: UploadTarget, files: EngineFile[], onFinished: (s: TransferSummary) => void) {
  return new UploadEngine({
    target,
    files,
    transport: createTusTransport(),
    hasher: typeof Worker === 'undefined' ? null : createWorkerHasher(),
    complete: (t, completed) => completeTransfer(t.transferId, t.uploadToken, completed),
    onFinished: (summary) => {
      finishPendingUpload(target.transferId);
      onFinished(summary);
    },
  });
}

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

const noSubscription = () => () => undefined;
const noSnapshot = () => null;

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
  const [engine, setEngine] = useState<UploadEngine | null>(null);
  const [creating, setCreating] = useState(false);
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  const engineRef = useRef<UploadEngine | null>(null);
  engineRef.current = engine;
  const snapshot = useSyncExternalStore(
    engine?.subscribe ?? noSubscription,
    engine?.getSnapshot ?? noSnapshot,
    engine?.getSnapshot ?? noSnapshot,
  );

  const launch = useCallback((target: UploadTarget, files: EngineFile[]) => {
    const next = buildEngine(target, files, (summary) => finishedRef.current(summary));
    setEngine(next);
    next.start();
  }, []);

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

  const cancel = useCallback(() => {
    const current = engineRef.current;
    if (current) {
      current.dispose();
      clearPending(current.transferId);
    }
    setEngine(null);
  }, []);

  const release = useCallback(() => {
    engineRef.current?.dispose();
    setEngine(null);
  }, []);

  // Speed and time left keep moving (down, during a stall) even when no progress event arrives.
  useEffect(() => {
    if (!engine) return;
    const timer = setInterval(() => engine.tick(), 1000);
    return () => clearInterval(timer);
  }, [engine]);

  // Leaving mid-upload asks first; what was sent is kept and resumes when the same files are added again.
  const busy = snapshot !== null && snapshot.phase !== 'done';
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  useEffect(() => () => engine?.dispose(), [engine]);

  return { engine, snapshot, creating, start, resume, cancel, release };
}
