import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomSchema, schemaUrl, testDatabaseUrl, withPg } from '../../test/harness.ts';
import { openPool } from './pool.ts';
import { reusableLookup } from './reusableQuery.ts';
import type { Executor } from './schema.ts';

interface Tables {
  sites: { id: string; name: string };
}

describe.skipIf(!testDatabaseUrl)('statements PostgreSQL prepares once on each connection', () => {
  let db: Kysely<Tables>;
  let schema: string;

  beforeAll(async () => {
    schema = await randomSchema();
    // One connection, so that what a test asks of the session is asked of the one the lookups ran on.
    db = new Kysely({
      dialect: new PostgresDialect({ pool: openPool({ databaseUrl: schemaUrl(schema), applicationName: 'test' }) }),
    });
    await db.schema.createTable('sites').addColumn('id', 'text').addColumn('name', 'text').execute();
    await db.insertInto('sites').values({ id: 's1', name: 'docs' }).execute();
  });
  afterAll(async () => {
    await db.destroy();
    await withPg((client) => client.query(`drop schema ${schema} cascade`));
  });

  const siteById = reusableLookup((query: Executor, id: string) =>
    (query as unknown as Kysely<Tables>).selectFrom('sites').selectAll().where('id', '=', id),
  );
  const lookUp = (id: string) => siteById(db as unknown as Executor, id);

  /** The statements prepared on the connection a query runs on: queries one after another share the pool's last one. */
  async function preparedHere() {
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
    return rows.map((row) => row.statement);
  }

  it('prepares a reusable query once and runs it by name, while other queries are not kept', async () => {
    expect(await lookUp('s1')).toEqual({ id: 's1', name: 'docs' });
    expect(await lookUp('s2')).toBeUndefined();
    const prepared = await preparedHere();
    expect(prepared.filter((statement) => statement.includes('from "sites"'))).toHaveLength(1);
    expect(prepared.some((statement) => statement.includes('pg_prepared_statements'))).toBe(false);
  });

  it('prepares again when a table it reads changes shape while it serves, or the preparation is dropped', async () => {
    expect(await lookUp('s1')).toEqual({ id: 's1', name: 'docs' });
    // A migration of a newer node: the prepared `select *` would now answer another row type.
    await db.schema.alterTable('sites').addColumn('color', 'text').execute();
    await db
      .updateTable('sites' as never)
      .set({ color: 'teal' } as never)
      .execute();
    expect(await lookUp('s1')).toEqual({ id: 's1', name: 'docs', color: 'teal' });
    // What a pooler or an operator's DISCARD does to a session's preparations.
    await sql`deallocate all`.execute(db);
    expect(await lookUp('s1')).toEqual({ id: 's1', name: 'docs', color: 'teal' });
    expect((await preparedHere()).filter((statement) => statement.includes('from "sites"'))).toHaveLength(1);
  });
});
