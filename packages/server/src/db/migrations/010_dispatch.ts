import { type Kysely, sql } from 'kysely';

/**
 * The outbox read in commit order, and the queue of what leaves Wharf.
 *
 * - `events.seq`: a number drawn from the `event_sequence` counter row in the transaction that
 *   records the event. The row stays locked until that transaction ends, so numbers are handed out
 *   in commit order (a PostgreSQL SEQUENCE is not transactional: a later number can commit first,
 *   and a reader past it would never see the earlier one).
 * - Events recorded before this migration count as dispatched: hooks do not fire for history.
 * - `jobs`: hook deliveries and mails waiting to be sent, retried with backoff, each claimed by a
 *   lease so a process that dies mid-send leaves it to be taken again.
 * - `hook_deliveries`: one row per attempt of a job, with what was sent and answered.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('events').addColumn('seq', 'bigint').execute();
  await sql`
    update events set seq = numbered.n
    from (select id, row_number() over (order by created_at, id) as n from events) as numbered
    where events.id = numbered.id`.execute(db);
  await sql`update events set dispatched_at = created_at where dispatched_at is null`.execute(db);
  await db.schema.createIndex('events_seq').on('events').column('seq').unique().execute();
  await db.schema.dropIndex('events_pending').execute();
  await db.schema
    .createIndex('events_undispatched')
    .on('events')
    .column('seq')
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute();
  await db.schema.createIndex('events_org').on('events').columns(['org_id', 'seq']).execute();

  await db.schema
    .createTable('event_sequence')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into event_sequence (name, value) select 'events', coalesce(max(seq), 0) from events`.execute(db);

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hook_id', 'text')
    .addColumn('event_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('jobs_due')
    .on('jobs')
    .column('next_attempt_at')
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.createIndex('jobs_hook').on('jobs').columns(['hook_id', 'event_id']).execute();

  await db.schema.alterTable('hook_deliveries').addColumn('job_id', 'text').execute();
  await db.schema.alterTable('hook_deliveries').addColumn('attempt', 'integer').execute();
}
