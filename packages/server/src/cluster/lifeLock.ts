import { sql } from 'kysely';
import { type ConnectionLog, DedicatedConnection } from '../db/dedicatedConnection.ts';
import type { Db } from '../db/schema.ts';

/**
 * How long a node process may be without its life lock while it is alive: the time its
 * connection takes to be made again after a drop (`DedicatedConnection` tries every second at
 * most), with room for a busy machine. Another process that finds the lock free asks again after
 * this long before it takes the process for dead.
 */
export const LIFE_LOCK_RETAKEN_WITHIN_MS = 3_000;

/** The advisory lock a node process holds for as long as it lives (PostgreSQL). */
const lifeLockOf = (instance: string) => sql`hashtext('wharf-node:' || current_schema() || ':' || ${instance})`;

/**
 * Holds the process's life lock on a connection of its own: PostgreSQL lets it go the moment that
 * connection drops, which is the moment the process dies (killed, crashed, its machine gone), or
 * the database closed it (a restart, a proxy's timeout): then it is taken again as soon as the
 * connection is back. Resolves once it is held.
 */
export async function holdLifeLock(
  connection: { databaseUrl: string; schema?: string },
  instance: string,
  parts: { log: ConnectionLog; onRetaken(): void },
) {
  const life = new DedicatedConnection({
    ...connection,
    applicationName: 'wharf life lock',
    purpose: 'holding this node process’s life lock',
    async setUp(client) {
      await client.query(`select pg_advisory_lock(hashtext('wharf-node:' || current_schema() || ':' || $1))`, [
        instance,
      ]);
    },
    onBack: parts.onRetaken,
    log: parts.log,
  });
  await life.ready;
  return life;
}

/** Whether some process holds `instance`'s life lock now: only that process takes it. */
export async function isLifeLockHeld(db: Db, instance: string) {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ free: boolean }>`select pg_try_advisory_lock(${lifeLockOf(instance)}) as free`.execute(
      connection,
    );
    if (!rows[0]?.free) return true;
    await sql`select pg_advisory_unlock(${lifeLockOf(instance)})`.execute(connection);
    return false;
  });
}
