import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { olderSiteRow } from '../../../test/migrationRows.ts';
import { listSiteForms } from '../../modules/forms/queries.ts';
import { migrate } from '../migrate.ts';
import type { Database } from '../schema.ts';

const CREATED = '2024-05-01T10:00:00.000Z';

const branch = (id: string, siteId: string, releaseId: string | null) => ({
  id,
  site_id: siteId,
  name: id,
  slug: id,
  release_id: releaseId,
  password_hash: null,
  password_version: null,
  headers: '[]',
  redirects: '[]',
  expires_at: null,
  created_at: CREATED,
});

/** A release row as the schema had them then: the columns later migrations add are not there yet. */
const release = (id: string, siteId: string, forms: unknown[], second: number) =>
  ({
    id,
    site_id: siteId,
    name: id,
    forms: JSON.stringify(forms),
    file_count: 1,
    total_size: 10,
    rules: '{"redirects":[],"headers":[]}',
    rule_problems: '[]',
    created_at: `2024-05-01T10:00:0${second}.000Z`,
  }) as Database['releases'];

describeMigration('024', (olderDb) => {
  it("moves every release's forms to its site, the main branch's definitions first, submissions untouched", async () => {
    const db = await olderDb();
    await migrate(db, migrationSealer, '020_installation');
    await db
      .insertInto('sites')
      .values([olderSiteRow('s1', 'main'), olderSiteRow('s2', 'other')] as never)
      .execute();
    await db
      .insertInto('branches')
      .values([branch('main', 's1', 'served'), branch('preview', 's1', 'preview'), branch('other', 's2', null)])
      .execute();
    await db
      .insertInto('releases')
      .values([
        // The newest release, served by no branch: its recipient loses to the main branch's.
        release('newest', 's1', [{ type: 'email', name: 'Contact', recipient: 'old@example.com' }], 3),
        release('served', 's1', [{ type: 'email', name: 'contact', recipient: 'team@example.com' }], 1),
        release('preview', 's1', [{ type: 'db', name: 'survey' }], 2),
        release('old', 's1', [{ type: 'db', name: 'signup' }], 0),
        release('s2', 's2', [], 0),
      ])
      .execute();
    const submission = {
      id: 'f1',
      site_id: 's1',
      branch_id: 'main',
      release_id: 'old',
      form: 'signup',
      fields: '{"email":"a@example.com"}',
      client_address: '192.0.2.1',
      created_at: CREATED,
      spam: 0,
      branch_name: 'main',
    };
    await db.insertInto('form_submissions').values(submission).execute();
    await migrate(db, migrationSealer);
    const every = { branches: null, detected: false };
    expect(await listSiteForms(db, 's1')).toEqual([
      { type: 'email', name: 'contact', recipient: 'team@example.com', ...every },
      { type: 'db', name: 'survey', ...every },
      { type: 'db', name: 'signup', ...every },
    ]);
    expect((await listSiteForms(db, 's1', ['main'])).map((form) => form.name)).toEqual(['contact', 'survey', 'signup']);
    expect(await listSiteForms(db, 's2')).toEqual([]);
    expect(await db.selectFrom('form_submissions').selectAll().execute()).toEqual([submission]);
  });
});
