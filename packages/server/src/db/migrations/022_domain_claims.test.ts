import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { migrate } from '../migrate.ts';

describeMigration('022', (olderDb) => {
  it('makes each saved domain a claim of its site, verified as it was', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '021_sealed_private_keys');
    const domains = [
      {
        name: 'www.example.com',
        exposeBranches: true,
        sslConfiguration: { type: 'acme' },
        ownership: { token: 'wharf-a', verifiedAt: '2026-01-01T00:00:00.000Z' },
      },
      {
        name: 'new.example.com',
        exposeBranches: false,
        sslConfiguration: { type: 'external' },
        ownership: { token: 'wharf-b', verifiedAt: null },
      },
    ];
    await db
      .insertInto('sites')
      .values({
        id: 'site',
        org_id: 'org',
        team_id: 't',
        name: 'site',
        color: '#000000',
        logo_type: null,
        logo_version: null,
        pretty_urls: 1,
        main_branch_id: 'b',
        spa: 0,
        password_hash: null,
        password_version: null,
        domains: JSON.stringify(domains),
        headers: '[]',
        created_at: '2026-01-01T00:00:00.000Z',
        keep_releases_days: null,
        keep_releases_count: null,
      } as never)
      .execute();

    await migrate(db, migrationSealer);
    const claims = await db.selectFrom('domain_claims').selectAll().orderBy('name').execute();
    expect(claims).toEqual([
      {
        name: 'new.example.com',
        site_id: 'site',
        org_id: 'org',
        verified_at: null,
        verified_by: null,
        claimed_at: expect.any(String),
      },
      {
        name: 'www.example.com',
        site_id: 'site',
        org_id: 'org',
        verified_at: '2026-01-01T00:00:00.000Z',
        verified_by: 'txt',
        claimed_at: expect.any(String),
      },
    ]);
    // One verified claim per name: a second one is refused by the database itself.
    const again = { name: 'www.example.com', site_id: 'other', org_id: 'org2', claimed_at: 'now' };
    await expect(
      db
        .insertInto('domain_claims')
        .values({ ...again, verified_at: 'now' })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('domain_claims')
      .values({ ...again, verified_at: null })
      .execute();
  });
});
