import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { ManifestEntry } from '@wharf/contract';
import { folderError } from '../failures.ts';
import { inParallel } from '../lib/inParallel.ts';
import type { HashCache } from './hashCache.ts';
import type { FolderEntry } from './walkFolder.ts';

/** A file of the folder with what the manifest says of it. */
export type FolderFile = FolderEntry & ManifestEntry;

// Enough reads in flight to keep a fast disk busy while hashing many small files.
const HASHING_CONCURRENCY = 16;
const CHUNK_BYTES = 256 * 1024;

/**
 * sha256 and size of a file, read chunk by chunk into `buffer`: a large video costs no more
 * memory than a favicon, and thousands of small files allocate nothing (a read stream would
 * allocate a fresh buffer for each file, which made hashing a site GC-bound).
 */
export async function hashFile(absolutePath: string, buffer: Buffer): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  const file = await open(absolutePath, 'r');
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
      // A regular file reads short only at its end: saves a read per small file.
      if (bytesRead < buffer.length) break;
    }
  } finally {
    await file.close();
  }
  return { hash: hash.digest('hex'), size };
}

/** A file's hash from the cache when its size and time are unchanged, else read and recorded. */
async function hashEntry(entry: FolderEntry, buffer: Buffer, cache: HashCache | null) {
  if (!cache) return hashFile(entry.absolutePath, buffer);
  const before = await stat(entry.absolutePath);
  const cached = cache.lookUp(entry.path, before);
  if (cached) return { hash: cached, size: before.size };
  const read = await hashFile(entry.absolutePath, buffer);
  // A file that changed while it was read is hashed again next time.
  if (read.size === before.size) cache.record(entry.path, before, read.hash);
  return read;
}

/** Hashes every entry, in the entries' order; unchanged files come from `cache` when given. */
export async function hashFiles(
  entries: FolderEntry[],
  onHashed: (file: FolderFile) => void,
  cache: HashCache | null = null,
): Promise<FolderFile[]> {
  const files = new Array<FolderFile>(entries.length);
  const buffers = Array.from({ length: HASHING_CONCURRENCY }, () => Buffer.allocUnsafe(CHUNK_BYTES));
  await inParallel(
    entries.map((_, index) => index),
    HASHING_CONCURRENCY,
    async (index) => {
      const entry = entries[index]!;
      const buffer = buffers.pop()!;
      try {
        files[index] = { ...entry, ...(await hashEntry(entry, buffer, cache)) };
      } catch (error) {
        throw folderError(`Cannot read ${entry.absolutePath}: ${(error as NodeJS.ErrnoException).code ?? error}`);
      } finally {
        buffers.push(buffer);
      }
      onHashed(files[index]);
    },
  );
  return files;
}
