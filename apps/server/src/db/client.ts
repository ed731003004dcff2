import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Database = NodePgDatabase<typeof schema>;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

// bigint columns (sizes, counts) come back as JS numbers: every size Ferry handles is below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function connectDatabase(
  url: string,
  max = 20,
  onIdleError: (error: Error) => void = () => undefined,
): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client whose server went away (restart, failover, shutdown) must not crash the process; the pool
  // drops it and the next query connects anew.
  pool.on('error', onIdleError);
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** Runs the committed SQL migrations; an advisory lock keeps instances starting together from racing. */
export async function runMigrations(handle: DatabaseHandle, folder = MIGRATIONS_FOLDER): Promise<void> {
  const client = await handle.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migrate(drizzle(client, { schema }), { migrationsFolder: path.resolve(folder) });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
    client.release();
  }
}
