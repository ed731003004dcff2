import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

/** The machine's PostgreSQL and Redis (every dev machine and CI has both). Never skipped: absent means failed. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface FreshDatabase {
  name: string;
  url: string;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Drops the database (closing whatever still uses it). */
  drop(): Promise<void>;
}

async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is unreachable at ${redact(TEST_DATABASE_URL)} (${String(error)}). The reliability suite needs ` +
        'the machine PostgreSQL (set TEST_DATABASE_URL); it does not skip.',
    );
  }
  return client;
}

/** CREATE DATABASE ferry_rel_<random> on the machine PostgreSQL, empty (Ferry migrates it at start). */
export async function freshDatabase(): Promise<FreshDatabase> {
  const name = `ferry_rel_${randomBytes(6).toString('hex')}`;
  const admin = await adminClient();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(TEST_DATABASE_URL, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle client told to go by DROP DATABASE … WITH (FORCE) must not become an uncaught error.
  pool.on('error', () => undefined);
  return {
    name,
    url,
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async drop() {
      await pool.end();
      const client = await adminClient();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** PINGs Redis (AUTH and SELECT from the URL when given); throws a clear error when it does not answer PONG. */
export async function requireRedis(url = TEST_REDIS_URL): Promise<void> {
  const parsed = new URL(url);
  const commands: string[][] = [];
  if (parsed.password)
    commands.push(
      parsed.username
        ? ['AUTH', decodeURIComponent(parsed.username), decodeURIComponent(parsed.password)]
        : ['AUTH', decodeURIComponent(parsed.password)],
    );
  const db = parsed.pathname.slice(1);
  if (db) commands.push(['SELECT', db]);
  commands.push(['PING']);
  const resp = commands
    .map((c) => `*${c.length}\r\n${c.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`)
    .join('');
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect({ host: parsed.hostname, port: Number(parsed.port || 6379) });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 5 s'));
    }, 5000);
    socket.on('connect', () => socket.write(resp));
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      if (data.includes('PONG') || data.startsWith('-')) {
        clearTimeout(timer);
        socket.end();
        resolve(data);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  }).catch((error: unknown) => {
    throw new Error(
      `Redis is unreachable at ${redact(url)} (${String(error)}). The reliability suite needs the machine Redis ` +
        '(set TEST_REDIS_URL); it does not skip.',
    );
  });
  if (!answer.includes('+PONG'))
    throw new Error(`Redis at ${redact(url)} did not answer PONG: ${JSON.stringify(answer.slice(0, 200))}`);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
