import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { markRestoreBegun, tablesOf, UNFINISHED_RESTORE_TABLE, unfinishedRestoreOf } from '../db/databaseState.ts';
import { BackupError } from './manifest.ts';

// biome-ignore lint/suspicious/noExplicitAny: a database before its tables are known
type AnyDb = Kysely<any>;

/**
 * Marks the database as being restored from `backup`, in the caller's transaction, after making
 * sure it holds nothing the operator did not mean to replace: it must be empty, hold an earlier
 * restore that did not finish, or be replaced on purpose (`force`). Whether it holds tables.
 */
export async function claimForRestore(db: AnyDb, backup: string, force: boolean): Promise<boolean> {
  const tables = await tablesOf(db);
  const unfinished = await unfinishedRestoreOf(db, tables);
  tables.delete(UNFINISHED_RESTORE_TABLE);
  if (tables.size > 0 && !unfinished && !force) {
    const some = [...tables].slice(0, 3).join(', ');
    throw new BackupError(
      `The database already holds tables (${some}…); stop Wharf and pass --force to replace them, or restore into an empty database`,
    );
  }
  await markRestoreBegun(db, backup);
  return tables.size > 0;
}

/** SQLite's own check of the backup's copy, before the copy replaces anything. */
export function mustBeWholeSqlite(file: string) {
  let problems: string[];
  try {
    const database = new SQLite(file, { fileMustExist: true });
    try {
      problems = (database.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
    } finally {
      database.close();
    }
  } catch (error) {
    throw new BackupError(`The backup's database cannot be read: ${(error as Error).message}`);
  }
  if (problems.join() !== 'ok') {
    throw new BackupError(`The backup's database is damaged: ${problems.slice(0, 3).join('; ')}`);
  }
}
