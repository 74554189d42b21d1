import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databases, randomSchema, schemaUrl, withPg } from '../../test/harness.ts';
import { reusableLookup, reusableQuery } from './reusableQuery.ts';
import type { Executor } from './schema.ts';

interface Tables {
  members: { org_id: string; user_id: string; role: string };
}

describe.each(databases)('a query compiled once and run with new values, on $name', ({ postgres }) => {
  let db: Kysely<Tables>;
  let schema: string | null = null;

  beforeAll(async () => {
    if (postgres) {
      schema = await randomSchema();
      db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: schemaUrl(schema) }) }) });
    } else {
      db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    }
    await db.schema
      .createTable('members')
      .addColumn('org_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('role', 'text')
      .execute();
    await db
      .insertInto('members')
      .values([
        { org_id: 'o1', user_id: 'u1', role: 'owner' },
        { org_id: 'o1', user_id: 'u2', role: 'member' },
        { org_id: 'o2', user_id: 'u1', role: 'admin' },
      ])
      .execute();
  });
  afterAll(async () => {
    await db.destroy();
    if (schema) await withPg((client) => client.query(`drop schema ${schema} cascade`));
  });

  const asExecutor = () => db as unknown as Executor;

  it('answers each call by its own values, the constants of the query kept, and compiles once', async () => {
    const build = vi.fn((query: Executor, userId: string, orgId: string) =>
      (query as unknown as Kysely<Tables>)
        .selectFrom('members')
        .select('role')
        .where('org_id', '=', orgId)
        .where('role', '!=', 'gone')
        .where('user_id', '=', userId),
    );
    const roleOf = reusableLookup(build);
    expect(await roleOf(asExecutor(), 'u1', 'o1')).toEqual({ role: 'owner' });
    expect(await roleOf(asExecutor(), 'u2', 'o1')).toEqual({ role: 'member' });
    expect(await roleOf(asExecutor(), 'u1', 'o2')).toEqual({ role: 'admin' });
    expect(await roleOf(asExecutor(), 'u2', 'o2')).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('takes numbers as values too, a page of rows by its size and offset', async () => {
    const page = reusableQuery((query: Executor, orgId: string, size: number, offset: number) =>
      (query as unknown as Kysely<Tables>)
        .selectFrom('members')
        .select('user_id')
        .where('org_id', '=', orgId)
        .orderBy('user_id')
        .limit(size)
        .offset(offset),
    );
    expect(await page(asExecutor(), 'o1', 1, 0)).toEqual([{ user_id: 'u1' }]);
    expect(await page(asExecutor(), 'o1', 1, 1)).toEqual([{ user_id: 'u2' }]);
    expect(await page(asExecutor(), 'o1', 5, 0)).toEqual([{ user_id: 'u1' }, { user_id: 'u2' }]);
    expect(await page(asExecutor(), 'o2', 5, 0)).toEqual([{ user_id: 'u1' }]);
  });

  it('refuses a query whose shape would depend on an argument', async () => {
    const shaped = reusableLookup((query: Executor, orgId: string) =>
      (query as unknown as Kysely<Tables>)
        .selectFrom('members')
        .select('role')
        .where('org_id', '=', 'o1')
        .$if(orgId === 'never', (q) => q.where('org_id', '=', orgId)),
    );
    await expect(shaped(asExecutor(), 'o1')).rejects.toThrow(/Argument 0 is not a value of the query/);
  });
});
