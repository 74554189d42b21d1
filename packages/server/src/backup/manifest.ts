import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** Written last: a folder without it holds no complete backup. */
export const MANIFEST_FILE = 'wharf-backup.json';
export const DATABASE_FILES = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;
export const BLOBS_DIR = 'blobs';
export const SECRET_FILE = 'secret';

const databaseKind = z.enum(['sqlite', 'postgres']);
export type DatabaseKind = z.infer<typeof databaseKind>;

export const backupManifest = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  /** The database the backup was made from. */
  engine: databaseKind,
  /**
   * The forms its database is in: the engine's own, and for PostgreSQL an SQLite copy too, which a
   * restore into a single SQLite node puts in place. Older backups hold the engine's only.
   */
  databases: z.array(databaseKind).optional(),
  migration: z.string(),
  blobs: z.object({ count: z.number().int(), bytes: z.number() }),
  /** `file`: the generated secret is in the backup; `environment`: the operator keeps WHARF_SECRET. */
  secret: z.enum(['file', 'environment']),
});
export type BackupManifest = z.infer<typeof backupManifest>;

export class BackupError extends Error {}

export const databasesOf = (manifest: BackupManifest) => manifest.databases ?? [manifest.engine];

export async function readManifest(dir: string): Promise<BackupManifest> {
  const text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8').catch(() => null);
  if (text === null) throw new BackupError(`${dir} holds no complete backup (${MANIFEST_FILE} is missing)`);
  const parsed = backupManifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new BackupError(`${MANIFEST_FILE} is not a backup this Wharf can read`);
  return parsed.data;
}
