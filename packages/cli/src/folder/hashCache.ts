import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** What a file was when it was hashed: its size, modification time and inode, and the hash. */
type Recorded = [size: number, mtimeMs: number, ino: number, hash: string];

interface CacheFile {
  version: 1;
  files: Record<string, Recorded>;
}

/**
 * A file modified this close to its hashing may be modified again within the file system's
 * time resolution (a second or two on some) without its modification time changing: such a file is
 * hashed again next time rather than trusted (git's index calls it "racily clean").
 */
const RACY_MS = 2_000;

/** Where the caches live: `WHARF_HASH_CACHE`, `off` for none; by default the user's cache folder. */
export function hashCacheDir(env: Record<string, string | undefined>): string | null {
  const configured = env.WHARF_HASH_CACHE;
  if (configured === 'off') return null;
  if (configured) return configured;
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'wharf');
}

/**
 * The hashes of a folder's files from its last upload, by path, size, modification time and inode,
 * as git's index keeps them: a redeploy reads only files whose size or time changed. One cache
 * file per uploaded folder (by its absolute path); losing it only costs reading every file again.
 */
export class HashCache {
  private readonly next: Record<string, Recorded> = {};

  private constructor(
    private readonly file: string | null,
    private readonly previous: Record<string, Recorded>,
    private readonly startedAt: number,
  ) {}

  /** The cache of a folder; an unreadable or absent one is empty. */
  static async open(dir: string | null, folder: string): Promise<HashCache> {
    const startedAt = Date.now();
    if (!dir) return new HashCache(null, {}, startedAt);
    const id = createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);
    const file = path.join(dir, `hashes-${id}.json`);
    const stored = await readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as CacheFile)
      .catch(() => null);
    return new HashCache(file, stored?.version === 1 ? stored.files : {}, startedAt);
  }

  /** The hash recorded for this file when it has not changed since; it is kept for the next run too. */
  lookUp(relativePath: string, info: Stats): string | null {
    const recorded = this.previous[relativePath];
    if (!recorded) return null;
    const [size, mtimeMs, ino, hash] = recorded;
    if (size !== info.size || mtimeMs !== info.mtimeMs || ino !== info.ino) return null;
    this.next[relativePath] = recorded;
    return hash;
  }

  /** Records a file just hashed, unless it changed too recently to be trusted by its time. */
  record(relativePath: string, info: Stats, hash: string) {
    if (info.mtimeMs > this.startedAt - RACY_MS) return;
    this.next[relativePath] = [info.size, info.mtimeMs, info.ino, hash];
  }

  /** Writes the files seen in this run (and only those); a failure to write is not the upload's. */
  async save(): Promise<void> {
    if (!this.file) return;
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      await writeFile(temporary, JSON.stringify({ version: 1, files: this.next } satisfies CacheFile));
      await rename(temporary, this.file);
    } catch {
      await rm(temporary, { force: true }).catch(() => undefined);
    }
  }
}
