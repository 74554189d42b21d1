import { sql } from 'kysely';
import type { Chore } from '../../cluster/housekeeping.ts';
import type { Db } from '../../db/schema.ts';
import { OTHER } from './tally.ts';
import { addToList, dayOf, KEYS_WRITTEN } from './write.ts';

const DAY_MS = 86_400_000;
/** Finished days looked at for lists to trim: a few, in case housekeeping did not run for a while. */
const RECENT_DAYS = 3;

/** Forgets traffic older than the retention: hours, per-branch hours and the days' lists. */
export async function pruneTraffic(db: Db, retentionDays: number, at: Date) {
  const sinceDay = dayOf(new Date(at.getTime() - retentionDays * DAY_MS));
  const since = `${sinceDay}T00:00:00.000Z`;
  await db.deleteFrom('site_traffic').where('hour', '<', since).execute();
  await db.deleteFrom('branch_traffic').where('hour', '<', since).execute();
  await db.deleteFrom('traffic_top').where('day', '<', sinceDay).execute();
}

/**
 * Trims each list of a finished day to its KEYS_WRITTEN most counted keys, the rest added to
 * OTHER: every flush wrote up to that many keys, so a day of scans could leave thousands of rows.
 */
export async function compactPastDays(db: Db, at: Date) {
  const today = dayOf(at);
  // The days that ended since the last rounds: older ones were trimmed then (the chore runs hourly).
  const since = dayOf(new Date(at.getTime() - RECENT_DAYS * DAY_MS));
  const long = await db
    .selectFrom('traffic_top')
    .select(['site_id', 'branch', 'day', 'kind'])
    .where('day', '<', today)
    .where('day', '>=', since)
    .where('key', '<>', OTHER)
    .groupBy(['site_id', 'branch', 'day', 'kind'])
    .having(sql`count(*)`, '>', KEYS_WRITTEN)
    .execute();
  for (const list of long) {
    await db.transaction().execute(async (trx) => {
      const rows = trx
        .selectFrom('traffic_top')
        .where('site_id', '=', list.site_id)
        .where('branch', '=', list.branch)
        .where('day', '=', list.day)
        .where('kind', '=', list.kind);
      const past = await rows
        .select(['key', 'requests'])
        .where('key', '<>', OTHER)
        .orderBy('requests', 'desc')
        .orderBy('key')
        .offset(KEYS_WRITTEN)
        .limit(1_000_000)
        .execute();
      const rest = past.reduce((sum, row) => sum + Number(row.requests), 0);
      const keys = past.map((row) => row.key);
      for (let start = 0; start < keys.length; start += 500) {
        await trx
          .deleteFrom('traffic_top')
          .where('site_id', '=', list.site_id)
          .where('branch', '=', list.branch)
          .where('day', '=', list.day)
          .where('kind', '=', list.kind)
          .where('key', 'in', keys.slice(start, start + 500))
          .execute();
      }
      await addToList(trx, { ...list, key: OTHER, requests: rest });
    });
  }
}

/** Retention and compaction of the sites' traffic, in the hourly (thorough) round of housekeeping. */
export const trafficChore = (db: Db, retentionDays: number): Chore => ({
  name: 'traffic',
  async run({ at, thorough }) {
    if (!thorough) return;
    await pruneTraffic(db, retentionDays, at);
    await compactPastDays(db, at);
  },
});
