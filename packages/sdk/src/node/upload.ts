import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ClientRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { DefaultHttpStack, type DetailedError, defaultOptions, type HttpStack, Upload } from 'tus-js-client';
import { parseErrorBody } from '../errors.js';
import { retryDelaysFor } from '../retry.js';

type UploadOptions = ConstructorParameters<typeof Upload>[1];
type TusFileReader = NonNullable<UploadOptions['fileReader']>;
type TusFileSource = Awaited<ReturnType<TusFileReader['openFile']>>;

/** 64 MiB: one PATCH request per chunk; each chunk is streamed from disk, never held in memory. */
export const DEFAULT_CHUNK_SIZE = 64 * 1024 * 1024;

/** Options of {@link uploadFileFromDisk}. */
export interface UploadFileOptions {
  /** The file on disk; it is streamed chunk by chunk, never read whole. */
  path: string;
  /** The tus creation endpoint (absolute URL), e.g. `https://host/api/transfer/uploads`. */
  endpoint: string;
  transferId: string;
  fileId: string;
  /** The transfer's upload token (header `X-Upload-Token` on every tus request). */
  uploadToken: string;
  /**
   * The upload URL of an earlier attempt (another process, before a server restart…): tus asks it for its
   * offset (HEAD) and continues from there. When the server no longer knows it, a new upload is created.
   */
  uploadUrl?: string | null;
  chunkSize?: number;
  /** Waits (ms) between tries after a failure; by default about 60 s in all, so a server restart is survived. */
  retryDelays?: number[];
  /** A request that neither sends nor receives a byte for this long (ms) is broken off and retried. */
  idleTimeoutMs?: number;
  /** Bytes sent so far (may go back after a retry) and the file's size. */
  onProgress?: (bytesSent: number, bytesTotal: number) => void;
  /** Called as soon as the upload has a URL, before any byte is sent: persist it to resume later. */
  onUploadUrl?: (uploadUrl: string) => void;
  /** Called before each retry, with the wait before it. */
  onRetry?: (error: Error, attempt: number, delayMs: number) => void;
  signal?: AbortSignal;
}

/** What a finished upload returns. */
export interface UploadFileResult {
  uploadUrl: string;
  size: number;
  /** `Upload-Sha256` of the response that completed the upload; null when the upload was already complete. */
  serverSha256: string | null;
}

/** Node's tus HTTP stack, plus an idle timeout so a server that hangs (rather than dies) is retried too. */
class IdleTimeoutHttpStack implements HttpStack {
  private readonly inner = new DefaultHttpStack({});
  constructor(private readonly idleTimeoutMs: number) {}

  createRequest(method: string, url: string) {
    const request = this.inner.createRequest(method, url);
    const send = request.send.bind(request);
    const idleTimeoutMs = this.idleTimeoutMs;
    request.send = (body: unknown) => {
      const sending = send(body);
      // The Node stack creates its http.ClientRequest synchronously inside send().
      const raw = request.getUnderlyingObject() as ClientRequest | null;
      raw?.setTimeout(idleTimeoutMs, () => {
        raw.destroy(new Error(`no answer from the server for ${Math.round(idleTimeoutMs / 1000)} s`));
      });
      return sending;
    };
    return request;
  }

  getName(): string {
    return 'FerryNodeHttpStack';
  }
}

/**
 * tus-js-client's Node file reader opens a fresh `fs.ReadStream` at the right offset for every chunk (that is
 * how it resumes from the server's offset without reading the start again). A chunk whose request breaks off
 * would keep its descriptor open, so this wrapper closes the previous chunk's stream first.
 */
class ClosingFileReader implements TusFileReader {
  async openFile(input: unknown, chunkSize: number): Promise<TusFileSource> {
    const source = await defaultOptions.fileReader.openFile(input, chunkSize);
    let current: Readable | null = null;
    return {
      size: source.size,
      async slice(start: number, end: number) {
        current?.destroy();
        const result = await source.slice(start, end);
        current = result.value as Readable;
        return result;
      },
      close() {
        current?.destroy();
        source.close();
      },
    };
  }
}

function statusOf(error: DetailedError): number {
  return error.originalResponse?.getStatus() ?? 0;
}

/** Network failures, timeouts, 5xx, 409 (offset conflict), 423 (locked) and 429 are worth another try. */
export function shouldRetryUpload(status: number): boolean {
  return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
}

/** Turns a tus error into a FerryApiError when the server answered with a Ferry error body. */
function toFerryError(error: Error | DetailedError): Error {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return error;
  const status = response.getStatus();
  if (status < 400) return error;
  const parsed = parseErrorBody(status, response.getBody() ?? '', {
    get: (name) => response.getHeader(name) ?? null,
  });
  return parsed;
}

/**
 * Uploads one file of a transfer with the tus protocol, streaming it from disk. With `uploadUrl` it resumes
 * at the server's offset (tus HEAD); within one call it retries for about a minute after network errors.
 */
export async function uploadFileFromDisk(options: UploadFileOptions): Promise<UploadFileResult> {
  const { size } = await stat(options.path);
  const stream: ReadStream = createReadStream(options.path);
  const retryDelays = options.retryDelays ?? retryDelaysFor(60_000);
  return new Promise<UploadFileResult>((resolve, reject) => {
    let upload: Upload | undefined;
    let settled = false;
    const finish = (error: Error | null, result?: UploadFileResult) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      stream.destroy();
      if (error) reject(error);
      else resolve(result as UploadFileResult);
    };
    const onAbort = () => {
      void upload?.abort(false);
      finish(options.signal?.reason instanceof Error ? options.signal.reason : new Error('upload aborted'));
    };
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    upload = new Upload(stream, {
      endpoint: options.endpoint,
      uploadUrl: options.uploadUrl ?? null,
      uploadSize: size,
      chunkSize: options.chunkSize ?? DEFAULT_CHUNK_SIZE,
      retryDelays,
      metadata: { transferId: options.transferId, fileId: options.fileId },
      headers: { 'X-Upload-Token': options.uploadToken },
      // The caller keeps its own journal of upload URLs (see the CLI); tus's URL storage stays off.
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: false,
      httpStack: new IdleTimeoutHttpStack(options.idleTimeoutMs ?? 10 * 60_000),
      fileReader: new ClosingFileReader(),
      onShouldRetry(error, attempt) {
        if (!shouldRetryUpload(statusOf(error))) return false;
        options.onRetry?.(error, attempt + 1, retryDelays[attempt] ?? 0);
        return true;
      },
      onUploadUrlAvailable() {
        if (upload?.url) options.onUploadUrl?.(upload.url);
      },
      onProgress(bytesSent, bytesTotal) {
        options.onProgress?.(bytesSent, bytesTotal);
      },
      onSuccess({ lastResponse }) {
        const sha = lastResponse.getHeader('Upload-Sha256');
        finish(null, { uploadUrl: upload?.url ?? '', size, serverSha256: sha ? sha.toLowerCase() : null });
      },
      onError(error) {
        finish(toFerryError(error));
      },
    });
    upload.start();
  });
}
