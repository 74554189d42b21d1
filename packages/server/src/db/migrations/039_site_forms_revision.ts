import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * `sites.forms_revision`, counted up by triggers whenever a row of the site's forms is added,
 * changed or removed, in the same transaction. A process may then keep a site's forms in memory
 * and know them current whenever the site row it has just read carries the same revision.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('sites')
    .addColumn('forms_revision', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  const statements = db.getExecutor().adapter instanceof PostgresAdapter ? postgresTriggers() : sqliteTriggers();
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const EVENTS = ['insert', 'update', 'delete'] as const;
/** The sites whose forms changed: the new row's, the old row's, or both when a form moved between sites. */
const sitesOf = { insert: 'new.site_id', update: 'new.site_id, old.site_id', delete: 'old.site_id' } as const;
const bump = (event: (typeof EVENTS)[number]) =>
  `update sites set forms_revision = forms_revision + 1 where id in (${sitesOf[event]});`;

function sqliteTriggers() {
  return EVENTS.map(
    (event) =>
      `create trigger site_forms_revision_${event} after ${event} on site_forms
         for each row begin ${bump(event)} end`,
  );
}

function postgresTriggers() {
  return EVENTS.flatMap((event) => [
    `create function site_forms_revision_${event}() returns trigger language plpgsql as $$
       begin ${bump(event)} return null; end $$`,
    `create trigger site_forms_revision_${event} after ${event} on site_forms
       for each row execute function site_forms_revision_${event}()`,
  ]);
}
