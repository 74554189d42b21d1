import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { inParallel } from '../lib/inParallel.ts';

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
export const syncDirectory = (directory: string) => (process.platform === 'win32' ? undefined : syncToDisk(directory));

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

/**
 * Flushes run side by side: the file system commits its journal once for many of them, where one
 * after the other each waits for a commit of its own (measured: 0.1 to 0.3 ms a file against 2 ms).
 */
const FLUSHES_IN_FLIGHT = 16;

/**
 * `renameDurably` for many files at once, as one step: their contents are flushed side by side,
 * each directory they go to is made and flushed once, however many files land in it. Once this
 * resolves, every file is whole under its new name. `knownDirectories` holds directories already
 * made, so that the thousands of files of a release do not each ask for theirs again.
 */
export async function renameAllDurably(
  moves: { from: string; to: string; flushed?: boolean; placed?: boolean }[],
  knownDirectories: Set<string>,
) {
  await inParallel(
    moves.filter(({ flushed }) => !flushed),
    FLUSHES_IN_FLIGHT,
    ({ from }) => syncToDisk(from),
  );
  const directories = [...new Set(moves.map(({ to }) => path.dirname(to)))];
  await inParallel(
    directories.filter((directory) => !knownDirectories.has(directory)),
    FLUSHES_IN_FLIGHT,
    async (directory) => {
      await makeDirectoryDurably(directory);
      knownDirectories.add(directory);
    },
  );
  // A file written straight under its name (`placed`) has nothing to move: its name is flushed below.
  await inParallel(
    moves.filter(({ placed }) => !placed),
    FLUSHES_IN_FLIGHT,
    async ({ from, to }) => {
      try {
        await rename(from, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // Its directory was removed behind the store's back (by hand, by a restore): made again.
        await makeDirectoryDurably(path.dirname(to));
        await rename(from, to);
      }
    },
  );
  await inParallel(directories, FLUSHES_IN_FLIGHT, async (directory) => syncDirectory(directory));
}
