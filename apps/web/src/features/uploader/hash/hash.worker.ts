import { createSHA256 } from 'hash-wasm';
import { hashBlob, type IncrementalHasher } from './hash-blob';
import type { HashRequest, HashResponse } from './hash-protocol';
import { Sha256 } from './sha256-fallback';

/** The worker's global scope, typed by hand: the app compiles against the DOM library, not WebWorker. */
interface WorkerScope {
  postMessage(message: HashResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HashRequest>) => void): void;
}

const scope = self as unknown as WorkerScope;
let wasmBlocked = false;

/** hash-wasm when WebAssembly may run; the plain-JS hasher when the page's CSP forbids compiling it. */
async function newHasher(): Promise<IncrementalHasher> {
  if (!wasmBlocked) {
    try {
      return await createSHA256();
    } catch {
      wasmBlocked = true;
    }
  }
  return new Sha256();
}
// Progress is posted at most this often, so a fast disk does not flood the page with messages.
const PROGRESS_INTERVAL_MS = 250;

scope.addEventListener('message', (event) => {
  const { jobId, file } = event.data;
  let lastPost = 0;
  const run = async () => {
    const hasher = await newHasher();
    const sha256 = await hashBlob(file, hasher, (hashedBytes) => {
      const now = Date.now();
      if (now - lastPost < PROGRESS_INTERVAL_MS) return;
      lastPost = now;
      scope.postMessage({ jobId, type: 'progress', hashedBytes });
    });
    scope.postMessage({ jobId, type: 'done', sha256 });
  };
  run().catch((error: unknown) => {
    scope.postMessage({
      jobId,
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  });
});
