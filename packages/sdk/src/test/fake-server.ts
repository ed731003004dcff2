/**
 * A small stand-in for the Ferry server of docs/api.md, for the SDK's integration tests: real HTTP on loopback,
 * real tus uploads (@tus/server + @tus/file-store on disk), downloads with Range, errors in the shape of spec §8.
 * State lives in a plain object that survives `kill()` + `start()`, like a database across a server restart.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const id = (n: number) => Array.from(randomBytes(n), (b) => ALNUM[b % ALNUM.length]).join('');

interface FakeFile {
  id: string;
  name: string;
  relativePath: string | null;
  size: number;
  sha256: string | null;
  uploaded: boolean;
  uploadId: string | null;
}

interface FakeTransfer {
  transferId: string;
  uploadToken: string;
  status: 'UPLOADING' | 'ENABLED';
  name: string | null;
  message: string | null;
  password: string | null;
  maxDownloads: number | null;
  downloads: number;
  expiresAt: string;
  files: FakeFile[];
}

export interface FakeState {
  transfers: Map<string, FakeTransfer>;
  blobs: Map<string, { transferId: string; fileId: string | null }>;
  /** Bytes received by PATCH requests, across restarts. */
  receivedBytes: number;
  /** PATCH requests received with a non-zero Upload-Offset (resumptions). */
  resumedAt: number[];
  linkCalls: number;
  /** Start offsets of the Range requests on blobs. */
  rangeStarts: number[];
}

function sendError(res: http.ServerResponse, status: number, code: string | null, message: string): void {
  const body: Record<string, unknown> = { status, error: http.STATUS_CODES[status] ?? 'Error', message };
  if (code) body.codes = [code];
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

function summary(t: FakeTransfer, origin: string) {
  return {
    transferId: t.transferId,
    type: 'S2',
    status: t.status,
    name: t.name,
    link: `${origin}/dl/${t.transferId}`,
    expiresAt: t.expiresAt,
    totalSize: t.files.reduce((s, f) => s + f.size, 0),
    files: t.files.map(({ uploadId: _, ...f }) => f),
  };
}

/** A file store that reports the bytes it is given (reading the request here would steal them from tus). */
class CountingFileStore extends FileStore {
  onChunk: (bytes: number) => void = () => undefined;

  override write(stream: Readable, id: string, offset: number): Promise<number> {
    const onChunk = this.onChunk;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        onChunk(chunk.length);
        callback(null, chunk);
      },
    });
    stream.on('error', (error) => tap.destroy(error));
    return super.write(stream.pipe(tap), id, offset);
  }
}

export class FakeFerryServer {
  readonly state: FakeState = {
    transfers: new Map(),
    blobs: new Map(),
    receivedBytes: 0,
    resumedAt: [],
    linkCalls: 0,
    rangeStarts: [],
  };
  private server: http.Server | null = null;
  private port = 0;
  /** Called with the running total of PATCH bytes received; e.g. to kill the server mid-upload. */
  onBytes: ((total: number) => void) | null = null;
  /** Called with the running total of blob bytes sent. */
  onBlobBytes: ((total: number) => void) | null = null;
  private blobBytes = 0;
  /** Completes the next transfer but cuts the connection instead of answering (a lost answer). */
  loseNextCompleteAnswer = false;

  constructor(private readonly dir: string) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const store = new CountingFileStore({ directory: this.dir });
    store.onChunk = (bytes) => {
      this.state.receivedBytes += bytes;
      this.onBytes?.(this.state.receivedBytes);
    };
    const tus = new TusServer({
      path: '/api/transfer/uploads',
      datastore: store,
      namingFunction: (_req, metadata) => `${metadata?.transferId}_${metadata?.fileId}_${id(8)}`,
      onIncomingRequest: async (req, uploadId) => {
        const transfer = this.state.transfers.get(uploadId.split('_')[0] ?? '');
        if (!transfer || req.headers.get('x-upload-token') !== transfer.uploadToken) {
          throw { status_code: 403, body: 'bad upload token' };
        }
      },
      onUploadCreate: async (_req, upload) => {
        const [transferId, fileId] = upload.id.split('_');
        const file = this.state.transfers.get(transferId ?? '')?.files.find((f) => f.id === fileId);
        if (!file || file.size !== upload.size)
          throw { status_code: 400, body: 'unknown file or wrong size' };
        file.uploadId = upload.id;
        return {};
      },
      onUploadFinish: async (_req, upload) => {
        const [transferId, fileId] = upload.id.split('_');
        const file = this.state.transfers.get(transferId ?? '')?.files.find((f) => f.id === fileId);
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(path.join(this.dir, upload.id))) hash.update(chunk);
        const sha = hash.digest('hex');
        if (file) Object.assign(file, { sha256: sha, uploaded: true });
        return { headers: { 'Upload-Sha256': sha } };
      },
    });
    this.server = http.createServer((req, res) => {
      this.route(req, res, tus).catch((error) => {
        if (!res.headersSent) sendError(res, 500, null, String(error));
        else res.destroy();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops at once, cutting every connection (like a SIGKILL of the server). */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse, tus: TusServer): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const p = url.pathname;
    if (p.startsWith('/api/transfer/uploads')) {
      if (req.method === 'PATCH') {
        const offset = Number(req.headers['upload-offset']);
        if (offset > 0) this.state.resumedAt.push(offset);
      }
      await tus.handle(req, res);
      return;
    }
    const t = (tid: string | null) => {
      const transfer = this.state.transfers.get(tid ?? '');
      if (!transfer) sendError(res, 404, 'TRANSFER_NOT_FOUND', 'Transfer not found.');
      return transfer;
    };
    if (req.method === 'POST' && p === '/api/transfer/transfers') {
      const body = await readJson(req);
      const files = body.files as Array<{ name: string; size: number; relativePath?: string }>;
      if (files.length > 5) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            status: 400,
            error: 'Bad Request',
            message: 'Too many files.',
            codes: ['LIMIT_EXCEEDED'],
            limitErrors: [{ limit: 'files', max: 5, actual: files.length }],
          }),
        );
        return;
      }
      const transfer: FakeTransfer = {
        transferId: id(16),
        uploadToken: id(32),
        status: 'UPLOADING',
        name: (body.name as string) ?? null,
        message: (body.message as string) ?? null,
        password: (body.password as string) ?? null,
        maxDownloads: (body.maxDownloads as number) ?? null,
        downloads: 0,
        expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        files: files.map((f) => ({
          id: id(6),
          name: f.name,
          relativePath: f.relativePath ?? null,
          size: f.size,
          sha256: null,
          uploaded: false,
          uploadId: null,
        })),
      };
      this.state.transfers.set(transfer.transferId, transfer);
      sendJson(res, 201, {
        ...summary(transfer, this.origin),
        uploadToken: transfer.uploadToken,
        uploadEndpoint: '/api/transfer/uploads',
      });
      return;
    }
    const m = /^\/api\/transfer\/transfers\/([^/]+)\/(upload-state|complete)$/.exec(p);
    if (m) {
      const transfer = t(m[1] ?? null);
      if (!transfer) return;
      if (req.headers['x-upload-token'] !== transfer.uploadToken) {
        sendError(res, 403, 'FORBIDDEN', 'Bad upload token.');
        return;
      }
      if (m[2] === 'complete') {
        const body = await readJson(req);
        const missing = transfer.files.filter((f) => !f.uploaded);
        if (missing.length > 0) {
          sendError(res, 409, 'UPLOAD_INCOMPLETE', 'Some files are not uploaded.');
          return;
        }
        const claimed = body.files as Array<{ id: string; sha256?: string }>;
        const bad = claimed.filter(
          (c) => c.sha256 && transfer.files.find((f) => f.id === c.id)?.sha256 !== c.sha256,
        );
        if (bad.length > 0) {
          for (const b of bad) {
            const f = transfer.files.find((x) => x.id === b.id);
            if (f) Object.assign(f, { uploaded: false, sha256: null, uploadId: null });
          }
          res.writeHead(422, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              status: 422,
              error: 'Unprocessable Entity',
              message: 'Checksum mismatch.',
              codes: ['CHECKSUM_MISMATCH'],
              details: { files: bad.map((b) => ({ id: b.id, expected: b.sha256, actual: 'x' })) },
            }),
          );
          return;
        }
        transfer.status = 'ENABLED';
        if (this.loseNextCompleteAnswer) {
          this.loseNextCompleteAnswer = false;
          req.socket.destroy();
          return;
        }
      }
      sendJson(res, 200, summary(transfer, this.origin));
      return;
    }
    if (p === '/api/transfer/downloads/info' || p === '/api/transfer/downloads/link') {
      const transfer = t(url.searchParams.get('transferId'));
      if (!transfer) return;
      const password = url.searchParams.get('password');
      const locked = transfer.password !== null && password !== transfer.password;
      if (p.endsWith('/info')) {
        const s = summary(transfer, this.origin);
        sendJson(res, 200, {
          transferId: s.transferId,
          name: s.name,
          message: transfer.message,
          senderName: null,
          status: s.status,
          expiresAt: s.expiresAt,
          passwordProtected: transfer.password !== null,
          locked,
          allowPreview: true,
          fileCount: s.files.length,
          totalSize: s.totalSize,
          downloadsLeft: transfer.maxDownloads === null ? null : transfer.maxDownloads - transfer.downloads,
          files: locked ? [] : s.files,
        });
        return;
      }
      if (locked) {
        if (password === null) sendError(res, 401, 'PASSWORD_REQUIRED', 'Password required.');
        else sendError(res, 403, 'WRONG_PASSWORD', 'Wrong password.');
        return;
      }
      if (transfer.maxDownloads !== null && transfer.downloads >= transfer.maxDownloads) {
        sendError(res, 403, 'TOO_MANY_DOWNLOADS', 'This transfer has reached its download limit.');
        return;
      }
      transfer.downloads++;
      this.state.linkCalls++;
      const fileId = url.searchParams.get('fileId');
      const file = fileId ? transfer.files.find((f) => f.id === fileId) : undefined;
      if (fileId && !file) {
        sendError(res, 404, 'FILE_NOT_FOUND', 'File not found.');
        return;
      }
      const token = id(24);
      this.state.blobs.set(token, { transferId: transfer.transferId, fileId: file?.id ?? null });
      sendJson(res, 200, {
        url: `/api/transfer/downloads/blob/${token}`,
        fileName: file ? file.name : `${transfer.name ?? 'transfer'}.zip`,
        size: file ? file.size : transfer.files[0]?.size,
        sha256: file ? file.sha256 : null,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      return;
    }
    if (req.method === 'POST' && p === '/api/transfer/downloads/check-password') {
      const body = await readJson(req);
      const transfer = t(body.transferId as string);
      if (!transfer) return;
      if (body.password !== transfer.password) sendError(res, 403, 'WRONG_PASSWORD', 'Wrong password.');
      else sendJson(res, 200, { ok: true });
      return;
    }
    const blob = /^\/api\/transfer\/downloads\/blob\/([^/]+)$/.exec(p);
    if (blob) {
      const target = this.state.blobs.get(blob[1] ?? '');
      const transfer = this.state.transfers.get(target?.transferId ?? '');
      // The "ZIP" of this fake is simply the first file's bytes: enough to test the download path.
      const file = transfer?.files.find((f) => f.id === target?.fileId) ?? transfer?.files[0];
      if (!file?.uploadId) {
        sendError(res, 404, 'TRANSFER_NOT_FOUND', 'Unknown download.');
        return;
      }
      const filePath = path.join(this.dir, file.uploadId);
      const { size } = await stat(filePath);
      const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
      const start = range ? Number(range[1]) : 0;
      if (range) this.state.rangeStarts.push(start);
      if (start > size || (range && start === size && size > 0)) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'application/octet-stream',
        'content-length': size - start,
        'accept-ranges': 'bytes',
      };
      if (range) headers['content-range'] = `bytes ${start}-${size - 1}/${size}`;
      res.writeHead(range ? 206 : 200, headers);
      if (size - start === 0) {
        res.end();
        return;
      }
      const count = new Transform({
        transform: (chunk: Buffer, _encoding, callback) => {
          this.blobBytes += chunk.length;
          this.onBlobBytes?.(this.blobBytes);
          callback(null, chunk);
        },
      });
      createReadStream(filePath, { start }).pipe(count).pipe(res);
      return;
    }
    sendError(res, 404, null, `no route ${req.method} ${p}`);
  }
}
