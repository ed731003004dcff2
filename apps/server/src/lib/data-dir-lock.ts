import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/**
 * Holds DATA_DIR for this process by listening on a unix socket inside it. A live owner answers connections;
 * a socket left by a killed process refuses them, so it is stale and can be replaced. Unlike a pid file this
 * cannot be fooled by pid reuse, and the kernel releases it when the process dies, even by SIGKILL.
 */
export class DataDirLock {
  private constructor(
    private readonly server: net.Server,
    readonly socketPath: string,
  ) {}

  static async acquire(dataDir: string): Promise<DataDirLock> {
    await fs.mkdir(dataDir, { recursive: true });
    const socketPath = await lockAddress(dataDir);
    if (await isAlive(socketPath)) {
      throw new Error(`Another Ferry process is using ${dataDir}. Stop it first, or set another DATA_DIR.`);
    }
    if (!socketPath.startsWith('\0')) await fs.rm(socketPath, { force: true });
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined); // a prober that hangs up at once must not crash the owner
      socket.end(`${process.pid}\n`);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    server.unref();
    return new DataDirLock(server, socketPath);
  }

  async release(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (!this.socketPath.startsWith('\0')) await fs.rm(this.socketPath, { force: true });
  }
}

/**
 * On Linux an abstract socket named after the data dir's real path: no file to go stale and no path-length
 * limit. Elsewhere a socket file inside the data dir.
 */
async function lockAddress(dataDir: string): Promise<string> {
  if (process.platform === 'linux') {
    const real = await fs.realpath(dataDir);
    return `\0ferry-data-${createHash('sha256').update(real).digest('hex').slice(0, 32)}`;
  }
  return path.join(dataDir, 'ferry.lock.sock');
}

function isAlive(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
