import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.ts';

// biome-ignore lint/suspicious/noExplicitAny: any database or transaction, before its tables are known
type AnyDb = Kysely<any>;

/** Tables of Wharf's first migration, never dropped since: a database holding one holds a Wharf. */
export const FIRST_TABLES = ['users', 'sites', 'releases', 'events'] as const;

/** Where the migrator records the migrations it ran. */
export const MIGRATIONS_TABLE = 'kysely_migration';

/**
 * Made by a restore before it changes anything, dropped once the restore finished and was
 * verified: while it exists, the database may hold half of a backup, and Wharf must not start on it.
 */
export const UNFINISHED_RESTORE_TABLE = 'unfinished_restore';

export interface UnfinishedRestore {
  backup: string;
  begun_at: string;
}

/** The tables of the schema Wharf works in (PostgreSQL), or of the SQLite file. */
export async function tablesOf(db: AnyDb): Promise<Set<string>> {
  const { rows } = isPostgres(db)
    ? await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(
        db,
      )
    : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  return new Set(rows.map((row) => row.name));
}

/** How many migrations the database records as run; none without the migrator's table. */
export async function migrationsRecorded(db: AnyDb, tables: Set<string>): Promise<number> {
  if (!tables.has(MIGRATIONS_TABLE)) return 0;
  const { rows } = await sql<{
    count: number | string;
  }>`select count(*) as count from ${sql.table(MIGRATIONS_TABLE)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

export async function unfinishedRestoreOf(db: AnyDb, tables: Set<string>): Promise<UnfinishedRestore | null> {
  if (!tables.has(UNFINISHED_RESTORE_TABLE)) return null;
  const { rows } =
    await sql<UnfinishedRestore>`select backup, begun_at from ${sql.table(UNFINISHED_RESTORE_TABLE)}`.execute(db);
  return rows[0] ?? { backup: 'an unknown backup', begun_at: 'an unknown time' };
}

/** Marks the database as being restored from `backup` (replacing an earlier restore's mark). */
export async function markRestoreBegun(db: AnyDb, backup: string) {
  await sql`create table if not exists ${sql.table(UNFINISHED_RESTORE_TABLE)} (backup text not null, begun_at text not null)`.execute(
    db,
  );
  await sql`delete from ${sql.table(UNFINISHED_RESTORE_TABLE)}`.execute(db);
  await sql`insert into ${sql.table(UNFINISHED_RESTORE_TABLE)} (backup, begun_at) values (${backup}, ${new Date().toISOString()})`.execute(
    db,
  );
}

/** The restore finished and was verified: Wharf may start on the database. */
export async function clearRestoreMark(db: AnyDb) {
  await sql`drop table if exists ${sql.table(UNFINISHED_RESTORE_TABLE)}`.execute(db);
}
