import type { HashRequest, HashResponse } from './hash-protocol';

/** Computes SHA-256 of files off the main thread. */
export interface FileHasher {
  hash(file: Blob, onProgress?: (hashedBytes: number) => void): Promise<string>;
  dispose(): void;
}

interface Job {
  jobId: number;
  file: Blob;
  onProgress?: (hashedBytes: number) => void;
  resolve(sha256: string): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

function createHashWorker(): Worker {
  return new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module', name: 'ferry-sha256' });
}

/**
 * A small pool of hashing workers (each reads its file in 8 MiB slices), so hashing runs beside the uploads
 * without competing with the page. Jobs wait in order for a free worker.
 */
export function createWorkerHasher(size = defaultPoolSize(), makeWorker = createHashWorker): FileHasher {
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 1;

  function finish(slot: Slot): void {
    slot.job = null;
    pump();
  }

  function attach(slot: Slot): void {
    slot.worker.addEventListener('message', (event: MessageEvent<HashResponse>) => {
      const job = slot.job;
      const message = event.data;
      if (!job || job.jobId !== message.jobId) return;
      if (message.type === 'progress') job.onProgress?.(message.hashedBytes);
      else if (message.type === 'done') {
        job.resolve(message.sha256);
        finish(slot);
      } else {
        job.reject(new Error(message.message));
        finish(slot);
      }
    });
    slot.worker.addEventListener('error', (event) => {
      const job = slot.job;
      if (!job) return;
      event.preventDefault();
      job.reject(new Error(event.message || 'hash worker failed'));
      slot.worker.terminate();
      slot.worker = makeWorker();
      attach(slot);
      finish(slot);
    });
  }

  function pump(): void {
    for (;;) {
      if (queue.length === 0) return;
      let slot = slots.find((s) => s.job === null);
      if (!slot && slots.length < size) {
        try {
          slot = { worker: makeWorker(), job: null };
        } catch (error) {
          for (const job of queue.splice(0))
            job.reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        slots.push(slot);
        attach(slot);
      }
      if (!slot) return;
      const job = queue.shift();
      if (!job) return;
      slot.job = job;
      const request: HashRequest = { jobId: job.jobId, file: job.file };
      slot.worker.postMessage(request);
    }
  }

  return {
    hash(file, onProgress) {
      return new Promise<string>((resolve, reject) => {
        queue.push({ jobId: nextId++, file, onProgress, resolve, reject });
        pump();
      });
    },
    dispose() {
      for (const job of queue.splice(0)) job.reject(new Error('hashing cancelled'));
      for (const slot of slots.splice(0)) {
        slot.job?.reject(new Error('hashing cancelled'));
        slot.worker.terminate();
      }
    },
  };
}

function defaultPoolSize(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(2, cores - 1));
}
