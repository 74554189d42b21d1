import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { olderSiteRow } from '../../../test/migrationRows.ts';
import { migrate } from '../migrate.ts';
import type { Db } from '../schema.ts';

const form = (siteId: string, name: string, position: number) => ({
  site_id: siteId,
  name_key: name,
  definition: JSON.stringify({ type: 'db', name }),
  branch_ids: null,
  detected: 0,
  position,
});

async function revisions(db: Db) {
  const rows = await db.selectFrom('sites').select(['id', 'forms_revision']).orderBy('id').execute();
  return Object.fromEntries(rows.map((row) => [row.id, Number(row.forms_revision)]));
}

describeMigration('039', (olderDb) => {
  it("counts a site's forms revision up with every form added, changed, moved or removed, and only that site's", async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '038_cli_login_claim_key');
    // Typed for today's schema; at 038 the table has no forms_revision yet.
    await db
      .insertInto('sites')
      .values([olderSiteRow('s1'), olderSiteRow('s2')] as never)
      .execute();
    await migrate(db, migrationSealer);
    expect(await revisions(db)).toEqual({ s1: 0, s2: 0 });

    await db
      .insertInto('site_forms')
      .values([form('s1', 'contact', 0), form('s1', 'join', 1)])
      .execute();
    expect(await revisions(db)).toEqual({ s1: 2, s2: 0 });
    await db.updateTable('site_forms').set({ position: 5 }).where('name_key', '=', 'join').execute();
    expect(await revisions(db)).toEqual({ s1: 3, s2: 0 });
    await db.updateTable('site_forms').set({ site_id: 's2' }).where('name_key', '=', 'join').execute();
    expect(await revisions(db)).toEqual({ s1: 4, s2: 1 });
    await db.deleteFrom('site_forms').where('site_id', '=', 's2').execute();
    expect(await revisions(db)).toEqual({ s1: 4, s2: 2 });
    // A change rolled back leaves the revision as it was.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('site_forms').where('site_id', '=', 's1').execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await revisions(db)).toEqual({ s1: 4, s2: 2 });
    await db.destroy();
  });
});
