import { spawn } from 'node:child_process';

/** A tool run that failed: exit status, signal, timeout, or the tool is not installed. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly missing = false,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface RunOptions {
  timeoutMs: number;
  /** Bytes of stderr kept for the error message; the rest is dropped as it comes. */
  maxStderr?: number;
}

/**
 * Runs a program with an argument list, never through a shell: nothing in a file name can become a command. Its
 * output is not kept (renditions are written to files named by Ferry); it is killed (SIGKILL) past the timeout.
 */
export function runTool(command: string, args: string[], options: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], shell: false });
    const max = options.maxStderr ?? 4096;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < max) stderr += chunk.toString('utf8').slice(0, max - stderr.length);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    let timedOut = false;
    timer.unref();
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ToolError(`${command}: ${err.message}`, err.code === 'ENOENT' || err.code === 'EACCES'));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      timedOut = signal === 'SIGKILL';
      if (code === 0) resolve();
      else
        reject(
          new ToolError(
            timedOut
              ? `${command} took longer than ${options.timeoutMs} ms`
              : `${command} exited with ${code ?? signal}: ${stderr.trim().slice(0, 500)}`,
          ),
        );
    });
  });
}

/** Whether a tool answers at all (its version flag), for the one log line at start when it is missing. */
export async function toolAvailable(command: string, versionArgs: string[]): Promise<boolean> {
  try {
    await runTool(command, versionArgs, { timeoutMs: 10_000 });
    return true;
  } catch (error) {
    // pdftoppm -v exits 0 on recent poppler, 99 on older ones: answering at all is enough.
    return !(error instanceof ToolError && error.missing);
  }
}
