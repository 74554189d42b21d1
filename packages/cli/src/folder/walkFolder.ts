import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
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

function folderInfo(root: string): Stats {
  try {
    return statSync(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw folderError(code === 'ENOENT' ? `There is no folder ${root}` : `Cannot read ${root}: ${code}`);
  }
}

function entriesOf(folder: string) {
  try {
    return readdirSync(folder, { withFileTypes: true }).sort(byName);
  } catch (error) {
    throw folderError(`Cannot read ${folder}: ${(error as NodeJS.ErrnoException).code}`);
  }
}

/**
 * The files under `root`, sorted by path. Links are followed: Wharf stores no links, and a link
 * in a build folder means its target's content. A link back up to a folder being walked is not.
 * The calls are synchronous: a command has nothing else to do meanwhile, and on a build folder of
 * thousands of files they cost a fraction of their asynchronous form.
 */
export async function walkFolder(root: string): Promise<FolderEntry[]> {
  if (!folderInfo(root).isDirectory()) {
    throw folderError(`${root} is a file; give the folder that holds the site, e.g. ./dist`);
  }
  const files: FolderEntry[] = [];
  const ancestors = new Set<string>();

  function visit(folder: string, prefix: string) {
    const real = realpathSync(folder);
    if (ancestors.has(real)) return;
    ancestors.add(real);
    for (const entry of entriesOf(folder)) {
      const absolutePath = path.join(folder, entry.name);
      // A dangling link points at nothing to upload.
      const kind = entry.isSymbolicLink() ? statSync(absolutePath, { throwIfNoEntry: false }) : entry;
      if (kind?.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) {
        visit(absolutePath, `${prefix}${entry.name}/`);
      } else if (kind?.isFile() && !SKIPPED_FILES.has(entry.name)) {
        files.push({ path: prefix + entry.name, absolutePath });
      }
    }
    ancestors.delete(real);
  }

  visit(root, '');
  return files;
}
