import type { TransferCreateRequest, TransferSummary } from '@ferry/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { completeTransfer, createTransfer } from '../../lib/transfer-api';
import { createWorkerHasher } from './hash/hasher';
import { clearPending, type PendingTransfer, savePending } from './resume-store';
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
      clearPending(target.transferId);
      onFinished(summary);
    },
  });
}

const noSubscription = () => () => undefined;
const noSnapshot = () => null;

export interface UploadFlow {
  engine: UploadEngine | null;
  snapshot: UploadSnapshot | null;
  creating: boolean;
  /** Creates the transfer on the server, then uploads; resolves with the error if creation failed. */
  start(request: TransferCreateRequest, files: readonly SelectedFile[]): Promise<unknown>;
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
    async (request: TransferCreateRequest, files: readonly SelectedFile[]) => {
      setCreating(true);
      try {
        const response = await createTransfer(request);
        const pairs = pairCreatedFiles(files, response.files);
        savePending(pendingOf(response, pairs));
        launch(targetOf(response), engineFilesOfNew(pairs));
        return null;
      } catch (error) {
        return error;
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
