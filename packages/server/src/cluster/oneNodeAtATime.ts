import { sql } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** How often a run asks its lock's connection whether it is still there. */
const LOCK_CHECK_EVERY_MS = 1_000;

/** Why a run stops early: its lock went with its connection, and another node may take it. */
export class LockLost extends Error {
  constructor(name: string, cause: unknown) {
    super(`The lock of ${name} went with its connection to the database: this run stops`);
    this.cause = cause;
  }
}

/**
 * Aborts `held` once `connection` stops answering. A session's advisory lock ends with its
 * connection (a restart, `pg_terminate_backend`, a proxy's idle timeout) while the work, on pooled
 * connections, could go on unlocked beside another node's run that took the lock meanwhile.
 */
function watchLock(connection: Db, name: string) {
  const held = new AbortController();
  const check = setInterval(() => {
    sql`select 1`.execute(connection).catch((error: unknown) => held.abort(new LockLost(name, error)));
  }, LOCK_CHECK_EVERY_MS);
  check.unref();
  return { signal: held.signal, stop: () => clearInterval(check) };
}

/**
 * Runs periodic work (collection, retention, certificate renewals) on one node at a time: under a
 * PostgreSQL advisory lock, named after the work and the schema, that another node's run holds
 * until it ends. A node that finds it held skips this round; the holder does the work. The lock
 * goes with its connection, so a node that dies mid-run does not keep it; and a run whose
 * connection drops is told through `held` (within a second), which the work checks between its
 * steps: it stops there with LockLost. SQLite has one node. Answers whether the work ran here.
 */
export async function onOneNodeAtATime(
  db: Db,
  name: string,
  work: (held: AbortSignal) => Promise<void>,
): Promise<boolean> {
  if (!isPostgres(db)) {
    await work(new AbortController().signal);
    return true;
  }
  return db.connection().execute(async (connection) => {
    const key = sql`hashtext(current_schema() || ':' || ${name})`;
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection);
    if (!rows[0]?.locked) return false;
    const lock = watchLock(connection, name);
    try {
      await work(lock.signal);
    } finally {
      lock.stop();
      // A lock whose connection dropped went with it: there is nothing left to let go.
      await sql`select pg_advisory_unlock(${key})`.execute(connection).catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
      });
    }
    return true;
  });
}
