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

/**
 * Kysely's SQLite dialect with stable plans, whose `destroy()` closes the connection, then runs
 * and awaits `closed`: the checkpoint thread's stop, whose own connection's close removes the
 * log's files. Without the wait, a caller that removed the data folder next raced it (ENOTEMPTY, ci4).
 */
class WharfSqliteDialect extends SqliteDialect {
  readonly #closed: () => Promise<void>;

  constructor(database: SqliteDatabase, closed: () => Promise<void>) {
    super({ database });
    this.#closed = closed;
  }

  override createQueryCompiler() {
    return new StablePlanCompiler();
  }

  override createDriver() {
    const driver = super.createDriver();
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      await destroy();
      await this.#closed();
    };
    return driver;
  }
}

/** Kysely over an SQLite connection, with plans that hold for every value; `closed` runs last in `destroy()`. */
export function sqliteKysely<Tables>(
  database: SqliteDatabase,
  closed: () => Promise<void> = async () => {},
): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new WharfSqliteDialect(database, closed) });
}
