import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { CompletedFile } from '../../lib/transfer-api';
import type { EngineFile, UploadEngine, UploadSnapshot, UploadTarget } from './upload-engine';

/**
 * The engine and what it runs on (tus, the hashing worker): a chunk fetched with the first upload, not with the
 * page that offers one.
 */
function loadEngine() {
  return Promise.all([import('./upload-engine'), import('./tus-transport'), import('./hash/hasher')]).then(
    ([engine, tus, hasher]) => ({
      UploadEngine: engine.UploadEngine,
      createTusTransport: tus.createTusTransport,
      createWorkerHasher: hasher.createWorkerHasher,
    }),
  );
}

/** What the page's upload engine is told at its two ends: how to complete, and who hears of the result. */
export interface EngineCallbacks<S> {
  /** The completion call of this kind of upload (a transfer's, a receive upload's). */
  complete(target: UploadTarget, files: CompletedFile[]): Promise<S>;
  onFinished(summary: S, target: UploadTarget): void;
}

export interface EngineRunner<S> {
  engine: UploadEngine<S> | null;
  snapshot: UploadSnapshot<S> | null;
  /**
   * Starts uploading `files` to `target` (tus, hashed in a worker), replacing any earlier engine, once the
   * engine's chunk is there (at once after the first time).
   */
  launch(target: UploadTarget, files: EngineFile[]): void;
  /** Stops the engine (tus keeps what was sent) and forgets it. */
  release(): void;
}

const noSubscription = () => () => undefined;
const noSnapshot = () => null;

/**
 * One upload engine for a page: built with the app's tus transport and worker hasher, its snapshots as React
 * state, the speed tick, leave-page protection while it runs, and disposal when the page goes. Shared by the
 * uploader (S1/S2) and the receive pages (S3), which differ only in how they create and complete.
 */
export function useEngineRunner<S>(callbacks: EngineCallbacks<S>): EngineRunner<S> {
  const [engine, setEngine] = useState<UploadEngine<S> | null>(null);
  const callbacksRef = useRef(callbacks);
  callbacksRef.current = callbacks;
  const engineRef = useRef<UploadEngine<S> | null>(null);
  engineRef.current = engine;
  const snapshot = useSyncExternalStore<UploadSnapshot<S> | null>(
    engine?.subscribe ?? noSubscription,
    engine?.getSnapshot ?? noSnapshot,
    engine?.getSnapshot ?? noSnapshot,
  );

  // Each launch and release counts: an engine whose chunk arrives after a newer launch or a release is not made.
  const launches = useRef(0);
  // A chunk that could not be fetched fails the page as a lazy page would (the route's error element).
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  if (failure) throw failure.error;

  const launch = useCallback((target: UploadTarget, files: EngineFile[]) => {
    const ticket = ++launches.current;
    loadEngine().then(
      ({ UploadEngine, createTusTransport, createWorkerHasher }) => {
        if (ticket !== launches.current) return;
        const next = new UploadEngine<S>({
          target,
          files,
          transport: createTusTransport(),
          hasher: typeof Worker === 'undefined' ? null : createWorkerHasher(),
          complete: (t, completed) => callbacksRef.current.complete(t, completed),
          onFinished: (summary) => callbacksRef.current.onFinished(summary, target),
        });
        setEngine(next);
        next.start();
      },
      (error: unknown) => {
        if (ticket === launches.current) setFailure({ error });
      },
    );
  }, []);

  const release = useCallback(() => {
    launches.current++;
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

  return { engine, snapshot, launch, release };
}
