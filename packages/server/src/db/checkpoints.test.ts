import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * A process of its own: whether the checkpoint thread keeps the event loop alive while it stops
 * can only be seen from outside, by the exit code the process ends with.
 */
const STOPS_THEN_CHOOSES_ITS_EXIT = `
import Database from 'better-sqlite3';
import { checkpointInThread } from ${JSON.stringify(path.join(import.meta.dirname, 'checkpoints.ts'))};
const file = process.argv[1];
const connection = new Database(file);
connection.pragma('journal_mode = WAL');
connection.exec('create table t (x)');
connection.exec('insert into t values (1)');
const checkpoints = checkpointInThread(connection, file);
connection.close();
await checkpoints.stop();
process.exitCode = 7;
`;

const STOPS_AN_ENDED_THREAD = `
import { setTimeout as sleep } from 'node:timers/promises';
import { checkpointInThread } from ${JSON.stringify(path.join(import.meta.dirname, 'checkpoints.ts'))};
const checkpoints = checkpointInThread({ pragma: () => undefined }, process.argv[1]);
await sleep(1_000);
await checkpoints.stop();
process.exitCode = 7;
`;

function run(source: string, file: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source, file], {
    cwd: import.meta.dirname,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
}

describe('the checkpoint thread', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wharf-checkpoints-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the process alive until it has stopped, and leaves no log behind', async () => {
    const file = path.join(dir, 'wharf.sqlite');
    // Many times: the thread's exit and the end of the event loop race.
    for (let i = 0; i < 5; i++) {
      await rm(file, { force: true });
      const { code, stderr } = await run(STOPS_THEN_CHOOSES_ITS_EXIT, file);
      expect(stderr).toBe('');
      expect(code).toBe(7);
      expect(await readdir(dir)).toEqual(['wharf.sqlite']);
    }
  }, 60_000);

  it('answers at once for a thread that has exited already', async () => {
    // The thread ends by itself when the database is gone before it begins (a server that stopped as it started).
    const { code, stderr } = await run(STOPS_AN_ENDED_THREAD, path.join(dir, 'gone.sqlite'));
    expect(stderr).toBe('');
    expect(code).toBe(7);
  }, 30_000);
});
