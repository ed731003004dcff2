import type { DetailedError, Upload } from 'tus-js-client';
import { NetworkError, parseApiError } from '../../lib/api';
import { browserStore } from '../../lib/storage';
import { tusFingerprint } from './resume-store';
import type {
  EngineFile,
  TransportCallbacks,
  TransportUpload,
  UploadTarget,
  UploadTransport,
} from './upload-engine';

/** Bytes per PATCH request: big enough for speed, small enough that a dropped request loses little. */
export const TUS_CHUNK_BYTES = 50 * 1024 * 1024;
/** Waits between attempts after a failed request (ms); after the last one the file is reported failed. */
export const TUS_RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000];

/**
 * Whether tus should try a failed request again: lost connections (no response), server errors, and the
 * statuses that say "come back" (423 locked, 429 rate limited, and 409 offset conflict on PATCH/HEAD, where
 * tus re-reads the offset). A 409 to a creation POST is a real conflict and is not retried. Unlike tus's
 * default, it also retries while the browser says it is offline, so a short outage does not fail the file.
 */
export function isRetryableUploadError(
  error: Pick<DetailedError, 'originalResponse' | 'originalRequest'>,
): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  if (status === 409) return error.originalRequest?.getMethod() !== 'POST';
  return status === 0 || status >= 500 || status === 423 || status === 429;
}

/** tus's error as the app's: the server's spec §8 body when it answered, a NetworkError when it did not. */
export function toAppError(error: Error | DetailedError): Error {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (response)
    return parseApiError(
      response.getStatus(),
      response.getBody() ?? '',
      response.getHeader('Retry-After') ?? null,
    );
  if ('originalRequest' in error && error.originalRequest) return new NetworkError(error);
  return error;
}

function forgetStoredUploads(fingerprint: string): void {
  const store = browserStore() as Storage | null;
  if (!store) return;
  try {
    const prefix = `tus::${fingerprint}::`;
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  } catch {
    // Storage unavailable: nothing was stored either.
  }
}

/** The app's transport: one tus upload per file, resumable across reloads through tus's URL storage. */
export function createTusTransport(): UploadTransport {
  return {
    create(
      target: UploadTarget,
      file: EngineFile & { file: File },
      callbacks: TransportCallbacks,
      fresh: boolean,
    ) {
      // The fingerprint names the transfer and the file id, so the same file sent in another transfer never
      // resumes this transfer's upload.
      const fingerprint = tusFingerprint(target.transferId, file.id, file.size);
      // tus-js-client is fetched with the first upload, not with the page that offers to upload.
      const build = () =>
        import('tus-js-client').then(
          ({ Upload: TusUpload }) =>
            new TusUpload(file.file, {
              endpoint: new URL(target.uploadEndpoint, window.location.href).href,
              headers: { 'X-Upload-Token': target.uploadToken },
              metadata: { transferId: target.transferId, fileId: file.id, filename: file.name },
              uploadSize: file.size,
              chunkSize: TUS_CHUNK_BYTES,
              retryDelays: TUS_RETRY_DELAYS,
              storeFingerprintForResuming: true,
              removeFingerprintOnSuccess: true,
              fingerprint: () => Promise.resolve(fingerprint),
              onProgress: (bytesSent) => callbacks.onProgress(bytesSent),
              onSuccess: () => callbacks.onSuccess(),
              onError: (error) => callbacks.onError(toAppError(error)),
              onShouldRetry: (error) => {
                const retry = isRetryableUploadError(error);
                if (retry) callbacks.onRetry(error);
                return retry;
              },
            }),
        );
      let upload: Upload | null = null;
      let state: 'idle' | 'preparing' | 'running' | 'paused' = 'idle';
      let preparation: Promise<void> | null = null;
      const prepare = async () => {
        upload = await build();
        if (fresh) {
          forgetStoredUploads(fingerprint);
          return;
        }
        const previous = await upload.findPreviousUploads().catch(() => []);
        const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (latest) upload.resumeFromPreviousUpload(latest);
      };
      const handle: TransportUpload = {
        start() {
          if (state === 'running' || state === 'preparing') return;
          if (upload?.url) {
            state = 'running';
            upload.start();
            return;
          }
          state = 'preparing';
          preparation ??= prepare();
          preparation.then(
            () => {
              if (state !== 'preparing' || !upload) return;
              state = 'running';
              upload.start();
            },
            (error: unknown) => {
              // tus's code could not be fetched (offline): the file fails as a lost connection does, and a
              // retry fetches it again.
              preparation = null;
              if (state !== 'preparing') return;
              state = 'idle';
              callbacks.onError(new NetworkError(error));
            },
          );
        },
        pause() {
          const wasRunning = state === 'running';
          state = 'paused';
          return wasRunning && upload ? upload.abort(false) : Promise.resolve();
        },
      };
      return handle;
    },
  };
}
