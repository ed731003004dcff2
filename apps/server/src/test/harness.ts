import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { publicOriginOf } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { createFerry, type Ferry, type FerryOverrides } from '../main.js';
import type { PaymentProvider } from '../payments/provider.js';
import { withDatabase } from './global-setup.js';

/** Redis of this machine and CI; suites that need it fail loudly when it is absent. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A fresh database copied from the migrated template; dropped when the run ends. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject('pgServerUrl');
  const name = `ferry_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

export interface TestFerry extends Ferry {
  baseUrl: string;
  /** Where the links Ferry stores and mails point: PUBLIC_URL, else http://localhost:<its port>. */
  publicOrigin: string;
  dataDir: string;
  databaseUrl: string;
}

/**
 * A real Ferry listening on a loopback port, on its own database and data dir. Pass the same `dataDir` and
 * `databaseUrl` again to "restart" it.
 */
export async function startTestFerry(
  options: {
    dataDir?: string;
    databaseUrl?: string;
    env?: Record<string, string>;
    /** Billing's clock (trials, periods, dunning), for tests that move time. */
    now?: () => Date;
    /** Card providers (a stand-in of a provider's API behind the PaymentProvider port). */
    cardProviders?: PaymentProvider[];
    /** Parts a test puts in place of real ones (its own handler of provider events). */
    overrides?: FerryOverrides;
  } = {},
): Promise<TestFerry> {
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-test-data-')));
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(dataDir, 'no-web'),
    PORT: '0',
    // Every test creates its anonymous transfers from 127.0.0.1: the per-address limits would stop the suites.
    // The tests of those limits set their own.
    ANONYMOUS_TRANSFERS_PER_WINDOW: '1000000',
    ANONYMOUS_PENDING_UPLOAD_GB: '1000000',
    ...options.env,
  });
  const ferry = await createFerry(config, pino({ level: 'warn' }), {
    now: options.now,
    cardProviders: options.cardProviders,
    ...options.overrides,
  });
  const address = await ferry.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    ...ferry,
    baseUrl: address,
    publicOrigin: publicOriginOf(config, ferry.app.server),
    dataDir,
    databaseUrl,
  };
}

/** Runs one SQL query on a test Ferry's database, to check what was really stored. */
export async function query<T = Record<string, unknown>>(
  ferry: TestFerry,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: ferry.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
