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
  for (const table of TABLES) {
    const all = await db.selectFrom(table).selectAll().execute();
    const rows = table === 'events' ? all.filter((row) => !REFUSAL_EVENTS.includes(String(row.name))) : all;
    const skipped = BACKGROUND_COLUMNS[table] ?? [];
    const lines = rows
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).filter(([key]) => !skipped.includes(key)))))
      .sort();
    hash.update(`${table}:${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}

export async function eventNamesSince(db: Db, before: Set<string>) {
  const rows = await db.selectFrom('events').select(['id', 'name']).execute();
  return rows.filter((row) => !before.has(row.id)).map((row) => row.name);
}

export async function eventIds(db: Db) {
  return new Set((await db.selectFrom('events').select('id').execute()).map((row) => row.id));
}
