import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/main.js');

/** The node flags of `npm start` (the root package.json), so that servers run here run as users run them. */
export const SERVER_NODE_FLAGS: string[] = (() => {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const words = String(pkg.scripts.start).trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'apps/server/dist/main.js')
    throw new Error(`npm start is not "node [flags] apps/server/dist/main.js": ${pkg.scripts.start}`);
  return words.slice(1, -1);
})();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

export async function tempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `ferry-e2e-${prefix}-`));
}

/** A Ferry server process started exactly as `npm start` starts it, on the embedded default. */
export class FerryProcess {
  child: ChildProcess | null = null;
  output = '';

  constructor(
    readonly dataDir: string,
    readonly port: number,
    private readonly env: Record<string, string> = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(options: { dataDir?: string; port?: number; env?: Record<string, string> } = {}) {
    const server = new FerryProcess(
      options.dataDir ?? (await tempDir('data')),
      options.port ?? (await freePort()),
      options.env,
    );
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    this.child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATA_DIR: this.dataDir,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        // No metrics listener: several servers start at once, and one taking a port with "any free port" could take
        // the app port another server was handed by freePort() a moment before (EADDRINUSE at its listen).
        METRICS_PORT: 'off',
        // Links in answers and mails on the address the tests reach the server at (else http://localhost:PORT).
        PUBLIC_URL: this.url,
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (c) => {
      this.output += c;
    });
    this.child.stderr!.on('data', (c) => {
      this.output += c;
    });
    const exited = new Promise<never>((_, reject) =>
      this.child!.once('exit', (code) =>
        reject(new Error(`ferry exited with ${code} before it was ready:\n${this.output}`)),
      ),
    );
    await Promise.race([this.waitReady(), exited]);
  }

  private async waitReady(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.ok) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`ferry did not become ready:\n${this.output}`);
  }

  /** Ends the process the hard way, as a crash or an OOM kill would. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
    this.child = null;
  }

  async stop(): Promise<void> {
    await this.kill('SIGTERM');
  }
}
