import { chmod, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../../db/schema.ts';
import { BuildStepFailed } from './stepFailed.ts';

/** What a site's cache folder keeps between builds: package managers' downloads (under it) and `node_modules`. */
const NODE_MODULES = 'node_modules';
/** When the cache was saved: a cache saved before the site's 'clear cache' is dropped. */
const SAVED_AT = '.saved-at';

export const cacheFolder = (dataDir: string, siteId: string) => path.join(dataDir, 'build-cache', siteId);

async function isRealFolder(folder: string) {
  const stats = await lstat(folder).catch(() => null);
  return stats?.isDirectory() === true;
}

/**
 * The site's cache on this builder, ready to mount: emptied first when it was saved before the
 * site's cache was cleared, or when its save is unknown. Writable by the build's user, whatever
 * user the container runtime maps it to.
 */
export async function openCache(folder: string, clearedAt: string | null) {
  const savedAt = await readFile(path.join(folder, SAVED_AT), 'utf8').catch(() => null);
  if (clearedAt && (savedAt === null || savedAt < clearedAt)) await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  await chmod(folder, 0o777);
}

/** Moves the cached `node_modules` into the build's folder (a rename: nothing is copied, no link is followed). */
export async function restoreModules(folder: string, buildFolder: string): Promise<boolean> {
  const cached = path.join(folder, NODE_MODULES);
  const target = path.join(buildFolder, NODE_MODULES);
  if (!(await isRealFolder(cached)) || (await lstat(target).catch(() => null))) return false;
  await rename(cached, target);
  return true;
}

/** Moves the build's `node_modules` back into the cache, and notes when. */
export async function saveModules(folder: string, buildFolder: string, at: string): Promise<boolean> {
  const built = path.join(buildFolder, NODE_MODULES);
  const cached = path.join(folder, NODE_MODULES);
  await rm(cached, { recursive: true, force: true });
  const saved = await isRealFolder(built);
  if (saved) await rename(built, cached);
  await writeFile(path.join(folder, SAVED_AT), at);
  return saved;
}

/** A folder of the checkout named by the site's settings, refused when it, or a folder on its way, is a link. */
export async function realFolderIn(root: string, relative: string, what: string): Promise<string> {
  let current = root;
  for (const segment of relative.split('/').filter(Boolean)) {
    current = path.join(current, segment);
    if (!(await lstat(current).catch(() => null))) throw new BuildStepFailed(`The ${what} ${relative} does not exist`);
    if (!(await isRealFolder(current))) throw new BuildStepFailed(`The ${what} ${relative} is not a folder`);
  }
  return current;
}

/** Removes this builder's caches of sites that were deleted since: they would take its disk for good. */
export async function removeCachesOfDeletedSites(db: Db, dataDir: string) {
  const folder = path.join(dataDir, 'build-cache');
  const cached = await readdir(folder).catch(() => [] as string[]);
  if (cached.length === 0) return [];
  const alive = await db.selectFrom('sites').select('id').where('id', 'in', cached).execute();
  const kept = new Set(alive.map((site) => site.id));
  const gone = cached.filter((siteId) => !kept.has(siteId));
  for (const siteId of gone) await rm(path.join(folder, siteId), { recursive: true, force: true });
  return gone;
}
