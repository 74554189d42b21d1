import { type ExpressionBuilder, sql } from 'kysely';
import { isCollectionHeld } from '../backup/holds.ts';
import { onOneNodeAtATime } from '../cluster/oneNodeAtATime.ts';
import type { Database, Executor } from '../db/schema.ts';
import { sweepExpiredIdempotencyKeys } from '../http/idempotency.ts';
import { pruneFinishedJobs } from '../jobs/prune.ts';
import { expireUnverifiedClaims } from '../modules/sites/claimEnds.ts';
import { deleteExpiredBranches } from '../retention/expiredBranches.ts';
import { pruneReleases } from '../retention/releaseRetention.ts';
import type { WharfApp } from '../wharfApp.ts';
import { blobKey } from './blobs.ts';
import { removeOrphanFiles } from './orphanFiles.ts';

/** Blobs younger than this are never collected: an upload may be about to reference them. */
const GRACE_MS = 10 * 60_000;
const CHUNK = 500;

/** Forgets deploys that were never finalised, so their files can be collected. */
export async function sweepExpiredDeploys(app: WharfApp, at = new Date()) {
  const expired = app.db.selectFrom('deploys').select('id').where('expires_at', '<=', at.toISOString());
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('deploy_files').where('deploy_id', 'in', expired).execute();
    await trx.deleteFrom('deploys').where('expires_at', '<=', at.toISOString()).execute();
  });
}

/** No release and no deploy in progress uses the blob. */
function unused({ and, not, exists, selectFrom }: ExpressionBuilder<Database, 'blobs'>) {
  return and([
    not(exists(selectFrom('release_files').select(sql`1`.as('one')).whereRef('release_files.hash', '=', 'blobs.hash'))),
    not(exists(selectFrom('deploy_files').select(sql`1`.as('one')).whereRef('deploy_files.hash', '=', 'blobs.hash'))),
  ]);
}

/**
 * Deletes the rows of the blobs found unused by `deleteRows`, then their files; nothing while a
 * backup holds the collection off (it may be copying them: the next collection takes them).
 */
async function removeBlobs(app: WharfApp, deleteRows: (trx: Executor) => Promise<string[]>) {
  if (await isCollectionHeld(app.db)) return 0;
  const removed = await app.db.transaction().execute(async (trx) => {
    const hashes = await deleteRows(trx);
    for (let start = 0; start < hashes.length; start += CHUNK) {
      await trx
        .deleteFrom('org_blobs')
        .where('hash', 'in', hashes.slice(start, start + CHUNK))
        .execute();
    }
    return hashes;
  });
  for (const hash of removed) {
    await Promise.all((['identity', 'br', 'gzip'] as const).map((variant) => app.blobs.remove(blobKey(hash, variant))));
  }
  return removed.length;
}

/**
 * Removes at once those of the given blobs that nothing uses any more: the files a failed deploy
 * brought, which should not hold disk space until the next collection.
 */
export async function removeUnusedBlobs(app: WharfApp, hashes: string[]) {
  return removeBlobs(app, async (trx) => {
    const removed: string[] = [];
    for (let start = 0; start < hashes.length; start += CHUNK) {
      const rows = await trx
        .deleteFrom('blobs')
        .where('hash', 'in', hashes.slice(start, start + CHUNK))
        .where(unused)
        .returning('hash')
        .execute();
      removed.push(...rows.map((row) => row.hash));
    }
    return removed;
  });
}

/**
 * Deletes blobs that no release and no deploy in progress uses. Safe while uploads run: a deploy
 * records its files before their blobs are stored, and young blobs are left alone. Nothing is
 * deleted while a backup holds the collection off.
 */
export async function collectGarbage(app: WharfApp, at = new Date()) {
  const cutoff = new Date(at.getTime() - GRACE_MS).toISOString();
  const collected = await removeBlobs(app, async (trx) => {
    const rows = await trx
      .deleteFrom('blobs')
      .where('created_at', '<=', cutoff)
      .where(unused)
      .returning('hash')
      .execute();
    return rows.map((row) => row.hash);
  });
  // Staged files of uploads cut off by a crash.
  await app.blobs.removeStaleStaging(app.config.deployTtlMs, at);
  return collected;
}

/**
 * One round of housekeeping: forgets expired deploys and idempotency keys, applies retention
 * (expired branches, then releases past their site's retention), collects the files nothing
 * uses any more, rows first and then (with `orphans`) the store's files no row accounts for,
 * prunes old jobs, and ends the custom domains' claims left unverified too long.
 */
export async function keepHouse(app: WharfApp, at = new Date(), { orphans = true } = {}) {
  await sweepExpiredDeploys(app, at);
  await sweepExpiredIdempotencyKeys(app.db);
  const expiredBranches = await deleteExpiredBranches(app, at);
  const releases = await pruneReleases(app, at);
  if (expiredBranches + releases > 0) app.log.info({ expiredBranches, releases }, 'applied retention');
  const collected = await collectGarbage(app, at);
  const unrecorded = orphans ? await removeOrphanFiles(app, GRACE_MS, at) : 0;
  if (collected + unrecorded > 0) app.log.info({ collected, unrecorded }, 'collected unused release files');
  const pruned = await pruneFinishedJobs(app.db);
  if (pruned.jobs + pruned.attempts > 0) app.log.info(pruned, 'pruned old jobs and hook deliveries');
  const expiredClaims = await expireUnverifiedClaims(app, at);
  if (expiredClaims > 0) app.log.info({ expiredClaims }, 'ended unverified custom domain claims');
}

/** Rounds between two walks through the whole store: with millions of files, a walk is long. */
const ROUNDS_PER_ORPHAN_SWEEP = 12;

/** Keeps house now and then (the store's unrecorded files hourly); the timer never keeps the process alive. */
export function scheduleHousekeeping(app: WharfApp, everyMs = 5 * 60_000) {
  let round = 0;
  const run = async () => {
    try {
      const orphans = round++ % ROUNDS_PER_ORPHAN_SWEEP === 0;
      await onOneNodeAtATime(app.db, 'housekeeping', () => keepHouse(app, new Date(), { orphans }));
    } catch (error) {
      app.log.error({ err: error }, 'housekeeping failed');
    }
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  app.fastify.addHook('onClose', async () => clearInterval(timer));
  return run;
}
