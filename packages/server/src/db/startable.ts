import type { Kysely } from 'kysely';
import { ConfigError } from '../config/types.ts';
import { FIRST_TABLES, migrationsRecorded, tablesOf, unfinishedRestoreOf } from './databaseState.ts';

const ELSEWHERE = 'or point DATABASE_URL (or WHARF_DATA_DIR) at the database you meant.';

/**
 * Refuses, before anything migrates or writes, a database Wharf would otherwise take for
 * something it is not: one a restore began and did not finish (part of a backup, or an empty
 * database, would start as a new installation), and one whose tables and migration record
 * disagree (the migrator would run the first migration over existing tables, or none over
 * missing ones).
 */
// biome-ignore lint/suspicious/noExplicitAny: checked before its tables are known
export async function mustBeStartable(db: Kysely<any>) {
  const tables = await tablesOf(db);
  const restore = await unfinishedRestoreOf(db, tables);
  if (restore) {
    throw new ConfigError(
      `This database holds a restore that did not finish (from ${restore.backup}, begun ${restore.begun_at}).\n` +
        '  Wharf does not start on it: it may hold part of the backup, or nothing. Run the restore again\n' +
        `  (wharf-server restore ${restore.backup}), which replaces what the unfinished one left,\n  ${ELSEWHERE}`,
    );
  }
  const recorded = await migrationsRecorded(db, tables);
  const present = FIRST_TABLES.filter((table) => tables.has(table));
  if (recorded === 0 && present.length > 0) {
    throw new ConfigError(
      `This database holds Wharf's tables (${present.join(', ')}) but no record of the migrations that made them.\n` +
        '  It is not a new installation, and Wharf cannot tell its version: restore it from a backup\n' +
        `  (wharf-server restore DIR --force), ${ELSEWHERE}`,
    );
  }
  const missing = FIRST_TABLES.filter((table) => !tables.has(table));
  if (recorded > 0 && missing.length > 0) {
    throw new ConfigError(
      `This database records ${recorded} of Wharf's migrations but lacks their tables (${missing.join(', ')}).\n` +
        `  Restore it from a backup (wharf-server restore DIR --force), ${ELSEWHERE}`,
    );
  }
}
