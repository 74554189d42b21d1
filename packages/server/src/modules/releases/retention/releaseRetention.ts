import { type ExpressionBuilder, sql } from 'kysely';
import { lockingRows } from '../../../db/rowLocks.ts';
import type { Database, Executor } from '../../../db/schema.ts';
import { isCollectionHeld } from '../collect/holds.ts';
import type { ReleaseParts } from '../parts.ts';
import { deleteReleaseRows } from '../service.ts';

type SiteRow = Database['sites'];

const DAY_MS = 86_400_000;
const SITES_PER_PAGE = 200;
/** Releases deleted per transaction: short transactions, so uploads and rollbacks barely wait. */
const CHUNK = 100;

/**
 * Still needed: a branch serves it, or a finalised deploy still answers with it (a client's
 * retried finalise must find the release it made).
 */
function inUse(at: string) {
  return ({ or, exists, selectFrom }: ExpressionBuilder<Database, 'releases'>) =>
    or([
      exists(selectFrom('branches').select(sql`1`.as('one')).whereRef('branches.release_id', '=', 'releases.id')),
      exists(
        selectFrom('deploys')
          .select(sql`1`.as('one'))
          .whereRef('deploys.release_id', '=', 'releases.id')
          .where('deploys.expires_at', '>', at),
      ),
    ]);
}

/** The newest release the site keeps by count: older ones are beyond it. */
async function lastKeptByCount(db: Executor, site: SiteRow) {
  if (site.keep_releases_count === null) return null;
  return db
    .selectFrom('releases')
    .select(['created_at', 'id'])
    .where('site_id', '=', site.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(site.keep_releases_count - 1)
    .limit(1)
    .executeTakeFirst();
}

/** Releases of the site past its retention, oldest first: older than its days, or beyond its newest count. */
async function releasesPastRetention(db: Executor, site: SiteRow, at: Date) {
  const tooOld =
    site.keep_releases_days === null ? null : new Date(at.getTime() - site.keep_releases_days * DAY_MS).toISOString();
  const lastKept = await lastKeptByCount(db, site);
  if (tooOld === null && !lastKept) return [];
  return db
    .selectFrom('releases')
    .select(['id', 'name'])
    .where('site_id', '=', site.id)
    .where(({ or, and, eb }) =>
      or([
        ...(tooOld === null ? [] : [eb('created_at', '<', tooOld)]),
        ...(lastKept
          ? [
              eb('created_at', '<', lastKept.created_at),
              and([eb('created_at', '=', lastKept.created_at), eb('id', '<', lastKept.id)]),
            ]
          : []),
      ]),
    )
    .where((eb) => eb.not(inUse(at.toISOString())(eb)))
    .orderBy('created_at')
    .orderBy('id')
    .limit(CHUNK)
    .execute();
}

/**
 * Deletes a chunk of the site's releases past retention; answers how many went. The rows are
 * locked first, then checked again: a rollback that points a branch at one of them meanwhile
 * either waits for this to end (and finds the release gone) or wins (and it stays).
 */
async function deleteChunk(parts: ReleaseParts, site: SiteRow, at: Date) {
  const candidates = await releasesPastRetention(parts.db, site, at);
  if (candidates.length === 0) return 0;
  return parts.db.transaction().execute(async (trx) => {
    const ids = candidates.map((release) => release.id);
    await lockingRows(trx, trx.selectFrom('releases').select('id').where('id', 'in', ids), 'update').execute();
    const unused = await trx
      .selectFrom('releases')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .where((eb) => eb.not(inUse(at.toISOString())(eb)))
      .execute();
    await deleteReleaseRows(trx, site, unused, { actorId: null, reason: 'retention' });
    return unused.length;
  });
}

async function pruneSite(parts: ReleaseParts, site: SiteRow, at: Date) {
  let deleted = 0;
  for (;;) {
    const count = await deleteChunk(parts, site, at);
    deleted += count;
    if (count < CHUNK) return deleted;
  }
}

/**
 * Deletes, on every site, the releases no branch serves that are older than the site keeps them
 * or beyond the newest it keeps. Nothing while a backup holds the collection off: it copies the
 * releases it listed. Their files go with the next garbage collection.
 */
export async function pruneReleases(parts: ReleaseParts, at = new Date()) {
  if (await isCollectionHeld(parts.db)) return 0;
  let deleted = 0;
  let after = '';
  for (;;) {
    const sites = await parts.db
      .selectFrom('sites')
      .selectAll()
      .where('id', '>', after)
      .where((eb) => eb.or([eb('keep_releases_days', 'is not', null), eb('keep_releases_count', 'is not', null)]))
      .orderBy('id')
      .limit(SITES_PER_PAGE)
      .execute();
    for (const site of sites) deleted += await pruneSite(parts, site, at);
    if (sites.length < SITES_PER_PAGE) return deleted;
    after = sites.at(-1)!.id;
  }
}
