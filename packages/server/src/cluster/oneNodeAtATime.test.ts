import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../test/harness.ts';
import { type OwnDatabase, ownDatabase } from '../../test/ownDatabase.ts';
import { openDb } from '../db/connection.ts';
import type { Db } from '../db/schema.ts';
import { LockLost, onOneNodeAtATime } from './oneNodeAtATime.ts';

if (!testDatabaseUrl)
  console.warn('!! The one-node-at-a-time suite needs PostgreSQL (WHARF_TEST_DATABASE_URL): SKIPPED');

describe.skipIf(!testDatabaseUrl)('periodic work on one node at a time', () => {
  let database: OwnDatabase;
  let nodeA: Db;
  let nodeB: Db;

  beforeAll(async () => {
    database = await ownDatabase('lock');
    nodeA = openDb({ dataDir: '', databaseUrl: database.url, applicationName: 'node a' });
    nodeB = openDb({ dataDir: '', databaseUrl: database.url, applicationName: 'node b' });
  });
  afterAll(async () => {
    await Promise.all([nodeA?.destroy(), nodeB?.destroy()]);
    await database?.drop();
  });

  /** Work of steps that checks its lock between them, as housekeeping does; counts the steps it took. */
  function steppedWork(steps: { taken: number }, until: () => boolean) {
    return async (held: AbortSignal) => {
      while (!until()) {
        held.throwIfAborted();
        steps.taken += 1;
        await sleep(50);
      }
    };
  }

  it('skips a round another node holds, and takes the next one', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = onOneNodeAtATime(nodeA, 'chores', () => released);
    await sleep(200);
    expect(await onOneNodeAtATime(nodeB, 'chores', async () => undefined)).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(await onOneNodeAtATime(nodeB, 'chores', async () => undefined)).toBe(true);
  });

  it('stops a run whose lock went with its connection, within about a second, and lets another node take it', async () => {
    const steps = { taken: 0 };
    let stop = false;
    const running = onOneNodeAtATime(
      nodeA,
      'chores',
      steppedWork(steps, () => stop),
    );
    running.catch(() => undefined);
    await expect.poll(() => steps.taken).toBeGreaterThan(2);
    // The lock's connection alone ends (a proxy's idle timeout, an operator's pg_terminate_backend):
    // the database is up, and the run's other queries would go on without the lock.
    const cutAt = performance.now();
    await database.use((client) =>
      client.query(
        `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = $1)`,
        [database.name],
      ),
    );
    const error = await running.then(
      () => null,
      (failure: unknown) => failure,
    );
    const stoppedAfterMs = performance.now() - cutAt;
    stop = true;
    expect(error).toBeInstanceOf(LockLost);
    expect(stoppedAfterMs).toBeLessThan(5_000);
    const stepsAtStop = steps.taken;
    const other = { taken: 0 };
    let otherDone = false;
    expect(
      await onOneNodeAtATime(
        nodeB,
        'chores',
        steppedWork(other, () => (otherDone = other.taken >= 3)),
      ),
    ).toBe(true);
    expect(otherDone).toBe(true);
    expect(steps.taken).toBe(stepsAtStop);
  });
});
