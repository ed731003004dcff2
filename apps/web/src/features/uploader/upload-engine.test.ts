import type { TransferSummary } from '@ferry/core';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../lib/api';
import type { CompletedFile } from '../../lib/transfer-api';
import { transferSummary } from '../../test/fixtures';
import type { FileHasher } from './hash/hasher';
import {
  type EngineFile,
  type NetworkStatus,
  type TransportCallbacks,
  UploadEngine,
  type UploadTarget,
  type UploadTransport,
} from './upload-engine';

const target: UploadTarget = { transferId: 'AbCdEfGhIjKlMnOp', uploadToken: 'tok', uploadEndpoint: '/api/u' };

interface FakeUpload {
  fileId: string;
  fresh: boolean;
  callbacks: TransportCallbacks;
  started: number;
  paused: number;
  done: boolean;
}

function fakeTransport() {
  const uploads: FakeUpload[] = [];
  const transport: UploadTransport = {
    create(_target, file, callbacks, fresh) {
      const upload: FakeUpload = { fileId: file.id, fresh, callbacks, started: 0, paused: 0, done: false };
      const onSuccess = callbacks.onSuccess;
      callbacks.onSuccess = () => {
        upload.done = true;
        onSuccess();
      };
      uploads.push(upload);
      return {
        start: () => {
          upload.started++;
        },
        pause: async () => {
          upload.paused++;
        },
      };
    },
  };
  const running = () => uploads.filter((u) => u.started > u.paused && !u.done);
  const latest = (fileId: string) => [...uploads].reverse().find((u) => u.fileId === fileId) as FakeUpload;
  return { transport, uploads, running, latest };
}

/** A hasher whose results the test releases by hand. */
function fakeHasher() {
  const jobs = new Map<Blob, { resolve: (sha: string) => void; reject: (e: Error) => void }>();
  const hasher: FileHasher = {
    hash: (file) => new Promise((resolve, reject) => jobs.set(file, { resolve, reject })),
    dispose: vi.fn(),
  };
  return { hasher, jobs };
}

function fakeNetwork(online = true) {
  let listener: ((online: boolean) => void) | null = null;
  const network: NetworkStatus & { set(value: boolean): void } = {
    isOnline: () => online,
    subscribe: (l) => {
      listener = l;
      return () => {
        listener = null;
      };
    },
    set(value) {
      online = value;
      listener?.(value);
    },
  };
  return network;
}

function makeFiles(count: number, size = 100): EngineFile[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `FILE0${i}`,
    name: `f${i}.bin`,
    relativePath: null,
    size,
    file: new File(['x'.repeat(size)], `f${i}.bin`),
    uploaded: false,
  }));
}

const summary: TransferSummary = transferSummary({ transferId: target.transferId });

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(
  files: EngineFile[],
  complete = vi.fn(async (_t: UploadTarget, _f: CompletedFile[]) => summary),
) {
  const t = fakeTransport();
  const h = fakeHasher();
  const network = fakeNetwork();
  const onFinished = vi.fn();
  const engine = new UploadEngine({
    target,
    files,
    transport: t.transport,
    hasher: h.hasher,
    complete,
    network,
    concurrency: 3,
    now: () => 0,
    scheduleEmit: (emit) => emit(),
    onFinished,
  });
  return { engine, ...t, ...h, network, complete, onFinished };
}

async function finishHashes(jobs: ReturnType<typeof fakeHasher>['jobs'], files: EngineFile[]) {
  for (const f of files) jobs.get(f.file as File)?.resolve(`${f.id.toLowerCase()}`.padEnd(64, '0'));
  await flush();
}

describe('UploadEngine', () => {
  it('uploads at most three files at once and starts the next as one finishes', () => {
    const files = makeFiles(5);
    const { engine, running, latest } = setup(files);
    engine.start();
    expect(running().map((u) => u.fileId)).toEqual(['FILE00', 'FILE01', 'FILE02']);
    latest('FILE01').callbacks.onSuccess();
    expect(running().map((u) => u.fileId)).toEqual(['FILE00', 'FILE02', 'FILE03']);
    expect(engine.getSnapshot().files[1]?.status).toBe('uploaded');
  });

  it('sums progress over files', () => {
    const files = makeFiles(2, 100);
    const { engine, latest } = setup(files);
    engine.start();
    latest('FILE00').callbacks.onProgress(50);
    latest('FILE01').callbacks.onProgress(25);
    const snapshot = engine.getSnapshot();
    expect(snapshot.sentBytes).toBe(75);
    expect(snapshot.totalBytes).toBe(200);
    expect(snapshot.phase).toBe('uploading');
  });

  it('completes with every SHA-256 once all files are uploaded and hashed', async () => {
    const files = makeFiles(2);
    const { engine, latest, jobs, complete, onFinished } = setup(files);
    engine.start();
    latest('FILE00').callbacks.onSuccess();
    latest('FILE01').callbacks.onSuccess();
    // Uploaded but not hashed yet: the engine waits.
    expect(complete).not.toHaveBeenCalled();
    expect(engine.getSnapshot().phase).toBe('finishing');
    await finishHashes(jobs, files);
    expect(complete).toHaveBeenCalledOnce();
    expect(complete.mock.calls[0]?.[1]).toEqual([
      { id: 'FILE00', sha256: 'file00'.padEnd(64, '0') },
      { id: 'FILE01', sha256: 'file01'.padEnd(64, '0') },
    ]);
    await flush();
    expect(engine.getSnapshot().phase).toBe('done');
    expect(onFinished).toHaveBeenCalledWith(summary);
  });

  it('completes without a checksum for a file it could not hash', async () => {
    const files = makeFiles(1);
    const { engine, latest, jobs, complete } = setup(files);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    engine.start();
    jobs.get(files[0]?.file as File)?.reject(new Error('no wasm'));
    latest('FILE00').callbacks.onSuccess();
    await flush();
    expect(complete.mock.calls[0]?.[1]).toEqual([{ id: 'FILE00' }]);
  });

  it('pauses running uploads and resumes them', () => {
    const files = makeFiles(4);
    const { engine, uploads, running } = setup(files);
    engine.start();
    engine.pause();
    expect(running()).toEqual([]);
    expect(uploads.every((u) => u.paused === 1 || u.started === 0)).toBe(true);
    expect(engine.getSnapshot().phase).toBe('paused');
    expect(engine.getSnapshot().files.map((f) => f.status)).toEqual(['paused', 'paused', 'paused', 'queued']);
    engine.resume();
    expect(engine.getSnapshot().phase).toBe('uploading');
    expect(running().map((u) => u.fileId)).toEqual(['FILE00', 'FILE01', 'FILE02']);
  });

  it('ignores events of an upload that was paused', () => {
    const files = makeFiles(1);
    const { engine, uploads } = setup(files);
    engine.start();
    const first = uploads[0] as FakeUpload;
    engine.pause();
    first.callbacks.onSuccess();
    expect(engine.getSnapshot().files[0]?.status).toBe('paused');
  });

  it('shows retrying while tus retries, and back to uploading when bytes flow again', () => {
    const files = makeFiles(1);
    const { engine, latest } = setup(files);
    engine.start();
    latest('FILE00').callbacks.onRetry(new Error('socket closed'));
    expect(engine.getSnapshot().connection).toBe('retrying');
    expect(engine.getSnapshot().files[0]?.status).toBe('retrying');
    latest('FILE00').callbacks.onProgress(10);
    expect(engine.getSnapshot().connection).toBe('online');
  });

  it('waits offline after tus gave up and starts again when the connection is back', () => {
    const files = makeFiles(1);
    const { engine, latest, network, uploads } = setup(files);
    engine.start();
    network.set(false);
    latest('FILE00').callbacks.onError(new Error('network'));
    expect(engine.getSnapshot().connection).toBe('offline');
    expect(engine.getSnapshot().files[0]?.status).toBe('failed');
    network.set(true);
    expect(uploads).toHaveLength(2);
    expect(uploads[1]?.fresh).toBe(false);
    expect(engine.getSnapshot().files[0]?.status).toBe('uploading');
  });

  it('shows a checksum mismatch on the named file and uploads it again from scratch', async () => {
    const files = makeFiles(2);
    const mismatch = new ApiError({
      kind: 'coded',
      status: 422,
      message: 'mismatch',
      codes: ['CHECKSUM_MISMATCH'],
      details: { files: [{ id: 'FILE01', expected: 'a', actual: 'b' }] },
    });
    const complete = vi.fn<(t: UploadTarget, f: CompletedFile[]) => Promise<TransferSummary>>();
    complete.mockRejectedValueOnce(mismatch).mockResolvedValueOnce(summary);
    const { engine, latest, jobs } = setup(files, complete);
    engine.start();
    latest('FILE00').callbacks.onSuccess();
    latest('FILE01').callbacks.onSuccess();
    await finishHashes(jobs, files);
    await flush();

    const failed = engine.getSnapshot();
    expect(failed.phase).toBe('failed');
    expect(failed.files[1]?.checksumMismatch).toBe(true);
    expect(failed.files[1]?.status).toBe('failed');
    expect(failed.files[0]?.checksumMismatch).toBe(false);

    engine.retryFile('FILE01');
    const again = latest('FILE01');
    expect(again.fresh).toBe(true);
    expect(engine.getSnapshot().files[1]?.sent).toBe(0);
    again.callbacks.onSuccess();
    await finishHashes(jobs, files);
    await flush();
    expect(complete).toHaveBeenCalledTimes(2);
    expect(engine.getSnapshot().phase).toBe('done');
  });

  it('offers to try the completion again after a network failure', async () => {
    const files = makeFiles(1);
    const complete = vi.fn<(t: UploadTarget, f: CompletedFile[]) => Promise<TransferSummary>>();
    complete.mockRejectedValueOnce(new NetworkError(new TypeError('offline'))).mockResolvedValueOnce(summary);
    const { engine, latest, jobs } = setup(files, complete);
    engine.start();
    latest('FILE00').callbacks.onSuccess();
    await finishHashes(jobs, files);
    await flush();
    expect(engine.getSnapshot().phase).toBe('failed');
    expect(engine.getSnapshot().error).toBeInstanceOf(NetworkError);
    engine.retry();
    await flush();
    expect(engine.getSnapshot().phase).toBe('done');
  });

  it('resumes a transfer: files the server holds are not uploaded again', async () => {
    const files = makeFiles(2);
    const resumed: EngineFile[] = [
      { ...(files[0] as EngineFile), file: null, uploaded: true },
      files[1] as EngineFile,
    ];
    const { engine, uploads, latest, jobs, complete } = setup(resumed);
    engine.start();
    expect(uploads.map((u) => u.fileId)).toEqual(['FILE01']);
    expect(engine.getSnapshot().sentBytes).toBe(100);
    latest('FILE01').callbacks.onSuccess();
    await finishHashes(jobs, resumed);
    await flush();
    expect(complete.mock.calls[0]?.[1]).toEqual([
      { id: 'FILE00' },
      { id: 'FILE01', sha256: 'file01'.padEnd(64, '0') },
    ]);
  });

  it('stops everything on dispose', () => {
    const files = makeFiles(2);
    const { engine, uploads, hasher } = setup(files);
    engine.start();
    engine.dispose();
    expect(uploads.every((u) => u.paused === 1)).toBe(true);
    expect(hasher.dispose).toHaveBeenCalled();
  });
});
