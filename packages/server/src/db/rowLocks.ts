import { PostgresAdapter, type SelectQueryBuilder } from 'kysely';
import type { Database, Executor } from './schema.ts';

/**
 * Whether the database locks rows on request. SQLite needs no such lock: one writer at a time
 * holds the whole database until it commits.
 */
function locksRows(db: Executor) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The query, made to hold the rows it reads until the transaction ends: `share` against their
 * deletion (a branch about to point at a release), `update` to delete them after a look around.
 */
export function lockingRows<T extends keyof Database, O>(
  db: Executor,
  query: SelectQueryBuilder<Database, T, O>,
  mode: 'share' | 'update',
) {
  if (!locksRows(db)) return query;
  return mode === 'share' ? query.forShare() : query.forUpdate();
}
