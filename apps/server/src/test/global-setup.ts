import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { connectDatabase, runMigrations } from '../db/client.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../db/embedded.js';
import { JobQueue } from '../jobs/queue.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server URL (no database) where each test file creates its own database from the template. */
    pgServerUrl: string;
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL for the whole run: the machine's when TEST_DATABASE_URL is set (CI's scale-out pass), else an
 * embedded cluster in a temp dir. Migrations run once into a template database; every test file then gets
 * its own copy with CREATE DATABASE … TEMPLATE, which takes milliseconds.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | null = null;
  let tmp: string | null = null;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-test-pg-'));
    embedded = await startEmbeddedPostgres(tmp, pino({ level: 'warn' }));
    serverUrl = embedded.url;
  }
  const template = `ferry_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const handle = connectDatabase(withDatabase(serverUrl, template), 2);
  await runMigrations(handle);
  await handle.close();
  // pg-boss installs its own schema on first start; doing it once here keeps every copy ready to start fast.
  const jobs = new JobQueue({
    databaseUrl: withDatabase(serverUrl, template),
    queues: [],
    logger: pino({ level: 'warn' }),
  });
  await jobs.start();
  await jobs.stop({ graceful: true, timeoutMs: 5000 });
  project.provide('pgServerUrl', serverUrl);
  project.provide('templateDatabase', template);

  return async () => {
    const dbs = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`ferry_test_${process.pid}_%`, template],
    );
    for (const { datname } of dbs.rows)
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
