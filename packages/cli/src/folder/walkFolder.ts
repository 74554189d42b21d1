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

/** Whether `real` (a resolved path) is `realRoot` or under it. */
const isInside = (realRoot: string, real: string) => real === realRoot || real.startsWith(realRoot + path.sep);

/**
 * Refuses a link that leads out of the folder: a build folder holding `secrets -> ~/.ssh` must not
 * upload someone's keys, so what is uploaded is only ever what is inside the folder given.
 */
function mustStayInside(realRoot: string, root: string, link: string) {
  const target = realpathSync(link);
  if (isInside(realRoot, target)) return;
  throw folderError(
    `${path.relative(root, link)} is a link to ${target}, outside ${root}; Wharf uploads only what is inside the folder: copy the file in, or remove the link`,
  );
}

/**
 * The files under `root`, sorted by path. Links inside the folder are followed: Wharf stores no
 * links, and a link in a build folder means its target's content. A link back up to a folder
 * being walked is not; a link to anything outside the folder is refused; a link to nothing is
 * skipped.
 * The calls are synchronous: a command has nothing else to do meanwhile, and on a build folder of
 * thousands of files they cost a fraction of their asynchronous form.
 */
export async function walkFolder(root: string): Promise<FolderEntry[]> {
  if (!folderInfo(root).isDirectory()) {
    throw folderError(`${root} is a file; give the folder that holds the site, e.g. ./dist`);
  }
  const realRoot = realpathSync(root);
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
      const skipped = kind?.isDirectory() ? SKIPPED_FOLDERS.has(entry.name) : SKIPPED_FILES.has(entry.name);
      if (entry.isSymbolicLink() && kind && !skipped) mustStayInside(realRoot, root, absolutePath);
      if (kind?.isDirectory() && !skipped) {
        visit(absolutePath, `${prefix}${entry.name}/`);
      } else if (kind?.isFile() && !skipped) {
        files.push({ path: prefix + entry.name, absolutePath });
      }
    }
    ancestors.delete(real);
  }

  visit(root, '');
  return files;
}
