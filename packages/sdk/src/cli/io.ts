import type { ProgressOutput } from './progress.js';

/**
 * Where answers are read from: the sender's verification code, the downloader's e-mail address, the password and
 * second-factor code of `ferry login`.
 */
export interface CliInput {
  /** True when a person types at it: `ferry` then asks (the question on stderr) instead of reading silently. */
  isTTY?: boolean;
  /** A terminal's raw mode (no echo, key by key): how a password is read without showing it. */
  setRawMode?(mode: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** What a command talks to: injected so tests can capture it. */
export interface CliIO {
  /** Only results: the link (send) or the saved paths (get). */
  stdout: { write(text: string): unknown };
  /** Progress, warnings and errors. */
  stderr: ProgressOutput;
  env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** Standard input, read only when an answer is needed; absent means there is nothing to read. */
  stdin?: CliInput;
}
