// One registry of things to undo (servers to stop, temp dirs to delete), run in reverse order whether the bench
// ends normally, throws, or is interrupted. Each entry has an async form (graceful: SIGTERM and wait) and a
// sync form for the 'exit' event, where nothing asynchronous can run any more (SIGKILL, rmSync).

/**
 * @typedef {object} CleanupEntry
 * @property {string} name
 * @property {() => Promise<void>} run graceful, awaited
 * @property {() => void} runSync last resort from process 'exit'
 * @property {Promise<void> | null} running set once the step has started; every caller awaits the same run
 */

/** @type {CleanupEntry[]} every step, in registration order */
const all = [];
let installed = false;
let interrupted = false;

/** @param {CleanupEntry} entry */
function start(entry) {
  entry.running ??= entry.run();
  return entry.running;
}

/**
 * Registers an undo step; returns a function that runs it now (once: later calls, and cleanupAll, await the same
 * run).
 * @param {string} name
 * @param {() => Promise<void>} run
 * @param {() => void} runSync
 */
export function onCleanup(name, run, runSync) {
  install();
  /** @type {CleanupEntry} */
  const entry = { name, run, runSync, running: null };
  all.push(entry);
  return () => start(entry);
}

/** Runs every pending step, newest first, and waits for steps already running; failures are reported. */
export async function cleanupAll() {
  for (const entry of [...all].reverse()) {
    try {
      await start(entry);
    } catch (error) {
      console.error(`[bench] cleanup "${entry.name}" failed:`, error);
    }
  }
}

export const wasInterrupted = () => interrupted;

function install() {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    // every step again, synchronously: each one is a no-op when its graceful run already finished, and the
    // last resort for steps never started or still running (their awaits can never complete now)
    for (const entry of [...all].reverse()) {
      try {
        entry.runSync();
      } catch {
        // best effort: the process is going away
      }
    }
  });
  const onSignal = (signal) => {
    if (interrupted) {
      // second signal: stop waiting for graceful shutdowns; 'exit' still runs the sync steps
      process.exit(130);
    }
    interrupted = true;
    console.error(`\n[bench] ${signal}: stopping servers and removing temp files...`);
    void cleanupAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}
