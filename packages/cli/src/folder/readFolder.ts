import { folderError } from '../failures.ts';
import { formatBytes, plural } from '../lib/bytes.ts';
import type { Progress } from '../output/progress.ts';
import { type FolderFile, hashFiles } from './hashFiles.ts';
import { walkFolder } from './walkFolder.ts';

/** Every file of the folder with its hash: what the release will hold. Refuses an empty folder. */
export async function readFolder(folder: string, progress: Progress): Promise<FolderFile[]> {
  const entries = await walkFolder(folder);
  if (entries.length === 0) throw folderError(`${folder} holds no files to upload`);
  const reading = progress.task(`Reading ${folder}`, { files: entries.length, bytes: 0 });
  const files = await hashFiles(entries, () => reading.advance(1, 0));
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  reading.finish(`Read ${plural(files.length, 'file')} (${formatBytes(bytes)}) from ${folder}`);
  return files;
}
