import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, withPg } from '../../test/harness.ts';
import { randomString } from '../lib/ids.ts';
import { Sealer } from '../lib/secrets.ts';
import { openDb } from './connection.ts';
import { migrate } from './migrate.ts';

describe.runIf(testDatabaseUrl)('migrations on PostgreSQL', () => {
  const schemas = [`test_${randomString(12)}`, `test_${randomString(12)}`];
  const churned = `test_${randomString(12)}`;
  afterAll(() =>
    withPg(async (client) => {
      for (const schema of [...schemas, churned]) await client.query(`drop schema if exists ${schema} cascade`);
    }),
  );

  it("creates its own tables in a schema while another schema of the database holds Wharf's", async () => {
    for (const schema of schemas) {
      await withPg((client) => client.query(`create schema ${schema}`));
      const db = openDb({ dataDir: '', databaseUrl: testDatabaseUrl, schema });
      try {
        await migrate(db, () => new Sealer('test'));
        const { rows } = await sql<{ count: string }>`select count(*) as count from kysely_migration`.execute(db);
        expect(Number(rows[0]!.count)).toBeGreaterThan(0);
        await sql`select 1 from sites limit 1`.execute(db);
      } finally {
        await db.destroy();
      }
    }
  });

  it("migrates while another application's schema changes all the while", async () => {
    await withPg((client) => client.query(`create schema ${churned}`));
    let churning = true;
    // Tables with serial columns made and dropped as fast as PostgreSQL takes them: what a look
    // at every schema's tables and sequences would trip over.
    const churn = withPg(async (client) => {
      for (let round = 0; churning; round++) {
        await client.query(`create table ${churned}.t${round % 4} (id serial primary key, a int, b text)`);
        await client.query(`drop table ${churned}.t${(round + 2) % 4} `).catch(() => undefined);
      }
    });
    const fresh = [1, 2, 3].map(() => `test_${randomString(12)}`);
    schemas.push(...fresh);
    try {
      for (const schema of fresh) {
        await withPg((client) => client.query(`create schema ${schema}`));
        const db = openDb({ dataDir: '', databaseUrl: testDatabaseUrl, schema });
        try {
          await migrate(db, () => new Sealer('test'));
          await migrate(db, () => new Sealer('test'));
          await sql`select 1 from sites limit 1`.execute(db);
        } finally {
          await db.destroy();
        }
      }
    } finally {
      churning = false;
      await churn;
    }
  });
});
