import {
  CheckPasswordResponse,
  DownloadInfo,
  DownloadLinkResponse,
  type TransferCompleteRequest,
  type TransferCreateRequest,
  TransferCreateResponse,
  TransferSummary,
} from '@ferry/core';
import type { z } from 'zod';
import { FerryApiError, FerryProtocolError, parseErrorBody } from './errors.js';
import { type DownloadOptions, type DownloadResult, downloadToFile } from './node/download.js';
import { type UploadFileOptions, type UploadFileResult, uploadFileFromDisk } from './node/upload.js';
import { backoffDelay, isConnectionRefused, isNetworkError, sleep } from './retry.js';

/** Options of a {@link FerryClient}. */
export interface FerryClientOptions {
  /** The server's origin (plus its base path, if it is served under one), e.g. `https://ferry.example.com`. */
  server: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /**
   * How long (ms) to keep retrying while the server cannot be reached, e.g. during a restart. Only requests
   * that are safe to repeat are retried (reads, or any request the server refused to connect). Default 60 s.
   */
  retryForMs?: number;
  /** Called before each retry, e.g. to tell the user the server is unreachable. */
  onRetry?: (info: RetryInfo) => void;
  /** Headers sent with every API request (not with tus uploads or blob downloads). */
  headers?: Record<string, string>;
}

/** What a retry is about. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  error: unknown;
  what: string;
}

/** Query of `GET /transfer/downloads/link`; each field is sent only when set (spec §7). */
export interface DownloadLinkParams {
  transferId: string;
  fileId?: string;
  password?: string;
  preview?: boolean;
  userSecret?: string;
  downloaderEmail?: string;
  browserCode?: string;
  orderId?: string;
}

type Query = Record<string, string | boolean | undefined>;

interface RequestOptions<S extends z.ZodType> {
  schema: S;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** Safe to send twice (a read); otherwise it is re-sent only when the connection was refused. */
  idempotent: boolean;
}

/** Normalises a server address to `protocol://host[:port][/base]`, without a trailing slash. */
export function normalizeServerUrl(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`not a server URL: ${server}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) URL: ${server}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Typed client of the Ferry HTTP API (docs/api.md). All paths are under `{server}/api`. */
export class FerryClient {
  /** The normalised server address (no trailing slash). */
  readonly server: string;
  private readonly fetchImpl: typeof fetch;
  private readonly retryForMs: number;
  private readonly onRetry: ((info: RetryInfo) => void) | undefined;
  private readonly headers: Record<string, string>;

  constructor(options: FerryClientOptions) {
    this.server = normalizeServerUrl(options.server);
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.retryForMs = options.retryForMs ?? 60_000;
    this.onRetry = options.onRetry;
    this.headers = { accept: 'application/json', ...options.headers };
  }

  /** Resolves a URL the server returned (maybe relative, like `/api/transfer/uploads`) against the server. */
  resolve(url: string): string {
    return new URL(url, `${this.server}/`).toString();
  }

  /** `POST /transfer/transfers`: creates a transfer and returns its upload token (shown once). */
  createTransfer(request: TransferCreateRequest): Promise<TransferCreateResponse> {
    return this.request('POST', '/transfer/transfers', {
      schema: TransferCreateResponse,
      body: { ...request, type: request.type ?? 'S2' },
      idempotent: false,
    });
  }

  /** `GET /transfer/transfers/{id}/upload-state`: which files are uploaded, to resume. */
  getUploadState(transferId: string, uploadToken: string): Promise<TransferSummary> {
    return this.request('GET', `/transfer/transfers/${encodeURIComponent(transferId)}/upload-state`, {
      schema: TransferSummary,
      headers: { 'x-upload-token': uploadToken },
      idempotent: true,
    });
  }

  /** `POST /transfer/transfers/{id}/complete` with the client's SHA-256 of each file; a mismatch answers 422. */
  completeTransfer(
    transferId: string,
    uploadToken: string,
    files: TransferCompleteRequest['files'],
  ): Promise<TransferSummary> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/complete`, {
      schema: TransferSummary,
      headers: { 'x-upload-token': uploadToken },
      body: { files },
      idempotent: false,
    });
  }

  /** Uploads one file of a transfer from disk with tus, resuming from `uploadUrl` when given. Node only. */
  uploadFile(options: Omit<UploadFileOptions, 'endpoint'> & { endpoint: string }): Promise<UploadFileResult> {
    return uploadFileFromDisk({ ...options, endpoint: this.resolve(options.endpoint) });
  }

  /** `GET /transfer/downloads/info`: what a recipient sees; files are withheld while `locked`. */
  getDownloadInfo(
    transferId: string,
    options: { password?: string; userSecret?: string } = {},
  ): Promise<DownloadInfo> {
    return this.request('GET', '/transfer/downloads/info', {
      schema: DownloadInfo,
      query: { transferId, password: options.password, userSecret: options.userSecret },
      idempotent: true,
    });
  }

  /**
   * `POST /transfer/downloads/check-password`: resolves when the password is right. As spec §8 says, 429 is
   * "rate limited" and any other refusal means a wrong password (code `WRONG_PASSWORD`).
   */
  async checkPassword(transferId: string, password: string): Promise<true> {
    try {
      await this.request('POST', '/transfer/downloads/check-password', {
        schema: CheckPasswordResponse,
        body: { transferId, password },
        idempotent: false, // each try counts against the rate limit
      });
      return true;
    } catch (error) {
      if (!(error instanceof FerryApiError) || error.status >= 500 || error.codes.length > 0) throw error;
      const rateLimited = error.status === 429;
      throw new FerryApiError({
        kind: 'coded',
        status: error.status,
        message: rateLimited ? 'too many password attempts' : 'wrong password',
        codes: [rateLimited ? 'RATE_LIMITED' : 'WRONG_PASSWORD'],
        retryAfterSeconds: error.retryAfterSeconds,
      });
    }
  }

  /**
   * `GET /transfer/downloads/link`: a short-lived URL for one file, or for the whole transfer as a ZIP when
   * `fileId` is absent. Each call counts as one download against `maxDownloads` (previews do not), except that
   * calls sharing a `browserCode` (one visit, one CLI run) count once together.
   */
  getDownloadLink(params: DownloadLinkParams): Promise<DownloadLinkResponse> {
    const { preview, ...rest } = params;
    return this.request('GET', '/transfer/downloads/link', {
      schema: DownloadLinkResponse,
      query: { ...rest, preview: preview === true ? true : undefined },
      // Not repeated after an unclear failure: a second call may count a second download.
      idempotent: false,
    });
  }

  /** Streams a download URL to disk, resuming a partial file with Range and checking its SHA-256. Node only. */
  download(options: Omit<DownloadOptions, 'fetch'>): Promise<DownloadResult> {
    return downloadToFile({
      retryForMs: this.retryForMs,
      ...options,
      url: this.resolve(options.url),
      fetch: this.fetchImpl,
    });
  }

  /** The URL of an API path with its query (undefined values and `false` left out). */
  apiUrl(path: string, query: Query = {}): string {
    const url = new URL(`${this.server}/api${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === false) continue;
      url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async request<S extends z.ZodType>(
    method: string,
    path: string,
    options: RequestOptions<S>,
  ): Promise<z.output<S>> {
    const url = this.apiUrl(path, options.query);
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    };
    const response = await this.fetchWithRetry(url, init, options.idempotent, `${method} ${path}`);
    const text = await response.text();
    if (!response.ok) {
      if (response.headers.get('cf-mitigated') === 'challenge') {
        throw new FerryApiError({
          kind: 'generic',
          status: response.status,
          message: 'the server answered with a bot challenge; try again later',
        });
      }
      throw parseErrorBody(response.status, text, response.headers);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new FerryProtocolError(
        `${method} ${url} did not answer JSON (is ${this.server} a Ferry server?)`,
      );
    }
    const parsed = options.schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
      throw new FerryProtocolError(`unexpected answer from ${method} ${path} (${where})`);
    }
    return parsed.data;
  }

  private async fetchWithRetry(url: string, init: RequestInit, idempotent: boolean, what: string) {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      let retryable: unknown;
      try {
        const response = await this.fetchImpl(url, init);
        const unavailable = response.status === 503 || (idempotent && [502, 504].includes(response.status));
        if (!unavailable) return response;
        retryable = parseErrorBody(response.status, await response.text(), response.headers);
      } catch (error) {
        if (!isNetworkError(error) || !(idempotent || isConnectionRefused(error))) throw error;
        retryable = error;
      }
      const delayMs = backoffDelay(attempt);
      if (Date.now() - started + delayMs > this.retryForMs) throw retryable;
      this.onRetry?.({ attempt: attempt + 1, delayMs, error: retryable, what });
      await sleep(delayMs);
    }
  }
}
