import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { migrate } from '../migrate.ts';

describeMigration('017', (olderDb) => {
  it('gives existing sites the bounded default retention, and existing branches and deploys no expiry', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '016_release_rules');
    await sql`
        insert into sites (id, org_id, team_id, name, color, main_branch_id, spa, domains, headers, created_at)
        values ('s1', 'o1', 't1', 'old', '#000000', 'b1', 0, '[]', '[]', '2024-05-01T10:00:00.000Z')`.execute(db);
    await sql`
        insert into branches (id, site_id, name, slug, release_id, headers, redirects, created_at)
        values ('b1', 's1', 'main', 'main', null, '[]', '[]', '2024-05-01T10:00:00.000Z')`.execute(db);
    await sql`
        insert into deploys (id, site_id, name, branches, created_at, expires_at)
        values ('d1', 's1', 'r', '[]', '2024-05-01T10:00:00.000Z', '2024-05-01T11:00:00.000Z')`.execute(db);

    await migrate(db, migrationSealer);
    expect(await db.selectFrom('sites').select(['keep_releases_days', 'keep_releases_count']).execute()).toEqual([
      { keep_releases_days: 30, keep_releases_count: 100 },
    ]);
    expect(await db.selectFrom('branches').select('expires_at').execute()).toEqual([{ expires_at: null }]);
    expect(await db.selectFrom('deploys').select('branch_expiry').execute()).toEqual([{ branch_expiry: null }]);
  });
});
