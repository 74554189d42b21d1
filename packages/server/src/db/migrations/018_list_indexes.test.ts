import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeMigration, migrationSealer } from '../../../test/emptyDb.ts';
import { isPostgres } from '../dialect.ts';
import { migrate } from '../migrate.ts';
import type { Database, Db } from '../schema.ts';

/** Ids as Wharf makes them (21 characters): the search table finds a release's row by its id's trigrams. */
const idOf = (short: string) => short.padStart(21, '0');

/** A release row as the schema had them then: the columns later migrations add are not there yet. */
const release = (id: string, siteId: string, name: string) =>
  ({
    id: idOf(id),
    site_id: siteId,
    name,
    forms: '[]',
    file_count: 1,
    total_size: 10,
    rules: '{"redirects":[],"headers":[]}',
    rule_problems: '[]',
    created_at: `2024-05-01T10:00:0${id.at(-1)}.000Z`,
  }) as Database['releases'];

const submission = (id: string, spam: number) => ({
  id,
  site_id: 's1',
  branch_id: 'b1',
  release_id: 'r1',
  form: 'contact',
  fields: '{}',
  client_address: '192.0.2.1',
  created_at: '2024-05-01T10:00:00.000Z',
  spam,
  branch_name: 'main',
});

async function counts(db: Db) {
  const rows = await db.selectFrom('list_counts').selectAll().orderBy('list').orderBy('owner_id').execute();
  return rows.map((row) => `${row.list} ${row.owner_id} ${Number(row.total)}`);
}

/** Release ids whose name contains the text, as the lists search (migration 018's text search). */
async function searched(db: Db, text: string) {
  const { rows } = isPostgres(db)
    ? await sql<{ id: string }>`select id from releases where lower(name) like ${`%${text.toLowerCase()}%`}`.execute(db)
    : await sql<{
        id: string;
      }>`select release_id as id from release_search where release_search match ${`name : "${text}"`}`.execute(db);
  return rows.map((row) => row.id.replace(/^0+/, '')).sort();
}

describeMigration('018', (olderDb) => {
  async function migratedWithHistory() {
    const db = await olderDb();
    await migrate(db, migrationSealer, '016_release_rules');
    await db
      .insertInto('releases')
      .values([
        release('r1', 's1', 'pr-1 Fix the header'),
        release('r2', 's1', 'pr-2 New pricing'),
        release('r3', 's1', 'pr-3 fix the footer'),
        release('r4', 's2', 'Launch'),
      ])
      .execute();
    await db
      .insertInto('hook_deliveries')
      .values(
        ['d1', 'd2'].map((id) => ({
          id,
          hook_id: 'h1',
          event_id: 'e1',
          success: 1,
          type: 'ping',
          data: '{}',
          date: '2024-05-01T10:00:00.000Z',
          job_id: null,
          attempt: 1,
        })),
      )
      .execute();
    await db
      .insertInto('form_submissions')
      .values([submission('f1', 0), submission('f2', 0), submission('f3', 1)])
      .execute();
    await migrate(db, migrationSealer);
    return db;
  }

  it('counts the lists that exist, and finds their releases by name', async () => {
    const db = await migratedWithHistory();
    expect(await counts(db)).toEqual([
      'hook_deliveries h1 2',
      'releases s1 3',
      'releases s2 1',
      'submissions_inbox s1 2',
      'submissions_spam s1 1',
    ]);
    expect(await searched(db, 'fix the')).toEqual(['r1', 'r3']);
  });

  it('keeps counts and the search right through inserts, renames and deletes made by any code', async () => {
    const db = await migratedWithHistory();
    await db
      .insertInto('releases')
      .values(release('r5', 's1', 'pr-5 Fix the menu'))
      .execute();
    await db.updateTable('releases').set({ name: 'pr-1 Header' }).where('id', '=', idOf('r1')).execute();
    await db
      .deleteFrom('releases')
      .where('id', 'in', [idOf('r2'), idOf('r4')])
      .execute();
    await db.deleteFrom('hook_deliveries').where('id', '=', 'd1').execute();
    await db.insertInto('form_submissions').values(submission('f4', 1)).execute();
    await db.deleteFrom('form_submissions').where('id', 'in', ['f1', 'f2']).execute();
    // An emptied list leaves no row: s2's releases and s1's inbox are gone.
    expect(await counts(db)).toEqual(['hook_deliveries h1 1', 'releases s1 3', 'submissions_spam s1 2']);
    expect(await searched(db, 'fix the')).toEqual(['r3', 'r5']);
    expect(await searched(db, 'header')).toEqual(['r1']);
    expect(await searched(db, 'launch')).toEqual([]);
  });
});
