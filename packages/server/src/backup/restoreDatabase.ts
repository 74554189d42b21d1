import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../config/types.ts';
import { openDb, SQLITE_FILE } from '../db/connection.ts';
import { markRestoreBegun } from '../db/databaseState.ts';
import { renameDurably } from '../storage/durable.ts';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './files.ts';
import { BackupError, type BackupManifest, DATABASE_FILES, databasesOf } from './manifest.ts';
import { claimForRestore, mustBeWholeSqlite } from './restoreClaim.ts';
import { runPgTool } from './snapshot.ts';
import { restoreSqliteIntoPostgres } from './sqliteIntoPostgres.ts';

// biome-ignore lint/suspicious/noExplicitAny: a database before its tables are known
type AnyDb = Kysely<any>;

const withSqlite = async <T>(dataDir: string, work: (db: AnyDb) => Promise<T>) => {
  const db = openDb({ dataDir, databaseUrl: null });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
};

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/**
 * The backup's copy is checked and marked beside the target, then renamed over it in one step:
 * the data directory holds what it held (an old database, marked first) or the whole restored one, marked.
 */
async function restoreSqlite(config: Config, dir: string, force: boolean) {
  // A data directory that exists keeps its mode: the operator (or a volume's owner) chose it.
  await mkdir(config.dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const target = path.join(config.dataDir, SQLITE_FILE);
  // In the data directory, so that the rename stays on one file system.
  const staging = await mkdtemp(path.join(config.dataDir, '.restore-'));
  try {
    const staged = path.join(staging, SQLITE_FILE);
    await copyFile(path.join(dir, DATABASE_FILES.sqlite), staged);
    // copyFile keeps the mode of the backup's copy, which an older Wharf left readable by all.
    await chmod(staged, PRIVATE_FILE_MODE);
    mustBeWholeSqlite(staged);
    await withSqlite(staging, (db) => markRestoreBegun(db, dir));
    // Marked first: the old database's write-ahead log goes next, and an interruption then must
    // not leave it to start without the commits the log held.
    if (await exists(target)) {
      await withSqlite(config.dataDir, (db) => db.transaction().execute((trx) => claimForRestore(trx, dir, force)));
    }
    // The old database's write-ahead log must not be replayed over the restored one.
    await Promise.all(['-wal', '-shm'].map((suffix) => rm(`${target}${suffix}`, { force: true })));
    await renameDurably(staged, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The schema a dump holds, and its table of contents without that schema's own entries: the
 * target has the schema already (a new database has `public`, owned and granted as its
 * administrator set it up), and the dump's `CREATE SCHEMA` would stop the restore.
 */
function withoutSchemaEntry(contents: string) {
  const lines = contents.split('\n');
  const schema = lines.map((line) => /^\d+; \d+ \d+ SCHEMA - (\S+) /.exec(line)?.[1]).find(Boolean);
  if (!schema) throw new BackupError("The backup's database dump names no schema");
  const kept = lines.filter((line) => !/^\d+; \d+ \d+ (SCHEMA - |COMMENT - SCHEMA )/.test(line));
  return { schema, contents: kept.join('\n') };
}

/** Creates the dump's schema if needed, checks Wharf will work in it, and marks it (one transaction). */
async function claimSchema(databaseUrl: string, schema: string, backup: string, force: boolean) {
  const db = openDb({ dataDir: '', databaseUrl });
  try {
    const holdsTables = await db.transaction().execute(async (trx) => {
      await sql`create schema if not exists ${sql.id(schema)}`.execute(trx);
      const { rows } = await sql<{ current: string | null }>`select current_schema() as current`.execute(trx);
      if (rows[0]?.current !== schema) {
        throw new BackupError(
          `The backup holds the schema ${schema}, and DATABASE_URL has Wharf work in ${rows[0]?.current ?? 'none'}: give DATABASE_URL a search_path of ${schema}`,
        );
      }
      return claimForRestore(trx, backup, force);
    });
    // Release names are indexed with pg_trgm (migration 018): an extension of the database, which a
    // dump of Wharf's schema leaves out. Where it cannot be installed, pg_restore names the index.
    await sql`create extension if not exists pg_trgm with schema public`.execute(db).catch(() => undefined);
    return holdsTables;
  } finally {
    await db.destroy();
  }
}

/**
 * pg_restore in one transaction: it fails, or is stopped, and the schema holds what it held
 * before, with the mark that keeps Wharf from starting on it.
 */
async function restorePostgres(databaseUrl: string, dir: string, force: boolean) {
  const dump = path.join(dir, DATABASE_FILES.postgres);
  const work = await mkdtemp(path.join(os.tmpdir(), 'wharf-restore-'));
  try {
    const list = path.join(work, 'contents.list');
    await runPgTool('pg_restore', ['--list', `--file=${list}`, dump]);
    const { schema, contents } = withoutSchemaEntry(await readFile(list, 'utf8'));
    await writeFile(list, contents);
    const holdsTables = await claimSchema(databaseUrl, schema, dir, force);
    await runPgTool('pg_restore', [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      ...(holdsTables ? ['--clean', '--if-exists'] : []),
      `--use-list=${list}`,
      `--dbname=${databaseUrl}`,
      dump,
    ]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Puts the backup's database in place, marked as a restore that has not finished: `restore`
 * clears the mark once the files are in place too. Into SQLite goes the backup's SQLite copy,
 * which every backup but those of older PostgreSQL Wharfs holds; into PostgreSQL, pg_dump's copy,
 * or the SQLite one copied row by row.
 */
export async function restoreDatabase(config: Config, dir: string, manifest: BackupManifest, force: boolean) {
  if (config.databaseUrl) {
    if (manifest.engine === 'postgres') return restorePostgres(config.databaseUrl, dir, force);
    return restoreSqliteIntoPostgres(config.databaseUrl, dir, manifest.migration, force);
  }
  if (!databasesOf(manifest).includes('sqlite')) {
    throw new BackupError(
      "The backup holds its PostgreSQL database as pg_dump's copy only (an older Wharf made it): set DATABASE_URL to restore it into PostgreSQL, or make a new backup with this Wharf, which adds an SQLite copy",
    );
  }
  await restoreSqlite(config, dir, force);
}
