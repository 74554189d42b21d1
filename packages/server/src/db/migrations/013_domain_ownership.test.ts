import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { readJson } from '../../lib/json.ts';
import { migrate } from '../migrate.ts';

describeMigration('013', (olderDb) => {
  it('counts the domains saved before ownership existed as verified, each with a token of its own', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '012_mail_jobs');
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
      // Typed for today's schema; at 012 the table has no pretty_urls yet.
      .values([site('served', old), site('bare', [])] as never)
      .execute();

    await migrate(db, migrationSealer);
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
