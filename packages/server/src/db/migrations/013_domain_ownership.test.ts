import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databases, testDatabaseUrl, withPg } from '../../../test/harness.ts';
import { randomString } from '../../lib/ids.ts';
import { readJson } from '../../lib/json.ts';
import { Sealer } from '../../lib/secrets.ts';
import { openDb } from '../connection.ts';
import { migrate } from '../migrate.ts';

const sealer = () => new Sealer('the installation secret');

for (const database of databases) {
  describe(`migration 013 (${database.name})`, () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function olderDb() {
      if (database.postgres) {
        const schema = `test_${randomString(12)}`;
        await withPg((client) => client.query(`create schema ${schema}`));
        cleanups.push(() => withPg((client) => client.query(`drop schema if exists ${schema} cascade`)));
        const db = openDb({ dataDir: '', databaseUrl: testDatabaseUrl, schema });
        cleanups.push(() => db.destroy());
        return db;
      }
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-migrate-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const db = openDb({ dataDir, databaseUrl: null });
      cleanups.push(() => db.destroy());
      return db;
    }

    it('counts the domains saved before ownership existed as verified, each with a token of its own', async () => {
      const db = await olderDb();
      await migrate(db, sealer, '012_mail_jobs');
      const site = (id: string, domains: unknown[]) => ({
        id,
        org_id: 'o',
        team_id: 't',
        name: id,
        color: '#000000',
        logo_type: null,
        logo_version: null,
        main_branch_id: 'b',
        spa: 0,
        password_hash: null,
        password_version: null,
        domains: JSON.stringify(domains),
        headers: '[]',
        created_at: '2024-05-01T10:00:00.000Z',
      });
      const old = [
        { name: 'www.example.com', exposeBranches: true, sslConfiguration: { type: 'acme' } },
        { name: 'shop.example.com', exposeBranches: false, sslConfiguration: { type: 'external' } },
      ];
      await db
        .insertInto('sites')
        .values([site('served', old), site('bare', [])])
        .execute();

      await migrate(db, sealer);
      const rows = await db.selectFrom('sites').select(['id', 'domains']).orderBy('id').execute();
      expect(rows[0]).toEqual({ id: 'bare', domains: '[]' });
      const domains = readJson<{ name: string; ownership: { token: string; verifiedAt: string } }[]>(rows[1]!.domains);
      expect(domains).toEqual(
        old.map((domain) => ({
          ...domain,
          ownership: { token: expect.stringMatching(/^wharf-[a-z0-9]{32}$/), verifiedAt: expect.any(String) },
        })),
      );
      expect(domains[0]!.ownership.token).not.toBe(domains[1]!.ownership.token);
    });
  });
}
