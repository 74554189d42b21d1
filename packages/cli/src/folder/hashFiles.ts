import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { ManifestEntry } from '@wharf/contract/upload';
import { folderError } from '../failures.ts';
import type { HashCache } from './hashCache.ts';
import type { FolderEntry } from './walkFolder.ts';

/**
 * A file of the folder with what the manifest says of it, and its bytes when they were read to
 * hash it and kept: a fresh deploy then sends them without reading the folder twice.
 */
export type FolderFile = FolderEntry & ManifestEntry & { content?: Buffer };

/** Bytes of hashed files kept in memory for their upload, at most; past it, files are read again. */
const KEPT_CONTENT_BYTES = 128 * 1024 * 1024;
/** Files up to this size are read whole and kept; larger ones are read in chunks, then again to upload. */
const KEPT_FILE_BYTES = 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
/** Files hashed between two looks at the event loop, so that progress is written as it goes. */
const FILES_PER_TURN = 200;

/**
 * sha256 and size of a file, read chunk by chunk into `buffer`: a large video costs no more
 * memory than a favicon.
 */
export function hashFile(absolutePath: string, buffer: Buffer): { hash: string; size: number } {
  const hash = createHash('sha256');
  let size = 0;
  const file = openSync(absolutePath, 'r');
  try {
    for (;;) {
      const bytesRead = readSync(file, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
    }
  } finally {
    closeSync(file);
  }
  return { hash: hash.digest('hex'), size };
}

/**
 * Reads and hashes the files of a folder, keeping the bytes of small files for their upload up
 * to a budget. Synchronous: a command has nothing else to do meanwhile, and here the calls cost a
 * fraction of their asynchronous form, which made hashing a site of thousands of files CPU-bound.
 */
class FolderHasher {
  private kept = 0;
  private readonly buffer = Buffer.allocUnsafe(CHUNK_BYTES);

  constructor(private readonly cache: HashCache | null) {}

  /** A file's hash from the cache when its size and time are unchanged, else read and recorded. */
  hash(entry: FolderEntry): FolderFile {
    const before = statSync(entry.absolutePath);
    const cached = this.cache?.lookUp(entry.path, before);
    if (cached) return { ...entry, hash: cached, size: before.size };
    const read = this.read(entry.absolutePath, before.size);
    // A file that changed while it was read is hashed again next time.
    if (read.size === before.size) this.cache?.record(entry.path, before, read.hash);
    return { ...entry, ...read };
  }

  private read(absolutePath: string, size: number) {
    if (size > KEPT_FILE_BYTES || this.kept + size > KEPT_CONTENT_BYTES) return hashFile(absolutePath, this.buffer);
    const content = readFileSync(absolutePath);
    this.kept += content.length;
    return { hash: createHash('sha256').update(content).digest('hex'), size: content.length, content };
  }
}

/** Hashes every entry, in the entries' order; unchanged files come from `cache` when given. */
export async function hashFiles(
  entries: FolderEntry[],
  onHashed: (file: FolderFile) => void,
  cache: HashCache | null = null,
): Promise<FolderFile[]> {
  const hasher = new FolderHasher(cache);
  const files: FolderFile[] = [];
  for (const entry of entries) {
    try {
      files.push(hasher.hash(entry));
    } catch (error) {
      throw folderError(`Cannot read ${entry.absolutePath}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
    onHashed(files.at(-1)!);
    if (files.length % FILES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return files;
}
