import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import type { Config } from '../config.ts';
import { openDb, SQLITE_FILE } from '../db/connection.ts';
import { blobKey } from '../deploys/blobs.ts';
import { randomString } from '../lib/ids.ts';
import { inParallel } from '../lib/inParallel.ts';
import type { BlobStore } from '../storage/blobStore.ts';
import { renameDurably } from '../storage/durable.ts';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, writeDurably } from './files.ts';
import { BackupError, type BackupManifest, BLOBS_DIR, DATABASE_FILES, readManifest, SECRET_FILE } from './manifest.ts';
import { runPgTool } from './snapshot.ts';

export interface RestoreTarget {
  config: Config;
  blobs: BlobStore;
  /** Replace what the target already holds instead of refusing. */
  force: boolean;
  say(line: string): void;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

async function restoreSqlite(config: Config, dir: string, force: boolean) {
  // A data directory that exists keeps its mode: the operator (or a volume's owner) chose it.
  await mkdir(config.dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const target = path.join(config.dataDir, SQLITE_FILE);
  if ((await exists(target)) && !force) {
    throw new BackupError(
      `${target} exists; stop Wharf and pass --force to replace it, or restore into an empty data directory`,
    );
  }
  const temporary = `${target}.${randomString(8)}.tmp`;
  await copyFile(path.join(dir, DATABASE_FILES.sqlite), temporary);
  // copyFile keeps the mode of the backup's copy, which an older Wharf left readable by all.
  await chmod(temporary, PRIVATE_FILE_MODE);
  // The old database's write-ahead log must not be replayed over the restored one.
  await Promise.all(['-wal', '-shm'].map((suffix) => rm(`${target}${suffix}`, { force: true })));
  await renameDurably(temporary, target);
}

async function restorePostgres(databaseUrl: string, dir: string, force: boolean) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const [found] = (await client.query("SELECT to_regclass('kysely_migration') IS NOT NULL AS taken")).rows;
  // Release names are indexed with pg_trgm (migration 018): an extension of the database, which a
  // dump of Wharf's schema leaves out. Where it cannot be installed, pg_restore names the index.
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public').catch(() => undefined);
  await client.end();
  if (found.taken && !force) {
    throw new BackupError('The database already holds a Wharf; stop Wharf and pass --force to replace it');
  }
  await runPgTool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    ...(found.taken ? ['--clean', '--if-exists'] : []),
    `--dbname=${databaseUrl}`,
    path.join(dir, DATABASE_FILES.postgres),
  ]);
}

/** The keys of every blob in the backup folder, found by walking it. */
async function backedUpKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

async function restoreBlobs(target: RestoreTarget, dir: string) {
  const root = path.join(dir, BLOBS_DIR);
  const keys = await backedUpKeys(root);
  await inParallel(keys, 8, async (key) => {
    const staged = await target.blobs.stage(createReadStream(path.join(root, key)));
    await staged.commit(key);
  });
  return keys.length;
}

async function restoreSecret(config: Config, dir: string, manifest: BackupManifest, say: (line: string) => void) {
  if (manifest.secret === 'environment') {
    if (!config.secret)
      say('The backup was made with WHARF_SECRET set: set the same WHARF_SECRET before starting Wharf');
    return;
  }
  const secret = await readFile(path.join(dir, SECRET_FILE), 'utf8');
  await writeDurably(path.join(config.dataDir, SECRET_FILE), Readable.from([secret]));
  if (config.secret && config.secret !== secret.trim()) {
    say(
      "WHARF_SECRET is set and differs from the backup's secret: unset it, or tokens stored in the backup cannot be read",
    );
  }
}

/** Every release file the restored database lists must be in the store, at its size. */
async function verifyBlobs({ config, blobs }: RestoreTarget) {
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    // A backup made before migration 026 has no `dead` column; a dead blob's files were not copied.
    const rows = (await db.selectFrom('blobs').selectAll().execute()).filter((row) => Number(row.dead ?? 0) === 0);
    const expected = rows.flatMap((row) => [
      { key: blobKey(row.hash), size: row.size },
      ...(row.br_size === null ? [] : [{ key: blobKey(row.hash, 'br'), size: row.br_size }]),
      ...(row.gz_size === null ? [] : [{ key: blobKey(row.hash, 'gzip'), size: row.gz_size }]),
    ]);
    const wrong: string[] = [];
    await inParallel(expected, 16, async ({ key, size }) => {
      if ((await blobs.size(key)) !== Number(size)) wrong.push(key);
    });
    if (wrong.length > 0) {
      throw new BackupError(
        `${wrong.length} files the database lists are missing or short: ${wrong.slice(0, 3).join(', ')}`,
      );
    }
  } finally {
    await db.destroy();
  }
}

/**
 * Puts a backup back: the database (into WHARF_DATA_DIR or DATABASE_URL), the blobs, the secret.
 * Meant for a stopped Wharf; a target that already holds one is refused unless forced.
 */
export async function restore(target: RestoreTarget, dir: string): Promise<BackupManifest> {
  const manifest = await readManifest(dir);
  const engine = target.config.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.engine !== engine) {
    throw new BackupError(
      `The backup is of a ${manifest.engine} database, and this Wharf is set up for ${engine}: ${engine === 'postgres' ? 'unset DATABASE_URL' : 'set DATABASE_URL'} to restore it`,
    );
  }
  const { config, force, say } = target;
  await (config.databaseUrl ? restorePostgres(config.databaseUrl, dir, force) : restoreSqlite(config, dir, force));
  say(`Database restored (${engine}, migration ${manifest.migration})`);
  const restored = await restoreBlobs(target, dir);
  await verifyBlobs(target);
  say(`${restored} files restored; every file the database lists is in place`);
  await restoreSecret(config, dir, manifest, say);
  return manifest;
}
