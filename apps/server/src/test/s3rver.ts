import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The parts of s3rver (a Koa app, CommonJS, untyped) this harness uses. */
interface S3rverContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  req: IncomingMessage;
  status: number;
  type: string;
  body: unknown;
  store: FilesystemStore;
  headerSent: boolean;
  writable: boolean;
}
interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putPart(bucket: string, uploadId: string, partNumber: string, content: Readable): Promise<Written>;
  putObject(object: {
    bucket: string;
    key: string;
    content: Readable | Buffer;
    metadata: object;
  }): Promise<Written>;
  putMetadata(bucket: string, key: string, metadata: object, md5: string): Promise<void>;
  getObject(
    bucket: string,
    key: string,
    options?: { start?: number; end?: number },
  ): Promise<{ content: Readable | null; range?: { start: number; end: number } } | null>;
}
interface Written {
  size: number;
  md5: string;
}
interface S3rverApp {
  on(event: 'error', listener: (error: Error & { status?: number }, ctx: S3rverContext) => void): void;
  middleware: Array<(ctx: S3rverContext, next: () => Promise<void>) => Promise<void>>;
  store: FilesystemStore;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: object) => S3rverApp;

/** One request s3rver received (for tests that check what Ferry asked of the store). */
export interface S3Request {
  method: string;
  /** `/bucket/key`, decoded. */
  path: string;
  query: Record<string, string | string[] | undefined>;
  /** The `x-amz-copy-source` header of a server-side copy. */
  copySource: string | null;
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Every request received, oldest first. */
  requests: S3Request[];
  /** Object calls refused for a missing or wrong SSE-C key (with `sseC`), as `METHOD /bucket/key: reason`. */
  refused: string[];
  close(): Promise<void>;
}

/**
 * An in-process S3 (s3rver) on a free loopback port, data in a temp dir, with `bucket` and any `extraBuckets`
 * created. s3rver lacks ListParts and AbortMultipartUpload, which `@tus/s3-store` needs: a middleware in front
 * answers them from the parts s3rver keeps on disk.
 */
export async function startTestS3(
  options: {
    bucket?: string;
    extraBuckets?: string[];
    /**
     * The SSE-C key each object must be called with (null: none). s3rver ignores SSE-C headers, so the harness
     * refuses (400) any object call whose key MD5 header (and its copy source's) is not exactly the expected one.
     */
    sseC?: (key: string) => Buffer | null;
  } = {},
): Promise<TestS3> {
  const bucket = options.bucket ?? 'ferry-test';
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true, // also Koa's own `silent`: no error printing
    vhostBuckets: false,
    configureBuckets: [bucket, ...(options.extraBuckets ?? [])].map((name) => ({ name, configs: [] })),
  });
  fixFilesystemStore(server.store);
  const requests: S3Request[] = [];
  server.middleware.unshift(multipartExtras);
  const refused: string[] = [];
  if (options.sseC) server.middleware.unshift(requireSseC(options.sseC, refused));
  server.middleware.unshift(async (ctx, next) => {
    const copySource = ctx.headers['x-amz-copy-source'];
    requests.push({
      method: ctx.method,
      path: decodeURIComponent(ctx.path),
      query: { ...ctx.query },
      copySource: typeof copySource === 'string' ? decodeURIComponent(copySource) : null,
    });
    await next();
  });
  // With `silent`, an exception inside s3rver reaches the client only as a bare 500 InternalError: name its cause.
  server.on('error', (error, ctx) => {
    if (!(Number(error.status) < 500) && !ctx.headerSent && ctx.writable)
      console.error(`s3rver answered 500 to ${ctx.method} ${ctx.path}:`, error);
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's built-in account
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    requests,
    refused,
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Refuses the object calls S3 refuses on an SSE-C object without its key: PutObject, GetObject, HeadObject,
 * CreateMultipartUpload, UploadPart, CopyObject and UploadPartCopy (and their copy source's key). ListParts,
 * CompleteMultipartUpload, AbortMultipartUpload and DeleteObject need none. A key sent for an object that has none
 * is refused too, as S3 does.
 */
function requireSseC(
  expected: (key: string) => Buffer | null,
  refused: string[],
): (ctx: S3rverContext, next: () => Promise<void>) => Promise<void> {
  const md5 = (key: Buffer | null) => (key ? createHash('md5').update(key).digest('base64') : undefined);
  const check = (what: string, header: unknown, key: Buffer | null) =>
    header === md5(key) ? null : `${what} key MD5 ${header === undefined ? 'missing' : 'wrong'}`;
  return async (ctx, next) => {
    const [bucket, ...keyParts] = ctx.path.slice(1).split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
    const q = ctx.query;
    const keyed =
      bucket !== undefined &&
      key !== '' &&
      (ctx.method === 'PUT' ||
        ctx.method === 'HEAD' ||
        (ctx.method === 'GET' && (q.uploadId === undefined || q.partNumber !== undefined)) ||
        (ctx.method === 'POST' && q.uploads !== undefined));
    if (!keyed) return next();
    let problem = check(
      'object',
      ctx.headers['x-amz-server-side-encryption-customer-key-md5'],
      expected(key),
    );
    const source = ctx.headers['x-amz-copy-source'];
    if (!problem && typeof source === 'string') {
      const sourceKey = decodeURIComponent(source).replace(/^\/?[^/]+\//, '');
      problem = check(
        'copy source',
        ctx.headers['x-amz-copy-source-server-side-encryption-customer-key-md5'],
        expected(sourceKey),
      );
    }
    if (!problem) return next();
    refused.push(`${ctx.method} ${decodeURIComponent(ctx.path)}: ${problem}`);
    ctx.status = 400;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidRequest</Code><Message>${problem}</Message></Error>`;
  };
}

/**
 * Two s3rver bugs that would make tests flaky or wrong. Its PutObject and UploadPart answer once its hashing
 * stream has seen the last byte, before the file stream has written it, or even opened (created) the file: a
 * request right after the response (ListParts, GetObject, CompleteMultipartUpload) could see a short or missing
 * file. So the harness writes those files itself and answers only once the file stream has finished. And s3rver
 * reads `Range: bytes=0-0` as the whole object (`end || Infinity`): serve that one byte.
 */
function fixFilesystemStore(store: FilesystemStore): void {
  const getObject = store.getObject.bind(store);
  // As s3rver's own: the part's bytes in `<n>`, then its MD5 in `<n>.md5` (which marks the part complete).
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const file = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const written = await writeFile(file, content);
    await fs.writeFile(`${file}.md5`, written.md5);
    return written;
  };
  // Also what CompleteMultipartUpload stores the joined parts with.
  store.putObject = async (object) => {
    const written = await writeFile(
      store.getResourcePath(object.bucket, object.key, 'object'),
      object.content,
    );
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (options?.end === 0 && object?.content && object.range) {
      object.content.destroy();
      object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
      object.range.end = 0;
    }
    return object;
  };
}

/** Writes `content` to `file`, resolving with its size and MD5 once every byte is in the file. */
async function writeFile(file: string, content: Readable | Buffer): Promise<Written> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const md5 = createHash('md5');
  let size = 0;
  await pipeline(
    Buffer.isBuffer(content) ? Readable.from([content]) : content,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        md5.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(file),
  );
  return { size, md5: md5.digest('hex') };
}

/**
 * ListParts (GET), AbortMultipartUpload (DELETE) and UploadPartCopy (PUT with `x-amz-copy-source`) on
 * `/{bucket}/{key}?uploadId=…`; all else goes on.
 */
async function multipartExtras(ctx: S3rverContext, next: () => Promise<void>): Promise<void> {
  const uploadId = ctx.query.uploadId;
  const [bucket, ...keyParts] = ctx.path.slice(1).split('/').map(decodeURIComponent);
  const isList = ctx.method === 'GET' && ctx.query.partNumber === undefined;
  const isPartCopy = ctx.method === 'PUT' && typeof ctx.headers['x-amz-copy-source'] === 'string';
  if (
    typeof uploadId !== 'string' ||
    !bucket ||
    keyParts.length === 0 ||
    (!isList && !isPartCopy && ctx.method !== 'DELETE')
  )
    return next();
  const key = keyParts.join('/');
  // s3rver keeps each multipart upload in <bucket>/._S3rver_uploads/<uploadId>/: `key`, `metadata`, and per
  // part `<n>` (the bytes) and `<n>.md5` (written once the part is complete).
  const dir = path.join(ctx.store.getResourcePath(bucket, undefined, 'uploads'), path.basename(uploadId));
  const storedKey = await fs.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
  if (storedKey !== key) {
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body =
      XML_DECLARATION +
      element('Error', {
        Code: 'NoSuchUpload',
        Message: 'The specified upload does not exist.',
        UploadId: uploadId,
      });
    return;
  }
  if (ctx.method === 'DELETE') {
    await fs.rm(dir, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  if (isPartCopy) return uploadPartCopy(ctx, bucket, uploadId);
  const marker = Number(ctx.query['part-number-marker'] ?? 0);
  const maxParts = Number(ctx.query['max-parts'] ?? 1000);
  const numbers = (await fs.readdir(dir))
    .filter((name) => /^\d+\.md5$/.test(name))
    .map((name) => Number.parseInt(name, 10))
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const page = numbers.slice(0, maxParts);
  const parts = await Promise.all(
    page.map(async (n) => {
      const [stat, md5] = await Promise.all([
        fs.stat(path.join(dir, String(n))),
        fs.readFile(path.join(dir, `${n}.md5`), 'utf8'),
      ]);
      return element('Part', {
        PartNumber: String(n),
        LastModified: stat.mtime.toISOString(),
        ETag: `"${md5.trim()}"`,
        Size: String(stat.size),
      });
    }),
  );
  ctx.status = 200;
  ctx.type = 'application/xml';
  ctx.body =
    XML_DECLARATION +
    element(
      'ListPartsResult',
      {
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        PartNumberMarker: String(marker),
        NextPartNumberMarker: String(page.at(-1) ?? marker),
        MaxParts: String(maxParts),
        IsTruncated: String(numbers.length > page.length),
      },
      parts.join(''),
      S3_NAMESPACE,
    );
}

/** UploadPartCopy: the part is read from the source object (a byte range of it) inside the store. */
async function uploadPartCopy(ctx: S3rverContext, bucket: string, uploadId: string): Promise<void> {
  const source = decodeURIComponent(String(ctx.headers['x-amz-copy-source'])).replace(/^\//, '');
  const [sourceBucket, ...sourceKey] = source.split('/');
  const range = /^bytes=(\d+)-(\d+)$/.exec(String(ctx.headers['x-amz-copy-source-range'] ?? ''));
  const object = await ctx.store.getObject(
    sourceBucket!,
    sourceKey.join('/'),
    range ? { start: Number(range[1]), end: Number(range[2]) } : undefined,
  );
  if (!object?.content) {
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body =
      XML_DECLARATION +
      element('Error', { Code: 'NoSuchKey', Message: 'The specified key does not exist.', Key: source });
    return;
  }
  const written = await ctx.store.putPart(bucket, uploadId, String(ctx.query.partNumber), object.content);
  ctx.status = 200;
  ctx.type = 'application/xml';
  ctx.body =
    XML_DECLARATION +
    element(
      'CopyPartResult',
      { LastModified: new Date().toISOString(), ETag: `"${written.md5}"` },
      '',
      S3_NAMESPACE,
    );
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const S3_NAMESPACE = ' xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

function element(tag: string, fields: Record<string, string>, inner = '', attributes = ''): string {
  const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = Object.entries(fields)
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return `<${tag}${attributes}>${body}${inner}</${tag}>`;
}
