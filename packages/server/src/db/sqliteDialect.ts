import { Kysely, type SqliteDatabase, SqliteDialect, SqliteQueryCompiler } from 'kysely';

/**
 * Every bound value reaches SQLite as `+?`, not `?`. SQLite's planner reads a bound value while
 * it plans some statements (a column compared with `?` in a query an index orders under a LIMIT,
 * as every page of every list is; a LIKE pattern) and then marks the statement stale whenever
 * that value is bound again: a statement kept prepared (statementCache.ts) was parsed and planned
 * again on every run, a third of a releases page's database time. Unary plus is SQLite's identity
 * on every type and adds no affinity, so `col = +?` compares and uses the index exactly as
 * `col = ?` does; the planner only does not look into it, and each statement keeps the one plan it
 * was prepared with, for every value. (SQLite's own switch for that, the query planner stability
 * guarantee, is a connection setting better-sqlite3 does not expose.)
 */
class StablePlanCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder() {
    return '+?';
  }
}

class StablePlanDialect extends SqliteDialect {
  override createQueryCompiler() {
    return new StablePlanCompiler();
  }
}

/** Kysely over an SQLite connection, with plans that hold for every value. */
export function sqliteKysely<Tables>(database: SqliteDatabase): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new StablePlanDialect({ database }) });
}
