import { type Kysely, sql } from 'kysely';

interface Definition {
  name: string;
}

/** The tables as this migration knows them (migrations import nothing live). */
interface Tables {
  releases: { id: string; site_id: string; forms: string; created_at: string };
  sites: { id: string; main_branch_id: string };
  site_forms: {
    site_id: string;
    name_key: string;
    definition: string;
    branch_ids: string | null;
    detected: number;
    position: number;
  };
}

/**
 * Forms belong to sites, not releases: a form added in the console used to live in the release then
 * served and vanish at the next deploy. Every release's forms move to its site, none lost: where
 * releases disagree on a name, the release the main branch serves wins, then those other branches
 * serve, then the newest. They apply to every branch (a form a preview's release alone had now
 * also accepts posts on the others, which loses nothing). `releases.forms` stays: what each
 * release's own files declared. Submissions name their form and site, so they stay as they are.
 */
export async function up(unknownDb: Kysely<unknown>) {
  const db = unknownDb as unknown as Kysely<Tables>;
  await db.schema
    .createTable('site_forms')
    .addColumn('site_id', 'text', (c) => c.notNull())
    // Names are unique per site case aside (spec.md §5): the key is the name in lower case.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    // JSON list of branch ids the form is narrowed to; null: every branch.
    .addColumn('branch_ids', 'text')
    .addColumn('detected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_forms_pk', ['site_id', 'name_key'])
    .execute();
  const rows = await db
    .selectFrom('releases')
    .leftJoin('sites', 'sites.id', 'releases.site_id')
    .select([
      'releases.site_id',
      'releases.forms',
      sql<number>`case
        when exists (select 1 from branches b where b.id = sites.main_branch_id and b.release_id = releases.id) then 0
        when exists (select 1 from branches b where b.release_id = releases.id) then 1
        else 2 end`.as('rank'),
    ])
    .where('releases.forms', '!=', '[]')
    .orderBy('rank')
    .orderBy('releases.created_at', 'desc')
    .orderBy('releases.id', 'desc')
    .execute();
  const bySite = new Map<string, Map<string, Definition>>();
  for (const row of rows) {
    const kept = bySite.get(row.site_id) ?? new Map<string, Definition>();
    bySite.set(row.site_id, kept);
    for (const form of JSON.parse(row.forms) as Definition[]) {
      const key = form.name.toLowerCase();
      if (!kept.has(key)) kept.set(key, form);
    }
  }
  for (const [siteId, kept] of bySite) {
    const values = [...kept].map(([key, form], position) => ({
      site_id: siteId,
      name_key: key,
      definition: JSON.stringify(form),
      branch_ids: null,
      detected: 0,
      position,
    }));
    // A few hundred rows a statement: within every database's limit of parameters.
    for (let start = 0; start < values.length; start += 500)
      await db
        .insertInto('site_forms')
        .values(values.slice(start, start + 500))
        .execute();
  }
}
