import type { Db } from '../../../db/schema.ts';
import { now } from '../../../lib/ids.ts';

/**
 * The row of a pull request's one Wharf comment is also its lock: a report about to write the
 * comment claims the row (no id yet), so two reports at once — two jobs of one build after a
 * crash, two builds ending together — never both write one. A claim older than CLAIM_LASTS_MS
 * belongs to a report that died and may be taken over.
 */
const WRITING = '';
const CLAIM_LASTS_MS = 60_000;

export type CommentClaim =
  | { kind: 'edit'; commentId: string }
  | { kind: 'write'; release(): Promise<void>; written(commentId: string): Promise<void> }
  | { kind: 'busy' };

/** What the report may do with the pull request's comment: edit the kept one, write it (claimed), or wait. */
export async function claimComment(db: Db, siteId: string, number: number, lostId?: string): Promise<CommentClaim> {
  const row = await db
    .selectFrom('pull_request_comments')
    .select(['comment_id', 'updated_at'])
    .where('site_id', '=', siteId)
    .where('number', '=', number)
    .executeTakeFirst();
  if (row && row.comment_id !== WRITING && row.comment_id !== lostId)
    return { kind: 'edit', commentId: row.comment_id };
  const at = now();
  let claimed: boolean;
  if (!row) {
    const inserted = await db
      .insertInto('pull_request_comments')
      .values({ site_id: siteId, number, comment_id: WRITING, updated_at: at })
      .onConflict((conflict) => conflict.columns(['site_id', 'number']).doNothing())
      .executeTakeFirst();
    claimed = Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  } else {
    // A comment the forge lost (deleted), or a claim left by a report that died: taken over only as it was.
    const stale = row.comment_id === WRITING && Date.parse(row.updated_at) < Date.now() - CLAIM_LASTS_MS;
    if (row.comment_id === WRITING && !stale) return { kind: 'busy' };
    const updated = await db
      .updateTable('pull_request_comments')
      .set({ comment_id: WRITING, updated_at: at })
      .where('site_id', '=', siteId)
      .where('number', '=', number)
      .where('comment_id', '=', row.comment_id)
      .where('updated_at', '=', row.updated_at)
      .executeTakeFirst();
    claimed = Number(updated.numUpdatedRows) === 1;
  }
  if (!claimed) return { kind: 'busy' };
  return {
    kind: 'write',
    release: async () => {
      await db
        .deleteFrom('pull_request_comments')
        .where('site_id', '=', siteId)
        .where('number', '=', number)
        .where('comment_id', '=', WRITING)
        .where('updated_at', '=', at)
        .execute();
    },
    written: async (commentId) => {
      await db
        .updateTable('pull_request_comments')
        .set({ comment_id: commentId, updated_at: now() })
        .where('site_id', '=', siteId)
        .where('number', '=', number)
        .where('comment_id', '=', WRITING)
        .where('updated_at', '=', at)
        .execute();
    },
  };
}
