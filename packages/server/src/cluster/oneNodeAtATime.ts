import { sql } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/**
 * Runs periodic work (collection, retention, certificate renewals) on one node at a time: under a
 * PostgreSQL advisory lock, named after the work and the schema, that another node's run holds
 * until it ends. A node that finds it held skips this round; the holder does the work. The lock
 * goes with its connection, so a node that dies mid-run does not keep it. SQLite has one node.
 * Answers whether the work ran here.
 */
export async function onOneNodeAtATime(db: Db, name: string, work: () => Promise<void>): Promise<boolean> {
  if (!isPostgres(db)) {
    await work();
    return true;
  }
  return db.connection().execute(async (connection) => {
    const key = sql`hashtext(current_schema() || ':' || ${name})`;
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection);
    if (!rows[0]?.locked) return false;
    try {
      await work();
    } finally {
      // A lock whose connection dropped went with it: there is nothing left to let go.
      await sql`select pg_advisory_unlock(${key})`.execute(connection).catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
      });
    }
    return true;
  });
}
