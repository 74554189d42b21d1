import { spawn } from 'node:child_process';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config/types.ts';
import { SQLITE_FILE } from '../db/connection.ts';
import { type LogoOwnerKind, logoBlobKey } from '../modules/logos/logoUrl.ts';
import { blobKey } from '../releaseFiles/blobKeys.ts';
import { renameDurably } from '../storage/durable.ts';
import { DATABASE_FILES, type DatabaseKind } from './manifest.ts';
import { copySnapshotToSqlite } from './sqliteCopy.ts';

/** A blob the snapshot's database refers to; `size` is null where the database does not record it (logos). */
export interface SnapshotBlob {
  key: string;
  size: number | null;
  /** A logo may be replaced or removed while the backup runs; a release file never is. */
  optional: boolean;
}

export interface Snapshot {
  engine: DatabaseKind;
  /** The forms of the database written (`DATABASE_FILES`). */
  databases: DatabaseKind[];
  /** The last migration the copied database has. */
  migration: string;
  blobs: SnapshotBlob[];
}

type Rows = (sql: string) => Promise<Record<string, unknown>[]>;

// Plain SQL that both engines read alike: the snapshot is queried through its own connection.
// A dead blob's files may be gone already (deploys store it again): it is not copied.
const BLOBS = 'SELECT hash, size, br_size, gz_size FROM blobs WHERE dead = 0';
const LOGOS = ['orgs', 'teams', 'sites']
  .map((kind) => `SELECT '${kind}' AS kind, id FROM ${kind} WHERE logo_type IS NOT NULL`)
  .join(' UNION ALL ');
const LAST_MIGRATION = 'SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1';

async function contentsOf(rows: Rows): Promise<Pick<Snapshot, 'migration' | 'blobs'>> {
  const blobs: SnapshotBlob[] = [];
  for (const row of await rows(BLOBS)) {
    const hash = String(row.hash);
    blobs.push({ key: blobKey(hash), size: Number(row.size), optional: false });
    if (row.br_size !== null) blobs.push({ key: blobKey(hash, 'br'), size: Number(row.br_size), optional: false });
    if (row.gz_size !== null) blobs.push({ key: blobKey(hash, 'gzip'), size: Number(row.gz_size), optional: false });
  }
  for (const row of await rows(LOGOS)) {
    blobs.push({ key: logoBlobKey(row.kind as LogoOwnerKind, String(row.id)), size: null, optional: true });
  }
  const [last] = await rows(LAST_MIGRATION);
  return { migration: String(last?.name ?? ''), blobs };
}

/** SQLite's online backup: a consistent copy while the server keeps writing. */
async function snapshotSqlite(config: Config, target: string) {
  const source = new SQLite(path.join(config.dataDir, SQLITE_FILE), { readonly: true, fileMustExist: true });
  try {
    await source.backup(target);
  } finally {
    source.close();
  }
  const copy = new SQLite(target);
  try {
    // One self-contained file, readable without its write-ahead log beside it.
    copy.pragma('journal_mode = DELETE');
    return await contentsOf(async (sql) => copy.prepare(sql).all() as Record<string, unknown>[]);
  } finally {
    copy.close();
  }
}

/** Runs a PostgreSQL client program; its error output explains a failure. */
export function runPgTool(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `${program} is not installed; install the PostgreSQL client of your server's version (Debian: postgresql-client)`
            : `${program} failed: ${error.message}`,
        ),
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}

/**
 * pg_dump of Wharf's schema, and its SQLite copy, in the snapshot of a transaction that also lists
 * the blobs, so the two copies and the file list describe the same moment.
 */
async function snapshotPostgres(databaseUrl: string, targets: Record<DatabaseKind, string>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [exported] = (await client.query('SELECT pg_export_snapshot() AS id, current_schema() AS schema')).rows;
    const dumping = runPgTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--snapshot=${exported.id}`,
      `--schema=${exported.schema}`,
      `--file=${targets.postgres}`,
      `--dbname=${databaseUrl}`,
    ]);
    const listedAndCopied = (async () => {
      const contents = await contentsOf(async (sql) => (await client.query(sql)).rows);
      await copySnapshotToSqlite(databaseUrl, exported.id, contents.migration, targets.sqlite);
      return contents;
    })();
    // Awaited together: the first failure is the one told, and the other's is not left unheard.
    const [, contents] = await Promise.all([dumping, listedAndCopied]);
    await client.query('COMMIT');
    return contents;
  } finally {
    await client.end();
  }
}

/**
 * Copies the database into the backup folder `dir` as it is at one moment, in every form a
 * restore may need (each file renamed into place once whole), and lists the blobs it refers to.
 */
export async function snapshotDatabase(config: Config, dir: string): Promise<Snapshot> {
  const engine: DatabaseKind = config.databaseUrl ? 'postgres' : 'sqlite';
  const databases: DatabaseKind[] = engine === 'postgres' ? ['postgres', 'sqlite'] : ['sqlite'];
  const file = (kind: DatabaseKind) => path.join(dir, DATABASE_FILES[kind]);
  const temporary = { sqlite: `${file('sqlite')}.tmp`, postgres: `${file('postgres')}.tmp` };
  const contents = config.databaseUrl
    ? await snapshotPostgres(config.databaseUrl, temporary)
    : await snapshotSqlite(config, temporary.sqlite);
  for (const kind of databases) await renameDurably(temporary[kind], file(kind));
  return { engine, databases, ...contents };
}
