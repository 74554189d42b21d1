import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { migrate } from '../migrate.ts';

describeMigration('040', (olderDb) => {
  it('leaves a deploy open across the upgrade with every file to check at its finalise', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '039_site_forms_revision');
    const file = (path: string) => ({ deploy_id: 'd1', path, hash: `${path}-hash`, size: 1 });
    // Typed for today's schema; at 039 the table has no held column yet.
    await db
      .insertInto('deploy_files')
      .values([file('a.html'), file('b.css')] as never)
      .execute();
    await migrate(db, migrationSealer);
    const rows = await db.selectFrom('deploy_files').select(['path', 'held']).orderBy('path').execute();
    expect(rows.map((row) => [row.path, Number(row.held)])).toEqual([
      ['a.html', 0],
      ['b.css', 0],
    ]);
    await db.destroy();
  });
});
