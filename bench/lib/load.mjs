// Load generators for the API sections, over keep-alive connections (what autocannon / wrk2 do, minus the
// dependency):
// - closed loop (`runLoad`): N workers, each sending its next request as soon as the previous one is answered,
//   for a fixed duration — the rate is whatever the server gives;
// - open loop (`runOpenLoop`): requests started on a fixed schedule (R per second) whether or not earlier ones were
//   answered, each timed from its scheduled start, so a server that falls behind is charged for the queue it
//   builds (no coordinated omission: a slow answer does not hold back the next request's clock).
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
 * Sends one request; resolves with its status (0 on a network error). The first unexpected answer's body (or the
 * first network error) is handed to `onError`.
 * @param {{ hostname: string, port: string, agent: http.Agent }} target
 * @param {LoadRequest} spec
 * @param {number} expectStatus
 * @param {(message: string) => void} onError
 * @param {Set<http.ClientRequest>} [open] holds the request until it is closed (to abort what is left)
 * @returns {Promise<number>}
 */
function send({ hostname, port, agent }, spec, expectStatus, onError, open) {
  return new Promise((resolve) => {
    const headers = spec.body
      ? { ...spec.headers, 'Content-Type': 'application/json', 'Content-Length': String(spec.body.length) }
      : spec.headers;
    const req = http.request(
      { hostname, port, method: spec.method, path: spec.path, headers, agent },
      (res) => {
        if (res.statusCode !== expectStatus) {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            onError(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`);
            resolve(res.statusCode ?? 0);
          });
          return;
        }
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    if (open) {
      open.add(req);
      req.on('close', () => open.delete(req));
    }
    req.on('error', (error) => {
      onError(String(error));
      resolve(0);
    });
    req.end(spec.body);
  });
}

/** @param {number[]} latencies @param {number} errors @param {number} seconds @param {string | null} firstError */
function summarize(latencies, errors, seconds, firstError) {
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

  const target = { hostname, port, agent };
  const onError = (/** @type {string} */ message) => {
    firstError ??= message;
  };

  const worker = async () => {
    while (!stopping) {
      const t0 = now();
      const status = await send(target, next(), expectStatus, onError);
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
  return summarize(latencies, errors, seconds, firstError);
}

/**
 * @typedef {LoadResult & { ratePerSecond: number, scheduled: number, startLagP99Ms: number, startLagMaxMs: number,
 *   maxInFlight: number, drainMs: number, sockets: number, unanswered: number }} OpenLoopResult
 *   `scheduled`: requests due inside the measured window; `startLag*`: how late this client sent them (its own
 *   event loop), already inside the latencies; `maxInFlight`: most requests unanswered at once (sent or waiting for
 *   a socket); `drainMs`: from the window's end to the last answer (a backlog the server still had); `unanswered`:
 *   recorded requests still open `drainLimitMs` after the window, given up and counted among `errors`
 */

/**
 * Open loop: request i is due at t0 + i / rate, whether or not earlier ones were answered, and its latency runs
 * from that due time to the end of its answer. A request that waits for a free socket, or that this process sends
 * late, is charged the wait. Requests due in the warm-up are sent but not recorded; after the window, the requests
 * still open are waited for up to `drainLimitMs`, then given up (a server that far behind fails the load anyway, and
 * the bench does not wait minutes for its backlog).
 * @param {object} options
 * @param {string} options.baseUrl
 * @param {() => LoadRequest} options.next
 * @param {number} options.expectStatus
 * @param {number} options.ratePerSecond offered load
 * @param {number} options.durationMs measured window
 * @param {number} [options.warmupMs]
 * @param {number} [options.maxSockets] keep-alive sockets at most; requests beyond wait for one (and are charged)
 * @param {number} [options.drainLimitMs] how long to wait for open requests after the window (default: its length)
 * @returns {Promise<OpenLoopResult>}
 */
export async function runOpenLoop({
  baseUrl,
  next,
  expectStatus,
  ratePerSecond,
  durationMs,
  warmupMs = 1000,
  maxSockets = 256,
  drainLimitMs = Math.max(durationMs, 5000),
}) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const target = { hostname, port, agent };
  /** @type {string | null} */
  let firstError = null;
  const onError = (/** @type {string} */ message) => {
    firstError ??= message;
  };
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} */
  const startLags = [];
  let errors = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let lastEnd = 0;
  let recordedOpen = 0;
  let givenUp = false;
  /** @type {Set<http.ClientRequest>} */
  const open = new Set();
  /** @type {Promise<void>[]} */
  const pending = [];

  const interval = 1000 / ratePerSecond;
  const warmupCount = Math.round((warmupMs * ratePerSecond) / 1000);
  const total = warmupCount + Math.round((durationMs * ratePerSecond) / 1000);
  const t0 = now();
  const windowStart = t0 + warmupCount * interval;
  const windowEnd = t0 + total * interval;

  /** @param {number} i */
  const launch = (i) => {
    const due = t0 + i * interval;
    const recorded = i >= warmupCount;
    if (recorded) startLags.push(now() - due);
    inFlight++;
    if (recorded) recordedOpen++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    pending.push(
      send(target, next(), expectStatus, onError, open).then((status) => {
        if (givenUp) return;
        inFlight--;
        if (recorded) recordedOpen--;
        const end = now();
        lastEnd = Math.max(lastEnd, end);
        if (!recorded) return;
        if (status === expectStatus) latencies.push(end - due);
        else errors++;
      }),
    );
  };

  await new Promise((resolve) => {
    let sent = 0;
    const tick = () => {
      // every request that is due by now leaves now, even if the timer fired late
      const due = Math.min(total, Math.floor((now() - t0) / interval) + 1);
      while (sent < due) launch(sent++);
      if (sent >= total) return resolve(undefined);
      setTimeout(tick, Math.max(0, t0 + sent * interval - now()));
    };
    tick();
  });
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const answered = await Promise.race([
    Promise.all(pending).then(() => true),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, windowEnd + drainLimitMs - now()));
    }),
  ]);
  clearTimeout(timer);
  const unanswered = answered ? 0 : recordedOpen;
  if (!answered) {
    givenUp = true;
    errors += unanswered;
    firstError ??= `${unanswered} requests unanswered ${drainLimitMs} ms after the window`;
    for (const req of open) req.destroy(); // sent or still waiting for a socket: none goes out later
  }
  agent.destroy();
  const sortedLags = Float64Array.from(startLags).sort();
  return {
    ...summarize(latencies, errors, (windowEnd - windowStart) / 1000, firstError),
    ratePerSecond,
    scheduled: total - warmupCount,
    startLagP99Ms: percentile(sortedLags, 99),
    startLagMaxMs: sortedLags.length ? /** @type {number} */ (sortedLags[sortedLags.length - 1]) : Number.NaN,
    maxInFlight,
    drainMs: Math.max(0, lastEnd - windowEnd),
    sockets: maxSockets,
    unanswered,
  };
}
