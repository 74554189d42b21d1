import type { Chore } from '../../cluster/housekeeping.ts';
import type { Db } from '../../db/schema.ts';

/** How long a finished build, with its log, is kept. */
export const BUILDS_KEPT_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
const PER_ROUND = 500;

/**
 * Forgets builds that finished more than 90 days ago, their logs with them (a log may hold 20,000
 * lines): the releases they made stay, with their source. A few hundred per round, so a round
 * stays short however many there are.
 */
export const buildRetentionChore = (db: Db): Chore => ({
  name: 'build retention',
  async run({ at }) {
    const before = new Date(at.getTime() - BUILDS_KEPT_DAYS * DAY_MS).toISOString();
    const old = await db
      .selectFrom('builds')
      .select('id')
      .where('finished_at', '<', before)
      .orderBy('finished_at')
      .limit(PER_ROUND)
      .execute();
    if (old.length === 0) return;
    const ids = old.map((row) => row.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('build_log').where('build_id', 'in', ids).execute();
      await trx.deleteFrom('builds').where('id', 'in', ids).execute();
    });
  },
});
