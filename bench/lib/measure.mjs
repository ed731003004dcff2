// Wraps one timed operation: wall time comes from the operation itself (see http-client.mjs), CPU seconds of the
// server process and of this client process are read around it, so every result says who was busy.
import { cpuTimesOf, minorFaultsOf, threadTimesOf } from './procfs.mjs';
import { mbps } from './util.mjs';

/**
 * @typedef {object} Sample
 * @property {number} bytes
 * @property {number} ms the timed part
 * @property {number} mbps bytes / 1e6 / seconds
 * @property {number} serverCpuS CPU seconds the server process used during the whole operation
 * @property {number} serverUserS of which in user mode (JS, hashing)
 * @property {number} serverSysS of which in kernel mode (socket and file I/O, page cache)
 * @property {Record<string, number>} serverThreadsS CPU seconds per server thread group ("main", "other threads")
 * @property {number} serverMinorFaults minor page faults of the server process during the operation
 * @property {number} clientCpuS CPU seconds this bench process used during the whole operation
 * @property {Record<string, unknown>} [extra]
 */

/**
 * @param {number} serverPid
 * @param {() => Promise<{ bytes: number, ms: number, extra?: Record<string, unknown> }>} operation
 * @returns {Promise<Sample>}
 */
export async function measure(serverPid, operation) {
  const server0 = cpuTimesOf(serverPid);
  const threads0 = threadTimesOf(serverPid);
  const faults0 = minorFaultsOf(serverPid);
  const client0 = process.cpuUsage();
  const { bytes, ms, extra } = await operation();
  const client = process.cpuUsage(client0);
  const server1 = cpuTimesOf(serverPid);
  const threads1 = threadTimesOf(serverPid);
  const faults1 = minorFaultsOf(serverPid);
  /** @type {Record<string, number>} */
  const serverThreadsS = {};
  for (const [name, seconds] of Object.entries(threads1)) {
    const used = seconds - (threads0[name] ?? 0);
    if (used >= 0.005) serverThreadsS[name] = Math.round(used * 100) / 100;
  }
  return {
    bytes,
    ms,
    mbps: mbps(bytes, ms),
    serverCpuS: server1.user + server1.sys - server0.user - server0.sys,
    serverUserS: server1.user - server0.user,
    serverSysS: server1.sys - server0.sys,
    serverThreadsS,
    serverMinorFaults: faults1 - faults0,
    clientCpuS: (client.user + client.system) / 1e6,
    ...(extra ? { extra } : {}),
  };
}
