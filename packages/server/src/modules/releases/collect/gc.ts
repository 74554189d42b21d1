import type { ExpressionBuilder } from 'kysely';
import type { Chore } from '../../../cluster/housekeeping.ts';
import type { Database } from '../../../db/schema.ts';
import { httpError } from '../../../http/errors.ts';
import { attemptOfDeploy, pruneFailedDeploys, recordFailedDeploy } from '../failedDeploys.ts';
import type { ReleaseParts } from '../parts.ts';
import { deleteExpiredBranches } from '../retention/expiredBranches.ts';
import { pruneReleases } from '../retention/releaseRetention.ts';
import { blobPages, deleteDeadBlobs, markUnusedDead, unused } from './deadBlobs.ts';
import { isCollectionHeld } from './holds.ts';
import { removeOrphanFiles } from './orphanFiles.ts';

/** Blobs younger than this are never collected: an upload may be about to reference them. */
const GRACE_MS = 10 * 60_000;

/** Forgets deploys that were never finalised, so their files can be collected; each is kept as a failed deploy. */
export async function sweepExpiredDeploys(parts: ReleaseParts, at = new Date()) {
  const abandoned = await parts.db
    .selectFrom('deploys')
    .selectAll()
    .where('expires_at', '<=', at.toISOString())
    .where('release_id', 'is', null)
    .execute();
  await pruneFailedDeploys(parts.db, at);
  const expired = parts.db.selectFrom('deploys').select('id').where('expires_at', '<=', at.toISOString());
  // Kept and forgotten together: a crash between the two would keep it twice, or not at all.
  await parts.db.transaction().execute(async (trx) => {
    for (const row of abandoned) {
      const expiry = httpError('DEPLOY_EXPIRED', `Abandoned: not finalised before it expired at ${row.expires_at}`);
      await recordFailedDeploy(trx, parts.log, attemptOfDeploy(row, []), expiry);
    }
    await trx.deleteFrom('deploy_files').where('deploy_id', 'in', expired).execute();
    await trx.deleteFrom('deploys').where('expires_at', '<=', at.toISOString()).execute();
  });
}

/**
 * Removes at once those of the given blobs that nothing uses any more: the files a failed deploy
 * brought, which should not hold disk space until the next collection. Nothing while a backup
 * holds the collection off.
 */
export async function removeUnusedBlobs(parts: ReleaseParts, hashes: string[]) {
  if (await isCollectionHeld(parts.db)) return 0;
  await markUnusedDead(parts.db, hashes);
  return deleteDeadBlobs(parts, hashes);
}

/**
 * Deletes blobs that no release and no deploy in progress uses, the deadBlobs.ts way, which is
 * safe while deploys send the same files again; and the dead ones a crash left. Nothing is deleted
 * while a backup holds the collection off (it may be copying them: the next collection takes them).
 */
export async function collectGarbage(parts: ReleaseParts, at = new Date(), held?: AbortSignal) {
  const cutoff = new Date(at.getTime() - GRACE_MS).toISOString();
  let collected = 0;
  if (!(await isCollectionHeld(parts.db))) {
    const unusedSince = (eb: ExpressionBuilder<Database, 'blobs'>) =>
      eb.and([eb('created_at', '<=', cutoff), eb('dead', '=', 0), unused(eb)]);
    for await (const hashes of blobPages(parts.db, unusedSince)) {
      held?.throwIfAborted();
      await markUnusedDead(parts.db, hashes);
    }
    for await (const hashes of blobPages(parts.db, (eb) => eb('dead', '=', 1))) {
      held?.throwIfAborted();
      collected += await deleteDeadBlobs(parts, hashes);
    }
  }
  // Staged files of uploads cut off by a crash.
  await parts.blobs.removeStaleStaging(parts.config.deployTtlMs, at);
  return collected;
}

/**
 * The release wing's part of a housekeeping round: forgets expired deploys, applies retention
 * (expired branches, then releases past their site's retention), and collects the files nothing
 * uses any more, rows first and then (with `orphans`) the store's files no row accounts for. A
 * round whose lock is lost (`held` aborted: see onOneNodeAtATime) stops at its next step.
 */
export async function keepHouse(
  parts: ReleaseParts,
  at = new Date(),
  { orphans = true, held }: { orphans?: boolean; held?: AbortSignal } = {},
) {
  await sweepExpiredDeploys(parts, at);
  held?.throwIfAborted();
  const expiredBranches = await deleteExpiredBranches(parts, at);
  const releases = await pruneReleases(parts, at);
  if (expiredBranches + releases > 0) parts.log.info({ expiredBranches, releases }, 'applied retention');
  const collected = await collectGarbage(parts, at, held);
  const unrecorded = orphans ? await removeOrphanFiles(parts, GRACE_MS, at, held) : 0;
  if (collected + unrecorded > 0) parts.log.info({ collected, unrecorded }, 'collected unused release files');
}

/** The release wing's housekeeping chore: the store's unrecorded files are looked for in thorough rounds. */
export const releaseChore = (parts: ReleaseParts): Chore => ({
  name: 'releases',
  run: ({ at, held, thorough }) => keepHouse(parts, at, { orphans: thorough, held }),
});
