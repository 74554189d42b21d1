import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { BlobStore } from './blobStore.ts';

/** What the edge reads of a blob store: whole small files, and ranges of large ones. */
export type BlobReader = Pick<BlobStore, 'readAll' | 'readRange'>;

/** Reads files of this machine as the edge reads blobs (the console's build, say), by where each key lies. */
export function localFilesReader(pathOf: (key: string) => string): BlobReader {
  const absent = (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  };
  return {
    readAll: (key) => readFile(pathOf(key)).catch(absent),
    readRange: async (key, start, end) => {
      const file = pathOf(key);
      if (!(await stat(file).catch(absent))) return null;
      return createReadStream(file, { start, end });
    },
  };
}
