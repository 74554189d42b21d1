import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The server package's folder: the first one above this code that holds a package.json. The code
 * runs from src/ under a TypeScript loader (tests, development) and bundled in dist/ (`npm start`),
 * so paths to files beside it start here rather than at the current module.
 */
function findPackageDir(dir: string): string {
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  const parent = path.dirname(dir);
  if (parent === dir) throw new Error('The server package.json was not found');
  return findPackageDir(parent);
}

export const SERVER_PACKAGE_DIR = findPackageDir(import.meta.dirname);
