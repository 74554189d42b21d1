import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, withPg } from '../../test/harness.ts';
import { randomString } from '../lib/ids.ts';
import { Sealer } from '../lib/secrets.ts';
import { openDb } from './connection.ts';
import { migrate } from './migrate.ts';

describe.runIf(testDatabaseUrl)('migrations on PostgreSQL', () => {
  const schemas = [`test_${randomString(12)}`, `test_${randomString(12)}`];
  afterAll(() =>
    withPg(async (client) => {
      for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
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
});
