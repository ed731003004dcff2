import fs from 'node:fs/promises';
import { FerryProcess, freePort, tempDir } from '../../e2e/support/server.js';

export { FerryProcess, freePort, tempDir };

/**
 * Settings every reliability server gets unless a test says otherwise: quiet logs, quick SIGTERM, and no
 * per-address limits on anonymous creation (the suites create hundreds of transfers from one address).
 */
const BASE_ENV = {
  LOG_LEVEL: 'warn',
  SHUTDOWN_GRACE_SECONDS: '2',
  ANONYMOUS_TRANSFERS_PER_WINDOW: '1000000',
  ANONYMOUS_PENDING_UPLOAD_GB: '1000000',
};

/**
 * The Ferry processes (the built server, started as `npm start` starts it) of one test file, so that
 * `afterAll` ends exactly those — by their own child handle, never by name — and removes their data dirs.
 */
export class Fleet {
  private readonly processes = new Set<FerryProcess>();
  private readonly dirs = new Set<string>();

  /** Starts a server; `dataDir`/`port` of a killed one restart it on the same data. */
  async start(options: { env?: Record<string, string>; dataDir?: string; port?: number } = {}) {
    const dataDir = options.dataDir ?? (await tempDir('rel'));
    this.dirs.add(dataDir);
    const server = new FerryProcess(dataDir, options.port ?? (await freePort()), {
      ...BASE_ENV,
      ...options.env,
    });
    this.processes.add(server);
    await server.start();
    return server;
  }

  /** Starts the same data dir again (after a kill), on the same port unless told otherwise. */
  restart(server: FerryProcess, env: Record<string, string>, port = server.port) {
    return this.start({ env, dataDir: server.dataDir, port });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.processes].map((p) => p.stop().catch(() => undefined)));
    this.processes.clear();
    for (const dir of this.dirs) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    this.dirs.clear();
  }
}

/** Lines of a server's output at level ≥ 50 (error, fatal): what a 5xx leaves behind. */
export function serverErrors(server: FerryProcess, max = 5): string[] {
  return server.output
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line))
    .slice(-max);
}
