import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Db } from './schema.ts';
import { withStatementCache } from './statementCache.ts';

// PostgreSQL answers bigint columns as strings; release sizes fit a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

/** The embedded database's file in the data directory. */
export const SQLITE_FILE = 'wharf.sqlite';

export interface DbOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to work in; tests give each run its own. */
  schema?: string;
}

export function openDb({ dataDir, databaseUrl, schema }: DbOptions): Db {
  if (databaseUrl) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    return new Kysely({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, SQLITE_FILE));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}
