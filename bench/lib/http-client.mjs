// The one HTTP client of the bench, shared by the baseline and Ferry: node:http directly (no fetch/undici layer),
// uploads streamed from the test file on disk, downloads consumed chunk by chunk (hashed, never kept).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import { now } from './util.mjs';

/** Chunk size the client reads the source file with; the same for every upload of every server. */
export const CLIENT_READ_CHUNK = 1024 * 1024;

/** Keep-alive agent for the small JSON calls (create, complete, link). Bulk transfers use their own sockets. */
export const jsonAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/**
 * @typedef {object} HttpResult
 * @property {number} status
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} body
 */

/**
 * A small request with an optional JSON (or raw) body; resolves with the whole (text) response.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, json?: unknown, body?: Buffer, agent?: http.Agent }} [options]
 * @returns {Promise<HttpResult & { json: any }>}
 */
export function request(url, { method = 'GET', headers = {}, json, body: raw, agent = jsonAgent } = {}) {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? raw : Buffer.from(JSON.stringify(json));
    const req = http.request(url, {
      method,
      agent,
      headers: {
        ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(body ? { 'Content-Length': String(body.length) } : {}),
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: parsed });
      });
    });
    req.end(body);
  });
}

/**
 * Streams bytes [start, end] (inclusive) of a file as a request body.
 * Timed from the moment the request is issued (its headers leave with the first body chunk) to the end of the
 * response, so the server's final work (fsync, hashing, database update, ...) is inside the measurement.
 * `hash`: the client also SHA-256-hashes the bytes it sends (as the web app hashes a file it uploads), into the given
 * hash, which the caller may carry across several requests. `agent`: a keep-alive agent for a series of requests
 * (the web app's PATCHes), instead of one fresh connection.
 * @param {string} url
 * @param {{ method: string, headers?: Record<string, string>, file: string, start: number, end: number, hash?: import('node:crypto').Hash, agent?: http.Agent }} options
 * @returns {Promise<HttpResult & { ms: number, bytes: number }>}
 */
export function uploadRange(url, { method, headers = {}, file, start, end, hash, agent }) {
  const bytes = end - start + 1;
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method,
      agent: agent ?? false, // by default one fresh connection per bulk transfer, identical for every server
      headers: { ...headers, 'Content-Length': String(bytes) },
    });
    const source = createReadStream(file, { start, end, highWaterMark: CLIENT_READ_CHUNK });
    if (hash) source.on('data', (chunk) => hash.update(chunk));
    let settled = false;
    const fail = (error) => {
      if (settled) return;
      settled = true;
      source.destroy();
      req.destroy();
      reject(error);
    };
    source.on('error', fail);
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        const ms = now() - t0;
        if (settled) return;
        settled = true;
        source.destroy(); // in case the server answered before reading everything (an error)
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ms,
          bytes,
        });
      });
    });
    const t0 = now();
    source.pipe(req);
  });
}

/**
 * GETs a URL and consumes the body chunk by chunk through `sink` (a streaming hash by default), never writing
 * it anywhere — the equivalent of saving to /dev/null with `sha256sum` on the way, for every server alike.
 * Timed from the request to the last body byte. A fresh connection each time unless an `agent` is given (the load
 * section keeps its sockets alive: hundreds of downloads a second would otherwise each cost a TCP handshake).
 * @template {{ update(chunk: Buffer): void }} S
 * @param {string} url
 * @param {{ sink?: S, headers?: Record<string, string>, agent?: http.Agent | false }} [options]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, bytes: number, ms: number, ttfbMs: number, sha256: string | null, sink: S | null }>}
 */
export function download(url, { sink, headers = {}, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const hash = sink ? null : createHash('sha256');
    const update = sink ? (chunk) => sink.update(chunk) : (chunk) => hash?.update(chunk);
    const t0 = now();
    const req = http.get(url, { agent, headers }, (res) => {
      const ttfbMs = now() - t0;
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
        update(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const ms = now() - t0;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes,
          ms,
          ttfbMs,
          sha256: hash ? hash.digest('hex') : null,
          sink: sink ?? null,
        });
      });
    });
    req.on('error', reject);
  });
}
