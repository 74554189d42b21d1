import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { MIGRATIONS_TABLE, tablesOf, UNFINISHED_RESTORE_TABLE } from '../db/databaseState.ts';
import { isPostgres } from '../db/dialect.ts';
import { migrationNames, runMigrations } from '../db/migrate.ts';
import { sqliteKysely } from '../db/sqliteDialect.ts';
import type { Sealer } from '../lib/secrets.ts';
import { BackupError } from './manifest.ts';

// biome-ignore lint/suspicious/noExplicitAny: a database of either kind, read table by table
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

/**
 * Rows per insert: well under the bound parameters either database takes in one statement
 * (SQLite 32766, PostgreSQL 65535) for Wharf's widest table, and few statements per table.
 */
const ROWS_PER_INSERT = 500;

/**
 * Tables the copy leaves out: the migrator's own (the target's migrations write them), the
 * restore's mark, and what triggers keep from other tables (018: `list_counts`, and SQLite's
 * full-text index of release names with its shadow tables), made again as the rows arrive.
 */
const notCopied = (table: string) =>
  table.startsWith(MIGRATIONS_TABLE) ||
  table === UNFINISHED_RESTORE_TABLE ||
  table === 'list_counts' ||
  table.startsWith('release_search') ||
  table.startsWith('sqlite_');

/** An SQLite database file as Kysely reads it, without the settings of a running Wharf's (no write-ahead log). */
export function openSqliteFile(file: string, options: { readonly: boolean }): AnyDb {
  const database = new SQLite(file, { readonly: options.readonly, fileMustExist: options.readonly });
  return sqliteKysely(database);
}

export function mustBeKnownMigration(migration: string) {
  const known = migrationNames();
  if (!known.includes(migration)) {
    throw new BackupError(
      `The backup's database is at migration ${migration}, which this Wharf does not know (it knows up to ${known.at(-1)}): restore it with the version of Wharf that made it, or a newer one`,
    );
  }
}

/**
 * Every value of Wharf's tables is text, an integer or null in both databases (001: only text,
 * integer and bigint columns; flags are 0 and 1, times ISO text, JSON text, the event counter a
 * row of `event_sequence`), so a row crosses unchanged. A column of another type would not.
 */
function mustBePortable(table: string, row: Row) {
  for (const [column, value] of Object.entries(row)) {
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw new BackupError(
        `${table}.${column} holds a ${typeof value}, which the copy between databases cannot carry`,
      );
    }
  }
}

/** A table's rows in batches, in the source's transaction: its snapshot stays the moment copied. */
async function* postgresRows(db: AnyDb, table: string): AsyncGenerator<Row[]> {
  // Wharf's pool gives Kysely no cursor to stream with: one of SQL's own, ended with the transaction.
  const cursor = sql.id(`copy_${table}`);
  await sql`declare ${cursor} no scroll cursor for select * from ${sql.table(table)}`.execute(db);
  for (;;) {
    const { rows } = await sql<Row>`fetch forward ${sql.lit(ROWS_PER_INSERT)} from ${cursor}`.execute(db);
    if (rows.length === 0) return;
    yield rows;
  }
}

/** A table's rows in batches, read from an SQLite file as the statement steps through them. */
async function* sqliteRows(db: AnyDb, table: string): AsyncGenerator<Row[]> {
  let batch: Row[] = [];
  for await (const row of db.selectFrom(table).selectAll().stream()) {
    batch.push(row);
    if (batch.length === ROWS_PER_INSERT) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function copyTable(source: AnyDb, target: AnyDb, table: string) {
  // Rows a migration put in (010's event counter at 0) are the source's too, as they are now.
  await target.deleteFrom(table).execute();
  let copied = 0;
  const rowsOf = isPostgres(source) ? postgresRows : sqliteRows;
  for await (const rows of rowsOf(source, table)) {
    for (const row of rows) mustBePortable(table, row);
    try {
      await target.insertInto(table).values(rows).execute();
    } catch (error) {
      throw new BackupError(`Copying the rows of ${table} failed: ${(error as Error).message}`, { cause: error });
    }
    copied += rows.length;
  }
  return copied;
}

/** The target's migrations made it empty: nothing is sealed, so no secret is needed. */
const nothingToSeal = (): Sealer => {
  throw new Error('An empty database has nothing to seal');
};

export interface PortableCopy {
  /** The database read: a PostgreSQL transaction (its snapshot), or an SQLite file. */
  source: AnyDb;
  /** The database made a copy of the source, of either kind, empty or emptied by `clear`. */
  target: AnyDb;
  /** The source's last migration, which the target's tables are made to. */
  migration: string;
  /** Removes what the target held before, in the copy's transaction. */
  clear?: (db: AnyDb) => Promise<void>;
}

/**
 * Makes `target` hold what `source` holds, whatever the kinds of the two: Wharf's own migrations
 * make the tables, indexes and triggers in the target's dialect, then every table's rows are
 * copied through Kysely. All in one transaction of the target: it holds the whole copy, or what
 * it held before. Answers the number of rows copied.
 */
export async function copyDatabase({ source, target, migration, clear }: PortableCopy): Promise<number> {
  mustBeKnownMigration(migration);
  return target.connection().execute(async (db) => {
    // Kysely's migrator cannot run inside a Kysely transaction: the transaction is the connection's own.
    await sql`begin`.execute(db);
    try {
      await clear?.(db);
      await runMigrations(db, nothingToSeal, { target: migration, inOpenTransaction: true });
      let rows = 0;
      for (const table of [...(await tablesOf(db))].filter((name) => !notCopied(name)).sort()) {
        rows += await copyTable(source, db, table);
      }
      await sql`commit`.execute(db);
      return rows;
    } catch (error) {
      // A connection that broke took its transaction with it: the error that broke the copy is the one to tell.
      await sql`rollback`.execute(db).catch(() => undefined);
      throw error;
    }
  });
}
