import { execFile } from 'node:child_process';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmallDisk {
  dir: string;
  /** Bytes still free for files. */
  free(): Promise<number>;
  /** Fills the disk with a file of its own until only `leaveBytes` stay free; answers a way to empty it again. */
  fill(leaveBytes: number): Promise<() => Promise<void>>;
  unmount(): Promise<void>;
}

/**
 * A real file system of `bytes`, for a server whose disk must really fill up (writes failing
 * with ENOSPC as on a full disk, nothing mocked): a tmpfs, which takes root to mount, as in CI.
 */
export async function mountSmallDisk(bytes: number): Promise<SmallDisk> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-small-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      `This test fills a real disk: it mounts a small tmpfs with "mount -t tmpfs", which needs root (and the mount command). ${(error as Error).message}`,
    );
  }
  const free = async () => {
    const info = await statfs(dir);
    return info.bavail * info.bsize;
  };
  return {
    dir,
    free,
    async fill(leaveBytes) {
      const filler = path.join(dir, 'filler');
      await writeFile(filler, Buffer.alloc(Math.max(0, (await free()) - leaveBytes)));
      return () => rm(filler, { force: true });
    },
    async unmount() {
      // A server that has just stopped may still be letting go of a file there (its process exiting,
      // a worker thread closing a database): the disk is busy for a moment, then free. After ten
      // seconds it is detached lazily, to go once its last user does.
      for (let tries = 0; ; tries++) {
        try {
          await run('umount', [dir]);
          break;
        } catch (error) {
          if (!/busy/i.test((error as Error).message)) throw error;
          if (tries >= 50) {
            await run('umount', ['--lazy', dir]);
            break;
          }
          await sleep(200);
        }
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
