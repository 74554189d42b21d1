import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/harness.ts';
import { isAlive, startWharf, stopWharf, untilWorkersServe, type WharfProcess } from '../../test/processes.ts';

/**
 * The entries of Node's compile cache under `folder` (one folder down, by Node version). Node writes
 * each aside under a suffixed name and renames it into place: a file still being written is not one.
 */
function cacheEntries(folder: string): string[] {
  const cache = path.join(folder, 'node-compile-cache');
  try {
    return readdirSync(cache, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.includes('.'))
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

describe('the compiled code Wharf keeps between starts', () => {
  let temporary: string;
  let wharf: WharfProcess | undefined;

  beforeEach(async () => {
    temporary = await mkdtemp(path.join(os.tmpdir(), 'wharf-compiled-'));
  });
  afterEach(async () => {
    if (wharf) await stopWharf(wharf);
    await rm(temporary, { recursive: true, force: true });
  });

  it('is on disk once the node serves, so a node killed, or a worker that crashed, starts from it', async () => {
    const dataDir = path.join(temporary, 'data');
    // Wharf's own choice of folder, the system's temporary one (this test's own), whatever the caller's
    // environment names or disables (an unset value is left out of the child's environment).
    const unset = undefined as unknown as string;
    const env = {
      TMPDIR: temporary,
      NODE_COMPILE_CACHE: unset,
      NODE_DISABLE_COMPILE_CACHE: unset,
      WHARF_WORKERS: '2',
      LOG_LEVEL: 'info',
    };
    wharf = await startWharf(dataDir, await freePort(), env);
    await untilWorkersServe(wharf, 2);
    // Written by each process as it starts serving, not at an exit that a SIGKILL never gives.
    const deadline = Date.now() + 30_000;
    while (cacheEntries(temporary).length === 0 && Date.now() < deadline) await sleep(100);
    expect(isAlive(wharf.child)).toBe(true);
    const written = cacheEntries(temporary);
    expect(written.length).toBeGreaterThan(0);
    await stopWharf(wharf);
    wharf = undefined;
    // The other processes may still have been writing theirs when these were read.
    expect(cacheEntries(temporary)).toEqual(expect.arrayContaining(written));
  }, 120_000);
});
