import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Db } from '../../../db/schema.ts';
import { inParallel } from '../../../lib/inParallel.ts';
import { blobKey, VARIANTS } from '../../../releaseFiles/blobKeys.ts';
import { asTheOnlyBlobDeleter } from '../blobs/blobLock.ts';
import type { ReleaseParts } from '../parts.ts';

/*
 * A blob goes in three steps: marked dead, its files deleted, its row deleted. Deploys count a dead
 * blob as missing and store it again; a crash part-way leaves dead rows, which the next collection
 * finishes. The files of a blob are deleted only alone under the blob lock (blobLock.ts), with the
 * row still dead and still unused once the lock is held: a deploy that sends the same files again
 * meanwhile waits for the deletion to end, then stores them anew.
 */

const PAGE = 500;
/** Blobs whose files are deleted under one hold of the lock: what a deploy waits for, at most. */
const DELETE_CHUNK = 100;
const DELETES_IN_FLIGHT = 16;

type BlobsWhere = ExpressionBuilder<Database, 'blobs'>;

/** No release and no deploy in progress uses the blob. */
export function unused({ and, not, exists, selectFrom }: BlobsWhere) {
  return and([
    not(exists(selectFrom('release_files').select(sql`1`.as('one')).whereRef('release_files.hash', '=', 'blobs.hash'))),
    not(exists(selectFrom('deploy_files').select(sql`1`.as('one')).whereRef('deploy_files.hash', '=', 'blobs.hash'))),
  ]);
}

/** The hashes of the blobs `which` picks, a page at a time in hash order. */
export async function* blobPages(db: Db, which: (eb: BlobsWhere) => Expression<SqlBool>) {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('blobs')
      .select('hash')
      .where(which)
      .where('hash', '>', after)
      .orderBy('hash')
      .limit(PAGE)
      .execute();
    if (rows.length > 0) yield rows.map((row) => row.hash);
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.hash;
  }
}

function* chunks(hashes: string[], size: number) {
  for (let start = 0; start < hashes.length; start += size) yield hashes.slice(start, start + size);
}

/** Marks dead those of the blobs that nothing uses: from then on, deploys count them as missing. */
export async function markUnusedDead(db: Db, hashes: string[]) {
  for (const chunk of chunks(hashes, PAGE)) {
    await asTheOnlyBlobDeleter(db, (trx) =>
      trx
        .updateTable('blobs')
        .set({ dead: 1 })
        .where('hash', 'in', chunk)
        .where('dead', '=', 0)
        .where(unused)
        .execute(),
    );
  }
}

/**
 * Deletes the files, then the rows, of those of the blobs that are dead and still unused; a dead
 * blob a deploy uses again stays, for the deploy to store. Answers how many went.
 */
export async function deleteDeadBlobs(parts: ReleaseParts, hashes: string[]) {
  let deleted = 0;
  for (const chunk of chunks(hashes, DELETE_CHUNK)) {
    deleted += await asTheOnlyBlobDeleter(parts.db, async (trx) => {
      const rows = await trx
        .selectFrom('blobs')
        .select('hash')
        .where('hash', 'in', chunk)
        .where('dead', '=', 1)
        .where(unused)
        .execute();
      const going = rows.map((row) => row.hash);
      if (going.length === 0) return 0;
      const keys = going.flatMap((hash) => VARIANTS.map((variant) => blobKey(hash, variant)));
      await inParallel(keys, DELETES_IN_FLIGHT, (key) => parts.blobs.remove(key));
      await trx.deleteFrom('org_blobs').where('hash', 'in', going).execute();
      await trx.deleteFrom('blobs').where('hash', 'in', going).where('dead', '=', 1).execute();
      return going.length;
    });
  }
  return deleted;
}
