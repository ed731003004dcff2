// A small closed-loop load generator (what autocannon does, minus the dependency): N workers, each sending its
// next request as soon as the previous one is answered, over N keep-alive connections, for a fixed duration.
import http from 'node:http';
import { now, percentile, sleep } from './util.mjs';

/**
 * @typedef {object} LoadRequest
 * @property {string} method
 * @property {string} path path and query
 * @property {Record<string, string>} [headers]
 * @property {Buffer} [body]
 */

/**
 * @typedef {object} LoadResult
 * @property {number} requests answered with the expected status, inside the measured window
 * @property {number} errors other statuses and network errors, inside the measured window
 * @property {number} seconds measured window
 * @property {number} rps requests / seconds
 * @property {number} p50Ms
 * @property {number} p90Ms
 * @property {number} p95Ms
 * @property {number} p99Ms
 * @property {number} maxMs
 * @property {string | null} firstError
 */

/**
 * @param {object} options
 * @param {string} options.baseUrl
 * @param {() => LoadRequest} options.next the request each worker sends next
 * @param {number} options.expectStatus
 * @param {number} options.connections concurrent workers (and sockets)
 * @param {number} options.durationMs measured window
 * @param {number} [options.warmupMs] unrecorded warm-up before it (JIT, connection setup, DB pool)
 * @returns {Promise<LoadResult>}
 */
export async function runLoad({ baseUrl, next, expectStatus, connections, durationMs, warmupMs = 1000 }) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  /** @type {number[]} */
  const latencies = [];
  let errors = 0;
  /** @type {string | null} */
  let firstError = null;
  let recording = false;
  let stopping = false;

  /** @param {LoadRequest} spec @returns {Promise<number>} status, 0 on a network error */
  const send = (spec) =>
    new Promise((resolve) => {
      const headers = spec.body
        ? { ...spec.headers, 'Content-Type': 'application/json', 'Content-Length': String(spec.body.length) }
        : spec.headers;
      const req = http.request(
        { hostname, port, method: spec.method, path: spec.path, headers, agent },
        (res) => {
          if (res.statusCode !== expectStatus && !firstError) {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
              firstError ??= `HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`;
              resolve(res.statusCode ?? 0);
            });
            return;
          }
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', (error) => {
        firstError ??= String(error);
        resolve(0);
      });
      req.end(spec.body);
    });

  const worker = async () => {
    while (!stopping) {
      const t0 = now();
      const status = await send(next());
      if (!recording) continue;
      if (status === expectStatus) latencies.push(now() - t0);
      else errors++;
    }
  };

  const workers = Array.from({ length: connections }, worker);
  await sleep(warmupMs);
  recording = true;
  const t0 = now();
  await sleep(durationMs);
  // requests finishing after the window still count only if they started inside it; close enough for p99 with
  // thousands of samples, and the rate uses the window's own length
  recording = false;
  const seconds = (now() - t0) / 1000;
  stopping = true;
  await Promise.all(workers);
  agent.destroy();

  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: sorted.length,
    errors,
    seconds,
    rps: sorted.length / seconds,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length ? /** @type {number} */ (sorted[sorted.length - 1]) : Number.NaN,
    firstError,
  };
}
