import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomString } from '../lib/ids.ts';
import { renameDurably } from '../storage/durable.ts';

/**
 * Everything a backup holds is private: the database (users, sealed tokens, form messages), the
 * secret that opens what is sealed, the sites' files. Only the account that runs Wharf reads it.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/** Makes a folder (and its missing parents) that only Wharf's account may enter. */
export async function makePrivateFolder(dir: string) {
  await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await chmod(dir, PRIVATE_FOLDER_MODE);
}

/** Writes a stream to `target` so that a crash leaves either nothing or the whole file, on disk, readable by Wharf's account only. */
export async function writeDurably(target: string, content: Readable) {
  await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const temporary = `${target}.${randomString(8)}.tmp`;
  try {
    await pipeline(content, createWriteStream(temporary, { mode: PRIVATE_FILE_MODE }));
    await renameDurably(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Makes every file and folder under `dir` private, `dir` included: a backup repeated into the
 * folder of an older one keeps the files it did not copy again, and database tools (SQLite's
 * online backup, pg_dump) create theirs with the process's umask.
 */
export async function makeTreePrivate(dir: string) {
  await chmod(dir, PRIVATE_FOLDER_MODE);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const mode = entry.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    await chmod(path.join(entry.parentPath, entry.name), mode);
  }
}
