import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { checkpointInThread } from './checkpoints.ts';
import { openPool } from './pool.ts';
import type { Database, Db } from './schema.ts';
import { sqliteKysely } from './sqliteDialect.ts';
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
  /**
   * SQLite: who checkpoints the write-ahead log. `thread`: a thread of this process
   * (`checkpoints.ts`), for the connection of a process alone or a cluster's primary; `elsewhere`:
   * that primary's thread, for its workers' connections. Unset, SQLite does, in the committing call.
   */
  checkpoints?: 'thread' | 'elsewhere';
  /** PostgreSQL: what this process is, as `pg_stat_activity` shows its connections (default `wharf`). */
  applicationName?: string;
}

export function openDb(options: DbOptions): Db {
  const { dataDir, databaseUrl, schema, checkpoints: checkpointer, applicationName = 'wharf' } = options;
  if (databaseUrl) {
    return new Kysely({ dialect: new PostgresDialect({ pool: openPool({ databaseUrl, schema, applicationName }) }) });
  }
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SQLITE_FILE);
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  if (checkpointer === 'elsewhere') database.pragma('wal_autocheckpoint = 0');
  const checkpoints = checkpointer === 'thread' ? checkpointInThread(database, file) : null;
  // Closed after this connection: the thread's is then the last, and its close removes the log's files.
  return sqliteKysely<Database>(withStatementCache(database), async () => checkpoints?.stop());
}
