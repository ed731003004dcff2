import { CliError, ExitCode } from './exit-codes.js';
import type { CliInput, CliIO } from './io.js';

/** Why no line came. */
export type NoLine = 'end' | 'timeout';

/**
 * Reads lines from an input one at a time, on demand: the stream flows only while a line is awaited, so a
 * terminal is not read ahead and the process can exit once done. Lines piped in early wait in the buffer.
 */
export class LineReader {
  private buffer = '';
  private ended = false;
  private attached = false;
  private wake: (() => void) | null = null;
  private readonly onData = (chunk: string | Buffer) => {
    this.buffer += String(chunk);
    this.wake?.();
  };
  private readonly onEnd = () => {
    this.ended = true;
    this.wake?.();
  };

  constructor(private readonly input: CliInput | undefined) {}

  /** The next line without its line ending, or why there is none (end of input, or `timeoutMs` passed). */
  async readLine(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string | NoLine> {
    const input = this.input;
    if (!input) return 'end';
    if (!this.attached) {
      this.attached = true;
      input.setEncoding?.('utf8');
      input.on('data', this.onData);
      input.on('end', this.onEnd);
      input.on('close', this.onEnd);
      input.on('error', this.onEnd);
    }
    const deadline =
      options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
    for (;;) {
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        input.pause();
        return line;
      }
      if (this.ended) {
        const last = this.buffer;
        this.buffer = '';
        return last === '' ? 'end' : last;
      }
      if (Date.now() >= deadline) {
        input.pause();
        return 'timeout';
      }
      input.resume();
      await this.waitForInput(deadline - Date.now(), options.signal);
    }
  }

  private waitForInput(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.wake = null;
      };
      const onAbort = () => {
        done();
        this.input?.pause();
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      const timer = Number.isFinite(ms)
        ? setTimeout(() => {
            done();
            resolve();
          }, ms)
        : undefined;
      this.wake = () => {
        done();
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stops reading for good. */
  close(): void {
    const input = this.input;
    if (!input || !this.attached) return;
    input.removeListener('data', this.onData);
    input.removeListener('end', this.onEnd);
    input.removeListener('close', this.onEnd);
    input.removeListener('error', this.onEnd);
    input.pause();
    this.attached = false;
  }
}

/** Asks a person on the terminal, or reads answers piped into stdin. */
export class Asker {
  private readonly reader: LineReader;

  constructor(private readonly io: CliIO) {
    this.reader = new LineReader(io.stdin);
  }

  /** Whether a person can be asked: stdin is a terminal. */
  get interactive(): boolean {
    return this.io.stdin?.isTTY === true;
  }

  /** Writes the question to stderr and reads the answer typed; null at end of input (Ctrl-D). */
  async ask(question: string): Promise<string | null> {
    this.io.stderr.write(`${question} `);
    const answer = await this.reader.readLine({ signal: this.io.signal });
    if (answer === 'end' || answer === 'timeout') {
      this.io.stderr.write('\n');
      return null;
    }
    return answer.trim();
  }

  /**
   * Asks without showing what is typed (a password, a token): the terminal is put in raw mode and nothing is
   * echoed. Null at end of input (Ctrl-D on an empty line); Ctrl-C ends `ferry` (exit 130). An input that is
   * not a real terminal (no raw mode) is read as a plain line.
   */
  async askHidden(question: string): Promise<string | null> {
    const input = this.io.stdin;
    const setRawMode = input?.setRawMode;
    if (!input || !setRawMode) return this.ask(question);
    this.io.stderr.write(`${question} `);
    // The line reader must not see the keys: detach it (it re-attaches on its next read).
    this.reader.close();
    const answer = await readHidden(input, (mode) => setRawMode.call(input, mode), this.io.signal);
    this.io.stderr.write('\n');
    if (answer === 'interrupt') throw new CliError('interrupted', ExitCode.INTERRUPTED);
    return answer;
  }

  /**
   * One line from stdin when it is not a terminal (a pipe or a file): null when there is none (end of input,
   * or nothing within `timeoutMs`). `onSlow` is called if the line takes more than a moment to come.
   */
  async readPiped(options: { timeoutMs: number; onSlow?: () => void }): Promise<string | null> {
    const slow = options.onSlow ? setTimeout(options.onSlow, 2000) : undefined;
    try {
      const line = await this.reader.readLine({ signal: this.io.signal, timeoutMs: options.timeoutMs });
      return line === 'end' || line === 'timeout' ? null : line.trim();
    } finally {
      clearTimeout(slow);
    }
  }

  close(): void {
    this.reader.close();
  }
}

/**
 * Reads keys from a terminal in raw mode until Enter, echoing nothing. Backspace deletes, Ctrl-U clears, escape
 * sequences (arrow keys…) and other control keys are ignored. Resolves with the text, null for Ctrl-D on an
 * empty line (or the end of input), `'interrupt'` for Ctrl-C; the terminal's mode is restored in every case.
 */
export function readHidden(
  input: CliInput,
  setRawMode: (mode: boolean) => unknown,
  signal?: AbortSignal,
): Promise<string | null | 'interrupt'> {
  return new Promise((resolve, reject) => {
    let text = '';
    /** Inside an escape sequence: 1 just after ESC, 2 inside `ESC [` or `ESC O` until its final character. */
    let inEscape = 0;
    const finish = (result: string | null | 'interrupt' | Error) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('close', onEnd);
      signal?.removeEventListener('abort', onAbort);
      setRawMode(false);
      input.pause();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: string | Buffer) => {
      for (const char of String(chunk)) {
        if (inEscape === 1) {
          inEscape = char === '[' || char === 'O' ? 2 : 0;
          continue;
        }
        if (inEscape === 2) {
          if (/[A-Za-z~]/.test(char)) inEscape = 0;
          continue;
        }
        const code = char.codePointAt(0) ?? 0;
        if (char === '\r' || char === '\n') return finish(text);
        if (code === 3) return finish('interrupt');
        if (code === 4) {
          if (text === '') return finish(null);
          continue;
        }
        if (code === 0x7f || code === 8) text = Array.from(text).slice(0, -1).join('');
        else if (code === 0x15) text = '';
        else if (code === 0x1b) inEscape = 1;
        else if (code >= 0x20) text += char;
      }
    };
    const onEnd = () => finish(text === '' ? null : text);
    const onAbort = () => finish(signal?.reason instanceof Error ? signal.reason : new Error('interrupted'));
    if (signal?.aborted) return onAbort();
    setRawMode(true);
    input.setEncoding?.('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    signal?.addEventListener('abort', onAbort, { once: true });
    input.resume();
  });
}
