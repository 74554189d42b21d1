import { spawn } from 'node:child_process';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.ts';
import { SQLITE_FILE } from '../db/connection.ts';
import { blobKey } from '../deploys/blobs.ts';
import { type LogoOwnerKind, logoBlobKey } from '../modules/logos/logoUrl.ts';

/** A blob the snapshot's database refers to; `size` is null where the database does not record it (logos). */
export interface SnapshotBlob {
  key: string;
  size: number | null;
  /** A logo may be replaced or removed while the backup runs; a release file never is. */
  optional: boolean;
}

export interface Snapshot {
  engine: 'sqlite' | 'postgres';
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

async function contentsOf(rows: Rows): Promise<Omit<Snapshot, 'engine'>> {
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
async function snapshotSqlite(config: Config, target: string): Promise<Snapshot> {
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
    const contents = await contentsOf(async (sql) => copy.prepare(sql).all() as Record<string, unknown>[]);
    return { engine: 'sqlite', ...contents };
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
 * pg_dump of Wharf's schema in the snapshot of a transaction that also lists the blobs, so the
 * dump and the file list describe the same moment.
 */
async function snapshotPostgres(databaseUrl: string, target: string): Promise<Snapshot> {
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
      `--file=${target}`,
      `--dbname=${databaseUrl}`,
    ]);
    const contents = await contentsOf(async (sql) => (await client.query(sql)).rows);
    await dumping;
    await client.query('COMMIT');
    return { engine: 'postgres', ...contents };
  } finally {
    await client.end();
  }
}

/** Copies the database into `target` as it is at one moment, and lists the blobs it refers to. */
export function snapshotDatabase(config: Config, target: string): Promise<Snapshot> {
  return config.databaseUrl ? snapshotPostgres(config.databaseUrl, target) : snapshotSqlite(config, target);
}
