import type { IncomingMessage } from 'node:http';
import { Server as TusServer } from '@tus/server';
import type { Locker } from '@tus/utils';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../../observability/metrics.js';
import { AppError } from '../../services/app-error.js';
import type { TransferService } from '../../services/transfer.service.js';
import type { HashingDataStore } from '../../storage/hashing-store.js';
import { errorBody, toAppError } from './errors.plugin.js';

export const TUS_PATH = '/api/transfer/uploads';
const TOKEN_HEADER = 'x-upload-token';

function tusError(error: unknown): { status_code: number; body: string } {
  const body = errorBody(toAppError(error));
  return { status_code: body.status, body: JSON.stringify(body) };
}

/**
 * Mounts the tus server. Creation is authorised while naming the upload (token, transfer, file, declared size);
 * every other request is authorised here before tus sees it, since tus runs no hook on PATCH. GET is not routed:
 * uploaded bytes are only ever served by the download routes, as attachments.
 */
export function registerTus(
  app: FastifyInstance,
  store: HashingDataStore,
  transfers: TransferService,
  metrics: Metrics,
  locker?: Locker,
): TusServer {
  const tus = new TusServer({
    path: TUS_PATH,
    datastore: store,
    ...(locker ? { locker } : {}),
    relativeLocation: true,
    respectForwardedHeaders: false,
    exposedHeaders: ['Upload-Sha256'],
    allowedHeaders: ['X-Upload-Token'],
    // Same-origin only: the web app uploads from Ferry's own origin, so no CORS grant is needed.
    allowedOrigins: () => false,
    async namingFunction(req, metadata) {
      try {
        const length = Number.parseInt(req.headers.get('upload-length') ?? '', 10);
        const { uploadId } = await transfers.authorizeUploadCreate(
          req.headers.get(TOKEN_HEADER) ?? undefined,
          { transferId: metadata?.transferId ?? undefined, fileId: metadata?.fileId ?? undefined },
          length,
        );
        return uploadId;
      } catch (error) {
        throw tusError(error);
      }
    },
    async onUploadFinish(_req, upload) {
      try {
        const digest = await store.digest(upload.id, upload.size ?? upload.offset);
        await transfers.uploadFinished(upload.id, digest);
        return { headers: { 'Upload-Sha256': digest.sha256 } };
      } catch (error) {
        app.log.error({ err: error, uploadId: upload.id }, 'finishing an upload failed');
        throw tusError(error);
      }
    },
  });

  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers['upload-concat'] !== undefined) {
      // Concatenation is not offered (Tus-Extension does not list it): a client error, not a server one.
      const body = errorBody(
        new AppError('VALIDATION_FAILED', 'The tus concatenation extension is not supported.'),
      );
      return reply.status(400).header('Tus-Resumable', '1.0.0').send(body);
    }
    if (request.method !== 'POST' && request.method !== 'OPTIONS') {
      const uploadId = request.url.split('?')[0]!.slice(TUS_PATH.length + 1);
      try {
        const token = request.headers[TOKEN_HEADER];
        await transfers.authorizeUploadRequest(typeof token === 'string' ? token : undefined, uploadId);
      } catch (error) {
        const body = errorBody(toAppError(error));
        return reply.status(body.status).header('Tus-Resumable', '1.0.0').send(body);
      }
    }
    reply.hijack();
    if (request.method !== 'PATCH') return tus.handle(request.raw, reply.raw);
    metrics.streamStarted('upload');
    try {
      passBodyChunksUncopied(request.raw);
      await tus.handle(request.raw, reply.raw);
    } finally {
      metrics.streamEnded('upload');
    }
  };
  const methods = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const;
  app.route({ method: [...methods], url: TUS_PATH, handler });
  app.route({ method: [...methods], url: `${TUS_PATH}/:uploadId`, handler });
  return tus;
}

/**
 * tus reads a body through `Readable.toWeb(request)`, which copies every chunk of a byte stream into a new buffer
 * (so that a consumer could transfer it; nothing here does). For a large upload that is an allocation and a copy per
 * 64 KiB, and the copies pile up as short-lived external memory that sets off full garbage collections, on the event
 * loop's CPU. Seen as an object stream of at most two queued chunks, the request hands its own chunks on, with the
 * same backpressure. Only `Readable.toWeb` reads these two accessors of a request; the stream itself is unchanged.
 */
export function passBodyChunksUncopied(request: IncomingMessage): void {
  Object.defineProperties(request, {
    readableObjectMode: { value: true, configurable: true },
    readableHighWaterMark: { value: 2, configurable: true },
  });
}
