// The baseline: the least a Node server must do to move the bytes. PUT/POST /files/<name> streams the request
// body to a file (fs.createWriteStream + pipeline); GET /files/<name> streams it back (fs.createReadStream pipe).
// Started by bench/run.mjs as a child process, like Ferry. Env: PORT, DIR (where files go), HOST.
//
// Diagnostic knobs (off by default, so the baseline stays bare):
//   BASELINE_READ_HWM=<bytes>  highWaterMark of the download read stream (Node's default is 64 KiB; Ferry: 1 MiB)
//   BASELINE_HASH=1            SHA-256 + CRC32 of every uploaded byte on the main thread, as Ferry does
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

const dir = path.resolve(process.env.DIR ?? '.');
const port = Number(process.env.PORT ?? 0);
const readHwm = process.env.BASELINE_READ_HWM ? Number(process.env.BASELINE_READ_HWM) : undefined;
const hashUploads = process.env.BASELINE_HASH === '1';
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** @param {http.ServerResponse} res @param {number} status @param {unknown} body */
function json(res, status, body) {
  const data = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': data.length });
  res.end(data);
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') return json(res, 200, { status: 'ok' });
    // A trivial JSON round trip, the ceiling for the API latency section (parse a small body, answer JSON).
    if (url.pathname === '/echo') {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
      return json(res, req.method === 'POST' ? 201 : 200, { ok: true, got: body, query: url.search });
    }
    const match = /^\/files\/([^/]+)$/.exec(url.pathname);
    if (!match || !NAME.test(match[1] ?? '')) return json(res, 404, { error: 'not found' });
    const file = path.join(dir, /** @type {string} */ (match[1]));
    if (req.method === 'PUT' || req.method === 'POST') {
      const out = createWriteStream(file);
      if (!hashUploads) {
        await pipeline(req, out);
        return json(res, 201, { bytes: out.bytesWritten });
      }
      const sha256 = createHash('sha256');
      let crc32 = 0;
      const tap = new Transform({
        transform(chunk, _encoding, callback) {
          sha256.update(chunk);
          crc32 = zlib.crc32(chunk, crc32);
          callback(null, chunk);
        },
      });
      await pipeline(req, tap, out);
      return json(res, 201, { bytes: out.bytesWritten, sha256: sha256.digest('hex'), crc32: crc32 >>> 0 });
    }
    if (req.method === 'GET') {
      let size;
      try {
        size = (await fs.stat(file)).size;
      } catch {
        return json(res, 404, { error: 'not found' });
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
      createReadStream(file, readHwm ? { highWaterMark: readHwm } : undefined).pipe(res);
      return;
    }
    return json(res, 405, { error: 'method not allowed' });
  } catch (error) {
    if (!res.headersSent) json(res, 500, { error: String(error) });
    else res.destroy();
  }
});

server.keepAliveTimeout = 65_000;
server.listen(port, process.env.HOST ?? '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
