import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The EICAR anti-virus test file: harmless, and detected by every scanner as "Eicar-Test-Signature". */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** A private clamd on a local socket, with a one-line signature database for EICAR (no network, no real DB). */
export interface TestClamd {
  socket: string;
  /** Settings for Ferry: CLAMD_SOCKET. */
  env: Record<string, string>;
  /** Stops clamd (the socket then refuses connections, as in an outage). */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same socket and database. */
  start(): Promise<void>;
}

function clamdPath(): string {
  for (const candidate of ['/usr/sbin/clamd', '/usr/local/sbin/clamd']) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {}
  }
  throw new Error(
    'clamd is not installed: the scanning tests need it (Debian: apt-get install clamav-daemon; .ci/run installs it)',
  );
}

async function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = net.createConnection(socket);
    let reply = '';
    conn.on('data', (d) => {
      reply += d.toString();
    });
    conn.on('connect', () => conn.end('zPING\0'));
    conn.on('close', () => resolve(reply.startsWith('PONG')));
    conn.on('error', () => resolve(false));
  });
}

/** Starts clamd in a temp dir; `streamMaxLength` is clamd's StreamMaxLength (e.g. '1M'). */
export async function startTestClamd(options: { streamMaxLength?: string } = {}): Promise<TestClamd> {
  const binary = clamdPath();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-clamd-'));
  const db = path.join(dir, 'db');
  await fs.mkdir(db);
  const md5 = createHash('md5').update(EICAR).digest('hex');
  await fs.writeFile(path.join(db, 'local.hdb'), `${md5}:${Buffer.byteLength(EICAR)}:Eicar-Test-Signature\n`);
  const socket = path.join(dir, 'clamd.sock');
  const conf = path.join(dir, 'clamd.conf');
  await fs.writeFile(
    conf,
    [
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${db}`,
      `PidFile ${path.join(dir, 'clamd.pid')}`,
      `TemporaryDirectory ${dir}`,
      'Foreground yes',
      `LogFile ${path.join(dir, 'clamd.log')}`,
      `StreamMaxLength ${options.streamMaxLength ?? '25M'}`,
      ...(process.getuid?.() === 0 ? ['User root'] : []),
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;
  let output = '';
  const start = async () => {
    const running = child as ChildProcess | null;
    if (running && running.exitCode === null) return;
    await fs.rm(socket, { force: true });
    const proc = spawn(binary, ['--config-file', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout?.on('data', (d) => {
      output += d.toString();
    });
    proc.stderr?.on('data', (d) => {
      output += d.toString();
    });
    const deadline = Date.now() + 60_000;
    while (!(await answers(socket))) {
      if (proc.exitCode !== null) throw new Error(`clamd exited (${proc.exitCode}): ${output}`);
      if (Date.now() > deadline) throw new Error(`clamd did not answer within 60 s: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const stop = async () => {
    const proc = child as ChildProcess | null;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
    await fs.rm(socket, { force: true });
  };
  await start();
  return {
    socket,
    env: { CLAMD_SOCKET: socket },
    stop,
    start,
  };
}
