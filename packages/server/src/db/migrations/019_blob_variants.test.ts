import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { migrate } from '../migrate.ts';

describeMigration('019', (olderDb) => {
  it('counts blobs stored before it as having their variants, and new rows as pending only when told', async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '016_release_rules');
    const blob = (hash: string, br: number | null) => ({
      hash,
      size: 1000,
      br_size: br,
      gz_size: br,
      created_at: '2026-11-01T10:00:00.000Z',
    });
    // Typed for today's schema; at 016 the table has no variants_pending yet.
    await db
      .insertInto('blobs')
      .values([blob('compressed', 300), blob('binary', null)] as never)
      .execute();

    await migrate(db, migrationSealer);
    const rows = await db.selectFrom('blobs').select(['hash', 'br_size', 'variants_pending']).orderBy('hash').execute();
    expect(
      rows.map((row) => [row.hash, row.br_size === null ? null : Number(row.br_size), Number(row.variants_pending)]),
    ).toEqual([
      ['binary', null, 0],
      ['compressed', 300, 0],
    ]);
    await db
      .insertInto('blobs')
      .values({ ...blob('new', null), variants_pending: 1, dead: 0 })
      .execute();
    const added = await db
      .selectFrom('blobs')
      .select('variants_pending')
      .where('hash', '=', 'new')
      .executeTakeFirstOrThrow();
    expect(Number(added.variants_pending)).toBe(1);
  });
});
