import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../config/types.ts';
import type { Db } from '../db/schema.ts';
import { inParallel } from '../lib/inParallel.ts';
import { holdingCollection } from '../modules/releases/index.ts';
import type { BlobStore } from '../storage/blobStore.ts';
import { syncToDisk } from '../storage/durable.ts';
import { makePrivateFolder, makeTreePrivate, writeDurably } from './files.ts';
import { BackupError, type BackupManifest, BLOBS_DIR, MANIFEST_FILE, SECRET_FILE } from './manifest.ts';
import { type SnapshotBlob, snapshotDatabase } from './snapshot.ts';

export interface BackupSources {
  config: Config;
  db: Db;
  blobs: BlobStore;
  say(line: string): void;
}

const COPY_CONCURRENCY = 8;

/** Copies one blob unless the folder has it already: blobs never change, so a repeated backup copies only new ones. */
async function copyBlob(store: BlobStore, blob: SnapshotBlob, dir: string): Promise<number | 'missing'> {
  const target = path.join(dir, BLOBS_DIR, blob.key);
  const existing = await stat(target).catch(() => null);
  if (blob.size !== null && existing?.size === blob.size) return blob.size;
  const content = await store.read(blob.key);
  if (!content) return 'missing';
  await writeDurably(target, content);
  return (await stat(target)).size;
}

async function copySecret(config: Config, dir: string): Promise<BackupManifest['secret']> {
  if (config.secret) return 'environment';
  await writeDurably(path.join(dir, SECRET_FILE), createReadStream(path.join(config.dataDir, SECRET_FILE)));
  return 'file';
}

/**
 * A consistent copy of a running Wharf in `dir`: the database as it is at one moment, every blob
 * it refers to, and the secret that opens its sealed tokens. The garbage collection is held off
 * meanwhile, so no file the copied database needs disappears before it is copied. Every file of
 * it is readable by Wharf's account only (0600, folders 0700).
 */
export async function backup(sources: BackupSources, dir: string): Promise<BackupManifest> {
  const { config, db, blobs, say } = sources;
  await makePrivateFolder(dir);
  return holdingCollection(db, 'backup', async () => {
    const snapshot = await snapshotDatabase(config, dir);
    const { engine, databases, migration } = snapshot;
    say(
      `Database copied (${databases.join(' and ')}, migration ${migration}); copying ${snapshot.blobs.length} files…`,
    );
    let bytes = 0;
    const missing: string[] = [];
    await inParallel(snapshot.blobs, COPY_CONCURRENCY, async (blob) => {
      const copied = await copyBlob(blobs, blob, dir);
      if (copied === 'missing') {
        if (!blob.optional) missing.push(blob.key);
      } else bytes += copied;
    });
    if (missing.length > 0) {
      throw new BackupError(
        `The blob store lacks ${missing.length} files the database lists (${missing.slice(0, 3).join(', ')}); no backup was written`,
      );
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      engine,
      databases,
      migration,
      blobs: { count: snapshot.blobs.length, bytes },
      secret: await copySecret(config, dir),
    };
    await writeDurably(path.join(dir, MANIFEST_FILE), Readable.from([JSON.stringify(manifest, null, 2)]));
    await makeTreePrivate(dir);
    await syncToDisk(dir);
    return manifest;
  });
}
