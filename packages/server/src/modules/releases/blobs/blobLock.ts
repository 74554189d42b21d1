import { sql } from 'kysely';
import { isPostgres } from '../../../db/dialect.ts';
import type { Db, Transaction } from '../../../db/schema.ts';

/*
 * One lock keeps the collection's deletion of blobs apart from the steps that count on blobs being
 * stored: a deploy answering which files it need not receive, an upload finding which it need not
 * store again, a variant being written. Those hold it shared, in the transaction that makes their
 * reference to the blobs or after it committed; marking blobs dead and deleting their files hold
 * it alone, and look for references only once they have it. So a blob counted on is never marked
 * or deleted afterwards, and a deletion under way is waited for, not raced.
 *
 * PostgreSQL: a transaction-level advisory lock of the schema, the same for every node. SQLite:
 * the transaction itself, since the one process that writes runs its transactions one at a time.
 */

type LockFunction = 'pg_advisory_xact_lock_shared' | 'pg_advisory_xact_lock';

function holding<T>(db: Db, lock: LockFunction, work: (trx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (isPostgres(trx))
      await sql`select ${sql.raw(lock)}(hashtext(current_schema()), hashtext('blob-deletion'))`.execute(trx);
    return work(trx);
  });
}

/** Runs `work` in a transaction during which no blob is marked dead and no blob's files are deleted. */
export function whileNoBlobIsDeleted<T>(db: Db, work: (trx: Transaction) => Promise<T>): Promise<T> {
  return holding(db, 'pg_advisory_xact_lock_shared', work);
}

/** Runs `work` in a transaction while nothing counts on blobs being stored or not: to mark or delete them. */
export function asTheOnlyBlobDeleter<T>(db: Db, work: (trx: Transaction) => Promise<T>): Promise<T> {
  return holding(db, 'pg_advisory_xact_lock', work);
}
