import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { openDb } from '../db/connection.ts';
import { tablesOf, UNFINISHED_RESTORE_TABLE } from '../db/databaseState.ts';
import { BackupError, DATABASE_FILES } from './manifest.ts';
import { copyDatabase, mustBeKnownMigration, openSqliteFile } from './portableDatabase.ts';
import { claimForRestore, mustBeWholeSqlite } from './restoreClaim.ts';

// biome-ignore lint/suspicious/noExplicitAny: a database before its tables are known
type AnyDb = Kysely<any>;

async function mustHaveSchema(db: AnyDb) {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  if (!rows[0]?.schema) {
    throw new BackupError(
      "DATABASE_URL's search_path names no schema that exists: create it, or leave search_path out to use public",
    );
  }
}

/**
 * What an earlier installation, or an earlier try of this restore, left in Wharf's schema, but the
 * restore's mark: every table, and the functions its triggers call (018), which the migrations
 * make again.
 */
async function dropEarlierTables(db: AnyDb) {
  const { rows: functions } = await sql<{ name: string }>`
    select distinct tr.tgfoid::regprocedure::text as name
    from pg_trigger tr join pg_class rel on rel.oid = tr.tgrelid
    where rel.relnamespace = (select oid from pg_namespace where nspname = current_schema())
      and not tr.tgisinternal`.execute(db);
  for (const table of await tablesOf(db)) {
    if (table !== UNFINISHED_RESTORE_TABLE) await sql`drop table ${sql.table(table)} cascade`.execute(db);
  }
  for (const { name } of functions) await sql`drop function ${sql.raw(name)}`.execute(db);
}

/**
 * A backup of an SQLite Wharf put into PostgreSQL, to move up to several nodes: the schema
 * DATABASE_URL has Wharf work in is claimed and marked in a transaction of its own, then the
 * backup's database is copied into it row by row in another (`copyDatabase`). A copy that fails
 * leaves the schema as it was, with the mark that keeps Wharf from starting on it. Answers the
 * rows copied.
 */
export async function restoreSqliteIntoPostgres(databaseUrl: string, dir: string, migration: string, force: boolean) {
  const file = path.join(dir, DATABASE_FILES.sqlite);
  mustBeWholeSqlite(file);
  mustBeKnownMigration(migration);
  const target = openDb({ dataDir: '', databaseUrl, applicationName: 'wharf restore' });
  const source = openSqliteFile(file, { readonly: true });
  try {
    const holdsTables = await target.transaction().execute(async (trx) => {
      await mustHaveSchema(trx);
      return claimForRestore(trx, dir, force);
    });
    return await copyDatabase({ source, target, migration, clear: holdsTables ? dropEarlierTables : undefined });
  } finally {
    await source.destroy();
    await target.destroy();
  }
}
