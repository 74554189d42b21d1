import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../config/types.ts';
import { openDb } from '../db/connection.ts';
import { clearRestoreMark } from '../db/databaseState.ts';
import type { Db } from '../db/schema.ts';
import { inParallel } from '../lib/inParallel.ts';
import { blobKey } from '../releaseFiles/blobKeys.ts';
import type { BlobStore } from '../storage/blobStore.ts';
import { writeDurably } from './files.ts';
import { BackupError, type BackupManifest, BLOBS_DIR, readManifest, SECRET_FILE } from './manifest.ts';
import { restoreDatabase } from './restoreDatabase.ts';

export interface RestoreTarget {
  config: Config;
  blobs: BlobStore;
  /** Replace what the target already holds instead of refusing. */
  force: boolean;
  say(line: string): void;
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
async function verifyBlobs(db: Db, blobs: BlobStore) {
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
}

/**
 * Puts a backup back: the database (into WHARF_DATA_DIR or DATABASE_URL, whichever kind the backup
 * was made from), the blobs (into WHARF_STORAGE's folder or bucket), the secret.
 * Meant for a stopped Wharf; a target that already holds one is refused unless forced. Until the
 * last step the database is marked as a restore that has not finished, which Wharf refuses to
 * start on (db/startable.ts): an interrupted restore never passes for an installation.
 */
export async function restore(target: RestoreTarget, dir: string): Promise<BackupManifest> {
  const manifest = await readManifest(dir);
  const { config, blobs, force, say } = target;
  const into = config.databaseUrl ? 'postgres' : 'sqlite';
  await restoreDatabase(config, path.resolve(dir), manifest, force);
  const kinds = manifest.engine === into ? into : `from ${manifest.engine} into ${into}`;
  say(`Database restored (${kinds}, migration ${manifest.migration})`);
  const restored = await restoreBlobs(target, dir);
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await verifyBlobs(db, blobs);
    say(`${restored} files restored; every file the database lists is in place`);
    await restoreSecret(config, dir, manifest, say);
    await clearRestoreMark(db);
  } finally {
    await db.destroy();
  }
  return manifest;
}
