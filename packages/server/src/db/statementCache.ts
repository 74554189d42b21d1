import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Distinct statements kept prepared. Kysely's queries are parameterised, so the server's whole
 * set of statements is a few hundred; the bound only stops texts that vary (an `in` list of
 * every length) from growing the cache without end.
 */
export const STATEMENTS_KEPT = 1_000;

/**
 * Kysely opens its transactions with `begin`, which SQLite defers: the transaction reads, then asks
 * for the write lock at its first write. With several processes on one file (a cluster's workers)
 * that second step fails at once ("database is locked") when another process wrote meanwhile, as
 * waiting could deadlock; `busy_timeout` never applies to it. Taking the write lock at `begin`
 * makes each transaction wait its turn (within busy_timeout) instead.
 */
const TRANSACTION_TEXTS: Record<string, string> = { begin: 'begin immediate' };

/**
 * The SQLite connection as Kysely sees it, with each statement prepared once and kept by its
 * text. Kysely prepares every query it runs anew; on the API's hot paths (a session, a site and
 * a membership looked up before each list) preparing took as long as running the statements.
 * SQLite prepares a kept statement again by itself when the schema changes. Transactions take
 * the write lock as they begin (TRANSACTION_TEXTS).
 */
export function withStatementCache(connection: SqliteConnection, limit = STATEMENTS_KEPT): SqliteDatabase {
  const kept = new Map<string, Statement>();
  return {
    close: () => {
      kept.clear();
      connection.close();
    },
    prepare(text: string) {
      const sql = TRANSACTION_TEXTS[text] ?? text;
      const statement = kept.get(sql);
      if (statement) {
        // A statement still iterating (a streamed query) cannot run again until it ends.
        if (statement.busy) return connection.prepare(sql);
        // Least recently used last to go: a hit moves to the end of the map's order.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const prepared = connection.prepare(sql);
      kept.set(sql, prepared);
      if (kept.size > limit) kept.delete(kept.keys().next().value as string);
      return prepared;
    },
  };
}
