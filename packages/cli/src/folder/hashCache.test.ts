import { createHash } from 'node:crypto';
import { readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { siteFolder } from '../../test/siteFolder.ts';
import { quietProgress } from '../output/progress.ts';
import { hashCacheDir } from './hashCache.ts';
import { readFolder } from './readFolder.ts';

const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');
const silent = quietProgress({ write: () => true });
const LAST_WEEK = new Date(Date.now() - 7 * 24 * 3600_000);

/** A built site whose files were last written a week ago, and an empty cache folder. */
async function builtSite(files: Record<string, string>) {
  const root = await siteFolder(files);
  for (const name of Object.keys(files)) await utimes(path.join(root, name), LAST_WEEK, LAST_WEEK);
  const cache = await siteFolder({});
  return { root, cache };
}

async function hashes(root: string, cache: string | null) {
  const { files, saveCache } = await readFolder(root, silent, cache);
  await saveCache();
  return Object.fromEntries(files.map((file) => [file.path, file.hash]));
}

describe('the hash cache of a folder', () => {
  it('does not read a file again while its size and modification time are those it was hashed at', async () => {
    const { root, cache } = await builtSite({ 'index.html': 'first', 'app.js': 'let a = 1;' });
    expect(await hashes(root, cache)).toEqual({ 'index.html': sha256('first'), 'app.js': sha256('let a = 1;') });
    // Same size, same time, other bytes: the cache answers without reading (the risk git's index takes too).
    await writeFile(path.join(root, 'index.html'), 'FIRST');
    await utimes(path.join(root, 'index.html'), LAST_WEEK, LAST_WEEK);
    expect((await hashes(root, cache))['index.html']).toBe(sha256('first'));
    // Without the cache the file is read.
    expect((await hashes(root, null))['index.html']).toBe(sha256('FIRST'));
  });

  it('reads a file again when its modification time or size changed', async () => {
    const { root, cache } = await builtSite({ 'index.html': 'first', 'app.js': 'let a = 1;' });
    await hashes(root, cache);
    await writeFile(path.join(root, 'index.html'), 'FIRST');
    await utimes(path.join(root, 'index.html'), LAST_WEEK, new Date(LAST_WEEK.getTime() + 1000));
    await writeFile(path.join(root, 'app.js'), 'let a = 10;');
    await utimes(path.join(root, 'app.js'), LAST_WEEK, LAST_WEEK);
    expect(await hashes(root, cache)).toEqual({ 'index.html': sha256('FIRST'), 'app.js': sha256('let a = 10;') });
  });

  it('does not trust a file written moments before it was hashed, and keeps one cache per folder', async () => {
    const { root, cache } = await builtSite({ 'index.html': 'first' });
    await writeFile(path.join(root, 'fresh.html'), 'fresh');
    const { mtime } = await stat(path.join(root, 'fresh.html'));
    await hashes(root, cache);
    // Rewritten within the same modification time: the cache must not have kept the old hash.
    await writeFile(path.join(root, 'fresh.html'), 'FRESH');
    await utimes(path.join(root, 'fresh.html'), mtime, mtime);
    expect((await hashes(root, cache))['fresh.html']).toBe(sha256('FRESH'));
    const other = await siteFolder({ 'index.html': 'other' });
    await hashes(other, cache);
    expect((await readdir(cache)).filter((name) => name.endsWith('.json'))).toHaveLength(2);
  });

  it('lives in WHARF_HASH_CACHE, else the user cache folder; off keeps none', () => {
    expect(hashCacheDir({ WHARF_HASH_CACHE: '/ci/cache' })).toBe('/ci/cache');
    expect(hashCacheDir({ WHARF_HASH_CACHE: 'off' })).toBeNull();
    expect(hashCacheDir({ XDG_CACHE_HOME: '/home/me/.cache-x' })).toBe('/home/me/.cache-x/wharf');
  });
});
