import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ManifestEntry } from '@wharf/contract';
import { folderError } from '../failures.ts';
import { inParallel } from '../lib/inParallel.ts';
import type { FolderEntry } from './walkFolder.ts';

/** A file of the folder with what the manifest says of it. */
export type FolderFile = FolderEntry & ManifestEntry;

// Enough reads in flight to keep a fast disk busy while hashing many small files.
const HASHING_CONCURRENCY = 16;

/** sha256 and size of a file, read as a stream: a large video costs no more memory than a favicon. */
export async function hashFile(absolutePath: string): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(absolutePath, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { hash: hash.digest('hex'), size };
}

/** Hashes every entry, in the entries' order. */
export async function hashFiles(entries: FolderEntry[], onHashed: (file: FolderFile) => void): Promise<FolderFile[]> {
  const files = new Array<FolderFile>(entries.length);
  await inParallel(
    entries.map((_, index) => index),
    HASHING_CONCURRENCY,
    async (index) => {
      const entry = entries[index]!;
      try {
        files[index] = { ...entry, ...(await hashFile(entry.absolutePath)) };
      } catch (error) {
        throw folderError(`Cannot read ${entry.absolutePath}: ${(error as NodeJS.ErrnoException).code ?? error}`);
      }
      onHashed(files[index]);
    },
  );
  return files;
}
