import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';

/**
 * Flushes a file's content, or a directory's list of names, from the page cache to the disk.
 * Until then a power cut may lose what was written even though every call succeeded.
 */
export async function syncToDisk(target: string) {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// Windows cannot open a directory to flush it; its file system journals names on its own.
const syncDirectory = (directory: string) => (process.platform === 'win32' ? undefined : syncToDisk(directory));

/** Creates a directory and its missing parents; each new one is recorded on disk in its parent. */
export async function makeDirectoryDurably(directory: string) {
  const firstCreated = await mkdir(directory, { recursive: true });
  if (!firstCreated) return;
  for (let created = directory; ; created = path.dirname(created)) {
    await syncDirectory(path.dirname(created));
    if (created === firstCreated) break;
  }
}

/**
 * Moves a finished file to its final name so that, once this resolves, a power cut leaves either
 * nothing or the whole file there: its bytes reach the disk before the name points at them, and
 * the directory's new entry is flushed too.
 */
export async function renameDurably(from: string, to: string) {
  await syncToDisk(from);
  await makeDirectoryDurably(path.dirname(to));
  await rename(from, to);
  await syncDirectory(path.dirname(to));
}
