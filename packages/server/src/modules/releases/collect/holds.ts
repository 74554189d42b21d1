import type { Db } from '../../../db/schema.ts';
import { newId } from '../../../lib/ids.ts';

const HOLD_MS = 5 * 60_000;
const RENEW_EVERY_MS = 60_000;

/** Whether something holds the garbage collection off right now. */
export async function isCollectionHeld(db: Db, at = new Date()) {
  const hold = await db
    .selectFrom('housekeeping_holds')
    .select('id')
    .where('expires_at', '>', at.toISOString())
    .executeTakeFirst();
  return hold !== undefined;
}

/**
 * Keeps every server's garbage collection from deleting files while `work` runs: a backup copies
 * files that a release deleted meanwhile may no longer need. The hold is renewed while the work
 * goes on and lapses by itself within minutes if this process dies.
 */
export async function holdingCollection<T>(db: Db, reason: string, work: () => Promise<T>): Promise<T> {
  const id = newId();
  const expiry = () => new Date(Date.now() + HOLD_MS).toISOString();
  await db.insertInto('housekeeping_holds').values({ id, reason, expires_at: expiry() }).execute();
  const renew = setInterval(() => {
    // A renewal the database was away for is made by the next one, well before the hold lapses.
    void db
      .updateTable('housekeeping_holds')
      .set({ expires_at: expiry() })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined);
  }, RENEW_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await db.deleteFrom('housekeeping_holds').where('id', '=', id).execute();
  }
}
