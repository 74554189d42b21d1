import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { openDb } from '../db/connection.ts';
import { copyDatabase, openSqliteFile } from './portableDatabase.ts';

/**
 * Writes to `file` an SQLite database holding what the PostgreSQL database holds in the exported
 * snapshot `snapshotId`, the moment pg_dump copies: a backup of several nodes' Wharf restores
 * into a single SQLite node from it, without a PostgreSQL server. Answers the rows copied.
 */
export async function copySnapshotToSqlite(databaseUrl: string, snapshotId: string, migration: string, file: string) {
  // What an interrupted backup left would be opened as the database to fill.
  await Promise.all(['', '-journal'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
  const source = openDb({ dataDir: '', databaseUrl, applicationName: 'wharf backup' });
  const target = openSqliteFile(file, { readonly: false });
  try {
    return await source
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql`set transaction snapshot ${sql.lit(snapshotId)}`.execute(trx);
        return copyDatabase({ source: trx, target, migration });
      });
  } finally {
    await target.destroy();
    await source.destroy();
  }
}
