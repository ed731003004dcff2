import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from './io.js';
import { Asker, LineReader } from './prompt.js';

function io(stdin: PassThrough | undefined, isTTY = false) {
  let stderr = '';
  if (stdin) Object.assign(stdin, { isTTY });
  const controller = new AbortController();
  const value: CliIO = {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    signal: controller.signal,
    stdin,
  };
  return { io: value, controller, stderr: () => stderr };
}

describe('LineReader', () => {
  it('reads piped lines one at a time, CRLF or LF, keeping what came early', async () => {
    const input = new PassThrough();
    input.end('123456\r\nsecond\nlast');
    const reader = new LineReader(input);
    expect(await reader.readLine()).toBe('123456');
    expect(await reader.readLine()).toBe('second');
    expect(await reader.readLine()).toBe('last');
    expect(await reader.readLine()).toBe('end');
  });

  it('waits for a line written later, and says "end" for an empty input or none at all', async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    const pending = reader.readLine();
    setTimeout(() => input.write('65'), 10);
    setTimeout(() => input.write('4321\n'), 30);
    expect(await pending).toBe('654321');
    input.end();
    expect(await reader.readLine()).toBe('end');
    expect(await new LineReader(undefined).readLine()).toBe('end');
  });

  it('gives up after the timeout, and rejects when aborted', async () => {
    const input = new PassThrough();
    const reader = new LineReader(input);
    expect(await reader.readLine({ timeoutMs: 30 })).toBe('timeout');
    const controller = new AbortController();
    const pending = reader.readLine({ signal: controller.signal });
    controller.abort(new Error('interrupted'));
    await expect(pending).rejects.toThrow('interrupted');
    reader.close();
  });
});

describe('Asker', () => {
  it('asks on a terminal: the question on stderr, the answer trimmed; null on Ctrl-D', async () => {
    const stdin = new PassThrough();
    const t = io(stdin, true);
    const asker = new Asker(t.io);
    expect(asker.interactive).toBe(true);
    const answer = asker.ask('Enter the 6-digit code sent to a@b.example:');
    stdin.write(' 123456 \n');
    expect(await answer).toBe('123456');
    expect(t.stderr()).toBe('Enter the 6-digit code sent to a@b.example: ');
    stdin.end();
    expect(await asker.ask('again:')).toBeNull();
    asker.close();
  });

  it('reads a piped line without asking, and says so when it takes a while', async () => {
    const stdin = new PassThrough();
    const t = io(stdin);
    const asker = new Asker(t.io);
    expect(asker.interactive).toBe(false);
    stdin.end('654321\n');
    expect(await asker.readPiped({ timeoutMs: 1000, onSlow: () => t.io.stderr.write('slow') })).toBe(
      '654321',
    );
    expect(t.stderr()).toBe('');
    expect(await asker.readPiped({ timeoutMs: 1000 })).toBeNull();
    expect(new Asker(io(undefined).io).interactive).toBe(false);
  });
});

describe('hidden answers', () => {
  /** A terminal stand-in: a stream with raw mode, recording each switch. */
  function terminal() {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, modes: [] as boolean[] });
    Object.assign(stdin, { setRawMode: (mode: boolean) => stdin.modes.push(mode) });
    return stdin;
  }

  it('reads a password without echo: raw mode on, then off; backspace, Ctrl-U and arrow keys handled', async () => {
    const stdin = terminal();
    const t = io(stdin, true);
    const asker = new Asker(t.io);
    const answer = asker.askHidden('Password:');
    stdin.write('wrong\u0015sec');
    stdin.write('x\u007fr\u001b[De\u001bOAt pass\r');
    expect(await answer).toBe('secret pass');
    expect(stdin.modes).toEqual([true, false]);
    expect(t.stderr()).toBe('Password: \n'); // nothing typed shows
    asker.close();
  });

  it('gives null on Ctrl-D, exit 130 on Ctrl-C, and restores the terminal either way', async () => {
    const stdin = terminal();
    const asker = new Asker(io(stdin, true).io);
    const none = asker.askHidden('Password:');
    stdin.write('\u0004');
    expect(await none).toBeNull();
    const interrupted = asker.askHidden('Password:');
    stdin.write('abc\u0003');
    await expect(interrupted).rejects.toMatchObject({ exitCode: 130 });
    expect(stdin.modes).toEqual([true, false, true, false]);
    // A plain question after a hidden one still reads lines.
    const email = asker.ask('E-mail:');
    stdin.write('ann@example.com\n');
    expect(await email).toBe('ann@example.com');
    asker.close();
  });

  it('reads a plain line when the input has no raw mode (not a real terminal)', async () => {
    const stdin = new PassThrough();
    const asker = new Asker(io(stdin, true).io);
    const answer = asker.askHidden('Password:');
    stdin.write('s3cret\n');
    expect(await answer).toBe('s3cret');
    asker.close();
  });
});
