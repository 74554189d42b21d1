import { sql } from 'kysely';
import type { Database, Db, Executor } from '../../db/schema.ts';
import type { TrafficListKind } from '../../db/tables/sites.ts';
import { type AnswerCounts, COUNTED } from './counters.ts';
import { OTHER, type TrafficEntry, type TrafficTally } from './tally.ts';

/** Keys of a list written per flush; the rest is added to OTHER, so a day's rows stay few. */
export const KEYS_WRITTEN = 100;

const hourOf = (at: Date) => `${at.toISOString().slice(0, 13)}:00:00.000Z`;
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The counters added to those of the row already there. */
const increments = (table: 'site_traffic' | 'branch_traffic', c: AnswerCounts) =>
  Object.fromEntries(COUNTED.map((key) => [key, sql<number>`${sql.ref(`${table}.${key}`)} + ${c[key]}`]));

/** The most counted keys, and the rest summed into OTHER. */
export function mostCounted(list: readonly [string, number][], keep = KEYS_WRITTEN): [string, number][] {
  const sorted = [...list].sort((a, b) => b[1] - a[1]);
  const kept = sorted.filter(([key]) => key !== OTHER).slice(0, keep);
  const rest = list.reduce((sum, [, count]) => sum + count, 0) - kept.reduce((sum, [, count]) => sum + count, 0);
  return rest > 0 ? [...kept, [OTHER, rest]] : kept;
}

/** Adds to a day's count of a key in a list (inserted at its first count). */
export async function addToList(trx: Executor, row: Database['traffic_top']) {
  await trx
    .insertInto('traffic_top')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['site_id', 'branch', 'day', 'kind', 'key'])
        .doUpdateSet({ requests: sql<number>`traffic_top.requests + ${row.requests}` }),
    )
    .execute();
}

async function writeEntry(trx: Executor, entry: TrafficEntry, at: Date) {
  const { siteId, branch, counts } = entry;
  const hour = hourOf(at);
  await trx
    .insertInto('site_traffic')
    .values({ site_id: siteId, hour, ...counts })
    .onConflict((oc) => oc.columns(['site_id', 'hour']).doUpdateSet(increments('site_traffic', counts)))
    .execute();
  await trx
    .insertInto('branch_traffic')
    .values({ site_id: siteId, branch, hour, ...counts })
    .onConflict((oc) => oc.columns(['site_id', 'branch', 'hour']).doUpdateSet(increments('branch_traffic', counts)))
    .execute();
  const day = dayOf(at);
  for (const kind of Object.keys(entry.lists) as TrafficListKind[]) {
    for (const [key, requests] of mostCounted(entry.lists[kind]))
      await addToList(trx, { site_id: siteId, branch, day, kind, key, requests });
  }
}

/**
 * Writes what the tally counted, each site's branch in one transaction. What could not be written
 * (the database away) goes back into the tally for the next flush: an outage's traffic is counted late, not lost.
 */
export async function flushTraffic(db: Db, tally: TrafficTally, at = new Date()) {
  if (tally.size === 0) return;
  const batch = tally.take();
  for (const [index, entry] of batch.entries()) {
    try {
      await db.transaction().execute((trx) => writeEntry(trx, entry, at));
    } catch (error) {
      tally.add(batch.slice(index));
      throw error;
    }
  }
}
