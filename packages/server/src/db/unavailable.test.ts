import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../test/harness.ts';
import { type OwnDatabase, ownDatabase } from '../../test/ownDatabase.ts';
import { openDb } from './connection.ts';
import type { Db } from './schema.ts';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './unavailable.ts';

if (!testDatabaseUrl)
  console.warn('!! The PostgreSQL failure classification suite needs PostgreSQL (WHARF_TEST_DATABASE_URL): SKIPPED');

describe.skipIf(!testDatabaseUrl)('what PostgreSQL’s failures say to the rest of Wharf', () => {
  let database: OwnDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await ownDatabase('fault');
    db = openDb({ dataDir: '', databaseUrl: database.url });
    await sql`create table taken (name text primary key)`.execute(db);
    await sql`insert into taken values ('a')`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const failureOf = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: unknown) => error,
    );

  it('keeps a failure of the query as PostgreSQL gave it (a unique violation keeps its code)', async () => {
    const error = await failureOf(sql`insert into taken values ('a')`.execute(db));
    expect(error).toMatchObject({ code: '23505' });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('says the database is unavailable for a connection ended under a transaction', async () => {
    const error = await failureOf(
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await database.terminate();
        await sql`select 1`.execute(trx);
      }),
    );
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
  });

  it('says so for a database refusing connections, then works again once it accepts them', async () => {
    await database.allowConnections(false);
    try {
      await database.terminate();
      const startedAt = performance.now();
      const error = await failureOf(sql`select 1`.execute(db));
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(performance.now() - startedAt).toBeLessThan(5_000);
    } finally {
      await database.allowConnections(true);
    }
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});
