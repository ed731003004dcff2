import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from './embedded.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A pino logger whose warnings the test can read. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string; port?: number }> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('embedded PostgreSQL', () => {
  it('starts on another port when the one chosen for it is taken before PostgreSQL binds it', async () => {
    // Another process's socket on the port the first choice names: what a server starting at the same moment does.
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    const takenPort = (squatter.address() as net.AddressInfo).port;
    const offered: number[] = [];
    const ports = async () => {
      const port = offered.length === 0 ? takenPort : await freePort();
      offered.push(port);
      return port;
    };

    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-embedded-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const { logger, lines } = recordingLogger();
    let database: EmbeddedDatabase | null = null;
    cleanups.push(async () => database?.stop());
    database = await startEmbeddedPostgres(dataDir, logger, { ports });

    expect(offered).toHaveLength(2);
    expect(new URL(database.url).port).toBe(String(offered[1]));
    expect(offered[1]).not.toBe(takenPort);
    expect(lines.some((line) => line.port === takenPort && /taken meanwhile/.test(line.msg))).toBe(true);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
      expect(rows[0]?.db).toBe('ferry');
    } finally {
      await client.end();
    }
  });

  it('gives up with PostgreSQL’s own words when every port offered is taken', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    const takenPort = (squatter.address() as net.AddressInfo).port;
    let tries = 0;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-embedded-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));

    const started = startEmbeddedPostgres(dataDir, recordingLogger().logger, {
      ports: async () => {
        tries++;
        return takenPort;
      },
    });

    await expect(started).rejects.toThrow(/did not start.*could not bind/is);
    expect(tries).toBe(3);
  });
});
