// Starts a server as a child process, waits until it answers, and stops it (SIGTERM, wait for exit) — also
// from the cleanup registry when the bench fails or is interrupted.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { onCleanup } from './cleanup.mjs';
import { sleep } from './util.mjs';

/** A free TCP port on 127.0.0.1 (released just before the server binds it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}

/** @param {string} url @returns {Promise<number>} the status, or 0 when nothing answers */
function probe(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/**
 * @typedef {object} ServerHandle
 * @property {string} name
 * @property {number} pid the server's own process (node), not a shell around it
 * @property {string} baseUrl e.g. http://127.0.0.1:40123
 * @property {string} logFile stdout+stderr of the server
 * @property {() => Promise<number | null>} stop SIGTERM, then wait; SIGKILL after `stopTimeoutMs`
 */

/**
 * @param {object} options
 * @param {string} options.name
 * @param {string[]} options.args arguments to `node`
 * @param {NodeJS.ProcessEnv} options.env the whole environment of the child
 * @param {string} options.cwd
 * @param {number} options.port
 * @param {string} options.healthPath
 * @param {string} options.logFile
 * @param {number} [options.startTimeoutMs]
 * @param {number} [options.stopTimeoutMs]
 * @param {() => void} [options.onForcedExit] sync extra cleanup after a SIGKILL (e.g. an orphan postgres)
 * @returns {Promise<ServerHandle>}
 */
export async function startServer({
  name,
  args,
  env,
  cwd,
  port,
  healthPath,
  logFile,
  startTimeoutMs = 60_000,
  stopTimeoutMs = 30_000,
  onForcedExit,
}) {
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  /** @type {number | null | undefined} */
  let exitCode;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve(exitCode);
    });
  });
  const pid = /** @type {number} */ (child.pid);
  const baseUrl = `http://127.0.0.1:${port}`;

  const stopNow = async () => {
    if (exitCode === undefined) {
      child.kill('SIGTERM');
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      const timeout = new Promise((resolve) => {
        timer = setTimeout(() => resolve('timeout'), stopTimeoutMs);
      });
      const outcome = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        console.error(`[bench] ${name} did not exit ${stopTimeoutMs} ms after SIGTERM; killing it`);
        child.kill('SIGKILL');
        await exited;
        onForcedExit?.();
      }
    }
    await new Promise((resolve) => log.end(resolve));
  };
  const stop = onCleanup(`stop ${name}`, stopNow, () => {
    if (exitCode !== undefined) return;
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
    onForcedExit?.();
  });

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exitCode !== undefined) {
      await stop();
      throw new Error(`${name} exited with ${exitCode} while starting; its log:\n${tail(logFile)}`);
    }
    if ((await probe(`${baseUrl}${healthPath}`)) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `${name} did not answer ${healthPath} within ${startTimeoutMs} ms; its log:\n${tail(logFile)}`,
      );
    }
    await sleep(100);
  }
  return {
    name,
    pid,
    baseUrl,
    logFile,
    stop: async () => {
      await stop();
      return exitCode ?? null;
    },
  };
}

/**
 * The interesting part of a server log: from its first error line on (a crash dump starts there), else its end.
 * @param {string} file
 */
export function logExcerpt(file, lines = 40) {
  try {
    const all = readFileSync(file, 'utf8').split('\n');
    const first = all.findIndex((line) => /\b(Error|Uncaught|throw|"level":(50|60))\b/.test(line));
    return first === -1 ? all.slice(-lines).join('\n') : all.slice(first, first + lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** @param {string} file */
export function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
