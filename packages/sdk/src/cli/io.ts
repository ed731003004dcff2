import type { ProgressOutput } from './progress.js';

/** What a command talks to: injected so tests can capture it. */
export interface CliIO {
  /** Only results: the link (send) or the saved paths (get). */
  stdout: { write(text: string): unknown };
  /** Progress, warnings and errors. */
  stderr: ProgressOutput;
  env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}
