import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './server.js';

/** The `ferry` command as installed: the bin shim in front of the bundled CLI (built by `npm run build`). */
export const FERRY_BIN = path.join(REPO_ROOT, 'packages/sdk/bin/ferry.js');

export interface FerryResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `ferry` command; `done` resolves when it exits (never rejects). */
export interface FerryRun {
  child: ChildProcess;
  /** Output so far (live). */
  readonly stdout: string;
  readonly stderr: string;
  done: Promise<FerryResult>;
}

/**
 * Starts `node packages/sdk/bin/ferry.js ARGS…` with its own environment on top of ours. Tests pass their own
 * FERRY_STATE_DIR so that no journal leaks between tests (or into the user's ~/.local/state).
 */
export function spawnFerry(args: string[], env: Record<string, string>, cwd = REPO_ROOT): FerryRun {
  const child = spawn(process.execPath, [FERRY_BIN, ...args], {
    cwd,
    env: { ...process.env, FERRY_DEBUG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const done = new Promise<FerryResult>((resolve) => {
    child.once('error', (error) =>
      resolve({ code: null, signal: null, stdout, stderr: `${stderr}${error}` }),
    );
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    done,
  };
}

/** Runs `ferry` to the end, killing it after `timeoutMs`. */
export async function runFerry(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<FerryResult> {
  const run = spawnFerry(args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

/** The lines of a command's stdout, without the final newline. */
export function lines(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}
