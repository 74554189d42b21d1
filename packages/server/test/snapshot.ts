import { createHash } from 'node:crypto';
import type { Db } from '../src/db/schema.ts';

const TABLES = [
  'users',
  'password_logins',
  'orgs',
  'members',
  'invites',
  'teams',
  'team_members',
  'sites',
  'domain_claims',
  'released_domains',
  'branches',
  'releases',
  'branch_releases',
  'site_tokens',
  'api_tokens',
  'hooks',
  'events',
] as const;

/**
 * Columns the server's background work sets after an answer, whatever the request: the dispatcher
 * marks events dispatched after the answer (which waits only for the edges). For the same reason
 * neither the job queue nor the hooks' delivery log is compared: the job runner writes them.
 */
const BACKGROUND_COLUMNS: Partial<Record<(typeof TABLES)[number], string[]>> = { events: ['dispatched_at'] };

/**
 * Events that record a refusal rather than a change: a refused upload is kept as a failed deploy
 * (not compared either), and its event says so. The input changed nothing.
 */
const REFUSAL_EVENTS = ['site_deploy_failed'];

/** A fingerprint of every table but sessions: equal fingerprints mean nothing changed. */
export async function snapshot(db: Db): Promise<string> {
  const hash = createHash('sha256');
  // Read side by side: on PostgreSQL each table is a round trip, and a sweep takes hundreds of these.
  const tables = await Promise.all(TABLES.map((table) => db.selectFrom(table).selectAll().execute()));
  for (const [index, table] of TABLES.entries()) {
    const all = tables[index]!;
    const rows = table === 'events' ? all.filter((row) => !REFUSAL_EVENTS.includes(String(row.name))) : all;
    const skipped = BACKGROUND_COLUMNS[table] ?? [];
    const lines = rows
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).filter(([key]) => !skipped.includes(key)))))
      .sort();
    hash.update(`${table}:${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}

/**
 * Where the outbox stands: the number of the last event recorded. Events are numbered in commit
 * order (`events.seq`), so what a call records is what numbers past its mark. Reading every event's
 * id instead, before and after each call, made the access sweep read its whole growing history
 * twice a call (thousands of rows, over a socket on PostgreSQL).
 */
export async function eventMark(db: Db): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** The names of the events recorded since `mark`, in the order they were. */
export async function eventNamesSince(db: Db, mark: number) {
  const rows = await db.selectFrom('events').select('name').where('seq', '>', mark).orderBy('seq').execute();
  return rows.map((row) => row.name);
}
