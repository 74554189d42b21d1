import { folderError } from '../failures.ts';
import { formatBytes, plural } from '../lib/bytes.ts';
import type { Progress } from '../output/progress.ts';
import { HashCache } from './hashCache.ts';
import { type FolderFile, hashFiles } from './hashFiles.ts';
import { type FolderEntry, walkFolder } from './walkFolder.ts';

export interface ReadFolder {
  files: FolderFile[];
  /** Writes the hashes down for the next upload of the folder: left to the caller, to do while it waits. */
  saveCache(): Promise<void>;
}

/** The files of the folder, not read yet. Refuses a missing or empty folder. */
export async function listFolder(folder: string): Promise<FolderEntry[]> {
  const entries = await walkFolder(folder);
  if (entries.length === 0) throw folderError(`${folder} holds no files to upload`);
  return entries;
}

/**
 * The listed files with their hashes: what the release will hold. Files unchanged since the last
 * upload of the folder are not read again (`cacheDir`, null: none).
 */
export async function hashFolder(
  folder: string,
  entries: FolderEntry[],
  progress: Progress,
  cacheDir: string | null,
): Promise<ReadFolder> {
  const cache = await HashCache.open(cacheDir, folder);
  const reading = progress.task(`Reading ${folder}`, { files: entries.length, bytes: 0 });
  const files = await hashFiles(entries, () => reading.advance(1, 0), cache);
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  reading.finish(`Read ${plural(files.length, 'file')} (${formatBytes(bytes)}) from ${folder}`);
  return { files, saveCache: () => cache.save() };
}

/** Every file of the folder with its hash (`listFolder`, then `hashFolder`). */
export async function readFolder(folder: string, progress: Progress, cacheDir: string | null): Promise<ReadFolder> {
  return hashFolder(folder, await listFolder(folder), progress, cacheDir);
}
