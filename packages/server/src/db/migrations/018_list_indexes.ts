import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Lists that stay fast as history grows (a site deploying every pull request gathers thousands of
 * releases):
 *
 * - each list's filter and order in one index, its id last, so a page, even a deep one, is found
 *   in the index alone and only its own rows are read;
 * - `list_counts`: the length of each list as it is unfiltered, kept by triggers in the transaction
 *   that adds or deletes a row, so a count never scans and stays right whoever deletes (a
 *   retention job, a site's deletion) without that code knowing of it;
 * - release names searched with the database's text search: FTS5 with trigrams on SQLite, a
 *   trigram index (pg_trgm) on PostgreSQL. Both find a substring of 3 characters or more.
 */
export async function up(db: Kysely<unknown>) {
  await listIndexes(db);
  await db.schema
    .createTable('list_counts')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_counts_pk', ['list', 'owner_id'])
    .execute();
  const postgres = isPostgres(db);
  for (const list of COUNTED_LISTS) {
    await sql`
      insert into list_counts (list, owner_id, total)
      select ${list.name}, ${sql.ref(list.owner)}, count(*) from ${sql.table(list.table)}
      where ${sql.raw(list.when.replaceAll('row.', ''))}
      group by ${sql.ref(list.owner)}`.execute(db);
    for (const statement of postgres ? postgresCounting(list) : sqliteCounting(list)) {
      await sql.raw(statement).execute(db);
    }
  }
  await (postgres ? postgresSearch(db) : sqliteSearch(db));
}

async function listIndexes(db: Kysely<unknown>) {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();
  await db.schema.dropIndex('releases_site').execute();
  await index('releases_site_newest', 'releases', ['site_id', 'created_at', 'id']);
  await index('branches_site_newest', 'branches', ['site_id', 'created_at', 'id']);
  // The branches serving each release of a page, and whether a release may be deleted, are found
  // by 017's indexes on branches.release_id and branch_releases.release_id.
  await db.schema.dropIndex('hook_deliveries_hook').execute();
  await index('hook_deliveries_hook_newest', 'hook_deliveries', ['hook_id', 'date', 'id']);
  await db.schema.dropIndex('form_submissions_site_spam').execute();
  await db.schema.dropIndex('form_submissions_branch_spam').execute();
  await index('form_submissions_site_newest', 'form_submissions', ['site_id', 'spam', 'created_at', 'id']);
  await index('form_submissions_form_newest', 'form_submissions', ['site_id', 'spam', 'form', 'created_at', 'id']);
  await index('form_submissions_branch_newest', 'form_submissions', ['branch_id', 'spam', 'created_at', 'id']);
}

/** A list whose length is kept: rows of `table` for which `when` holds, by their `owner` column. */
interface CountedList {
  name: string;
  table: string;
  owner: string;
  /** SQL true of the rows counted, `row.` standing for the row (NEW or OLD in a trigger). */
  when: string;
}

const COUNTED_LISTS: CountedList[] = [
  { name: 'releases', table: 'releases', owner: 'site_id', when: '1 = 1' },
  { name: 'hook_deliveries', table: 'hook_deliveries', owner: 'hook_id', when: '1 = 1' },
  { name: 'submissions_inbox', table: 'form_submissions', owner: 'site_id', when: 'row.spam = 0' },
  { name: 'submissions_spam', table: 'form_submissions', owner: 'site_id', when: 'row.spam = 1' },
];

const added = (list: CountedList, row: string) =>
  `insert into list_counts (list, owner_id, total) values ('${list.name}', ${row}.${list.owner}, 1)
     on conflict (list, owner_id) do update set total = list_counts.total + 1;`;
// A list emptied leaves no row behind (a deleted site's or hook's would stay forever).
const removed = (list: CountedList, row: string) =>
  `update list_counts set total = total - 1 where list = '${list.name}' and owner_id = ${row}.${list.owner};
   delete from list_counts where list = '${list.name}' and owner_id = ${row}.${list.owner} and total = 0;`;
const when = (list: CountedList, row: string) => list.when.replaceAll('row.', `${row}.`);

function sqliteCounting(list: CountedList) {
  return [
    `create trigger ${list.name}_counted_insert after insert on ${list.table}
       for each row when ${when(list, 'new')} begin ${added(list, 'new')} end`,
    `create trigger ${list.name}_counted_delete after delete on ${list.table}
       for each row when ${when(list, 'old')} begin ${removed(list, 'old')} end`,
  ];
}

function postgresCounting(list: CountedList) {
  const fn = (name: string, body: string) =>
    `create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`;
  return [
    fn(`${list.name}_counted_insert`, added(list, 'new')),
    fn(`${list.name}_counted_delete`, removed(list, 'old')),
    `create trigger ${list.name}_counted_insert after insert on ${list.table}
       for each row when (${when(list, 'new')}) execute function ${list.name}_counted_insert()`,
    `create trigger ${list.name}_counted_delete after delete on ${list.table}
       for each row when (${when(list, 'old')}) execute function ${list.name}_counted_delete()`,
  ];
}

/**
 * An FTS5 table of release names, tokenised in trigrams (case folded), kept by triggers. Its own
 * rowids are its key, since a release's implicit rowid may change with VACUUM; the release's id is
 * indexed too, so that the triggers find its row by a match rather than by reading them all (ids
 * are 21 characters, well above a trigram).
 */
async function sqliteSearch(db: Kysely<unknown>) {
  await sql`create virtual table release_search using fts5(name, release_id, tokenize = 'trigram')`.execute(db);
  await sql`insert into release_search (name, release_id) select name, id from releases`.execute(db);
  const forget = `delete from release_search where release_search match 'release_id : "' || old.id || '"'
    and release_id = old.id;`;
  const remember = 'insert into release_search (name, release_id) values (new.name, new.id);';
  await sql.raw(`create trigger release_search_insert after insert on releases begin ${remember} end`).execute(db);
  await sql.raw(`create trigger release_search_delete after delete on releases begin ${forget} end`).execute(db);
  await sql
    .raw(`create trigger release_search_rename after update of name on releases begin ${forget} ${remember} end`)
    .execute(db);
}

/**
 * A trigram index of lowercased release names, which PostgreSQL uses for `lower(name) like
 * '%…%'`. pg_trgm ships with PostgreSQL; it is installed once per database, in `public` so that a
 * Wharf's own schema being dropped never takes it from another. Where it cannot be installed
 * (no right to), searches stay correct and read the site's releases instead.
 */
async function postgresSearch(db: Kysely<unknown>) {
  // Two Wharfs migrating at once would both try to install it.
  await sql`select pg_advisory_xact_lock(hashtext('wharf pg_trgm'))`.execute(db);
  let schema = await trigramSchema(db);
  if (!schema) {
    await sql`savepoint install_pg_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm with schema public`.execute(db);
      await sql`release savepoint install_pg_trgm`.execute(db);
    } catch {
      await sql`rollback to savepoint install_pg_trgm`.execute(db);
    }
    schema = await trigramSchema(db);
  }
  if (!schema) return;
  // Without fastupdate, a release is in the index as it commits, not in a pending list that every
  // search reads through until a vacuum: releases are written seldom and searched often.
  await sql`create index release_name_trigrams on releases
    using gin (lower(name) ${sql.id(schema)}.gin_trgm_ops) with (fastupdate = off)`.execute(db);
}

async function trigramSchema(db: Kysely<unknown>) {
  const { rows } = await sql<{ schema: string }>`
    select nspname as schema from pg_extension join pg_namespace on pg_namespace.oid = extnamespace
    where extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema;
}
