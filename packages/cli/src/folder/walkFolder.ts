import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { folderError } from '../failures.ts';

/** A file of the folder being uploaded: where it is on disk, and its path in the release. */
export interface FolderEntry {
  /** Relative, `/`-separated: the path the file is served at. */
  path: string;
  absolutePath: string;
}

// Version-control data and the litter of desktop file managers are never part of a site.
// Every other dot file is: .wharf.yml configures the release, .well-known answers standards.
const SKIPPED_FOLDERS = new Set(['.git', '.hg', '.svn']);
const SKIPPED_FILES = new Set(['.DS_Store', 'Thumbs.db']);

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function folderInfo(root: string) {
  try {
    return await stat(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw folderError(code === 'ENOENT' ? `There is no folder ${root}` : `Cannot read ${root}: ${code}`);
  }
}

/**
 * The files under `root`, sorted by path. Links are followed: Wharf stores no links, and a link
 * in a build folder means its target's content. A link back up to a folder being walked is not.
 */
export async function walkFolder(root: string): Promise<FolderEntry[]> {
  if (!(await folderInfo(root)).isDirectory()) {
    throw folderError(`${root} is a file; give the folder that holds the site, e.g. ./dist`);
  }
  const files: FolderEntry[] = [];
  const ancestors = new Set<string>();

  async function visit(folder: string, prefix: string) {
    const real = await realpath(folder);
    if (ancestors.has(real)) return;
    ancestors.add(real);
    const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      throw folderError(`Cannot read ${folder}: ${error.code}`);
    });
    for (const entry of entries.sort(byName)) {
      const absolutePath = path.join(folder, entry.name);
      // A dangling link points at nothing to upload.
      const kind = entry.isSymbolicLink() ? await stat(absolutePath).catch(() => null) : entry;
      if (kind?.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) {
        await visit(absolutePath, `${prefix}${entry.name}/`);
      } else if (kind?.isFile() && !SKIPPED_FILES.has(entry.name)) {
        files.push({ path: prefix + entry.name, absolutePath });
      }
    }
    ancestors.delete(real);
  }

  await visit(root, '');
  return files;
}
