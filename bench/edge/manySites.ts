import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '@wharf/server/testing';
import { openDb } from '@wharf/server/testing';
import { request } from './http.ts';
import type { BenchSite } from './wharf.ts';

export const BRANCHES = ['main', 'staging', 'preview'];
const BATCH = 500;

const id = () => Date.now().toString(36).padStart(9, '0') + randomBytes(9).toString('base64url').slice(0, 12);

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/**
 * Writes `count` sites with three branches each straight into Wharf's database, with the
 * `site_added` events the API would have written, so the running server loads them from its
 * outbox exactly as it loads sites made through the API. 30,000 API calls would measure the API.
 */
export async function addSites(dataDir: string, bench: BenchSite, count: number) {
  const db = openDb({ dataDir, databaseUrl: null });
  const at = new Date().toISOString();
  const sites: Database['sites'][] = [];
  const branches: Database['branches'][] = [];
  const events: Database['events'][] = [];
  for (let i = 0; i < count; i++) {
    const siteId = id();
    const branchIds = BRANCHES.map(() => id());
    const common = { org_id: bench.orgId, team_id: bench.teamId, created_at: at };
    sites.push({
      ...common,
      id: siteId,
      name: `many-${i}`,
      color: '#228be6',
      main_branch_id: branchIds[0]!,
      spa: 0,
      pretty_urls: 1,
      domains: '[]',
      headers: '[]',
      logo_type: null,
      logo_version: null,
      password_hash: null,
      password_version: null,
      keep_releases_days: 30,
      keep_releases_count: 100,
      forms_revision: 0,
    });
    for (const [b, name] of BRANCHES.entries()) {
      branches.push({
        id: branchIds[b]!,
        site_id: siteId,
        name,
        slug: name,
        release_id: bench.releaseId,
        password_hash: null,
        password_version: null,
        headers: '[]',
        redirects: '[]',
        expires_at: null,
        created_at: at,
      });
    }
    const event = { id: id(), name: 'site_added', site_id: siteId, user_id: null, actor_id: null, dispatched_at: null };
    events.push({ ...common, ...event, seq: 0, data: '{}' });
  }
  await db.transaction().execute(async (trx) => {
    // Numbered from the outbox's counter, as recordEvent numbers them: the server reads in that order.
    const { value } = await trx
      .updateTable('event_sequence')
      .set((eb) => ({ value: eb('value', '+', events.length) }))
      .where('name', '=', 'events')
      .returning('value')
      .executeTakeFirstOrThrow();
    events.forEach((event, i) => {
      event.seq = Number(value) - events.length + 1 + i;
    });
    for (const batch of chunks(sites)) await trx.insertInto('sites').values(batch).execute();
    for (const batch of chunks(branches)) await trx.insertInto('branches').values(batch).execute();
    for (const batch of chunks(events)) await trx.insertInto('events').values(batch).execute();
  });
  await db.destroy();
}

/** Waits until the last site's last branch is served: the routing table has taken all of them in. */
export async function waitUntilServed(port: number, count: number, timeoutMs = 120_000) {
  const host = `${BRANCHES.at(-1)}.many-${count - 1}.localhost:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await request(port, host, '/')).status === 200) return;
    await sleep(200);
  }
  throw new Error(`${host} was not served within ${timeoutMs} ms`);
}
