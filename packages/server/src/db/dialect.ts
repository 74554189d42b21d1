import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether the database is PostgreSQL (else SQLite): for the few queries that differ. */
// biome-ignore lint/suspicious/noExplicitAny: any database or transaction, typed or not (migrations)
export function isPostgres(db: Kysely<any>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
