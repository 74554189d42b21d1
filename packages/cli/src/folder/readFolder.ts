import { folderError } from '../failures.ts';
import { formatBytes, plural } from '../lib/bytes.ts';
import type { Progress } from '../output/progress.ts';
import { HashCache } from './hashCache.ts';
import { type FolderFile, hashFiles } from './hashFiles.ts';
import { walkFolder } from './walkFolder.ts';

/**
 * Every file of the folder with its hash: what the release will hold. Refuses an empty folder.
 * Files unchanged since the last upload of the folder are not read again (`cacheDir`, null: none).
 */
export async function readFolder(folder: string, progress: Progress, cacheDir: string | null): Promise<FolderFile[]> {
  const [entries, cache] = await Promise.all([walkFolder(folder), HashCache.open(cacheDir, folder)]);
  if (entries.length === 0) throw folderError(`${folder} holds no files to upload`);
  const reading = progress.task(`Reading ${folder}`, { files: entries.length, bytes: 0 });
  const files = await hashFiles(entries, () => reading.advance(1, 0), cache);
  await cache.save();
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  reading.finish(`Read ${plural(files.length, 'file')} (${formatBytes(bytes)}) from ${folder}`);
  return files;
}
