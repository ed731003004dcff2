import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

/** Statement names by text: one entry per shape of a hot statement (a handful). */
const names = new Map<string, string>();

/**
 * Runs a statement as a named prepared statement: PostgreSQL parses and plans it once per connection instead of at
 * every call (planning a multi-part INSERT costs more than running it). Named by a hash of its text, so each shape
 * of a statement is prepared once; meant for the hot statements whose shapes are few (callers bound them).
 */
export async function runPrepared<T>(db: Database, query: SQL): Promise<T[]> {
  const internal = db as unknown as { dialect: PgDialect; session: PgSession };
  const built = internal.dialect.sqlToQuery(query);
  let name = names.get(built.sql);
  if (name === undefined) {
    name = `ferry_${createHash('sha256').update(built.sql).digest('base64url').slice(0, 24)}`;
    names.set(built.sql, name);
  }
  const result = (await internal.session.prepareQuery(built, undefined, name, false).execute()) as {
    rows: T[];
  };
  return result.rows;
}
