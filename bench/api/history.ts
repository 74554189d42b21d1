import type { Database, Db } from '@wharf/server/testing';
import { expectStatus, newId, openDb, TestClient } from '@wharf/server/testing';
import { PASSWORD as BENCH_PASSWORD, USER as BENCH_USER } from '../deploy/wharfServer.ts';

/** What a site that deploys every pull request has after a while. */
export interface History {
  siteId: string;
  hookId: string;
  /** The session cookie of the signed-in user, as the console sends it. */
  cookie: string;
}

export const RELEASES = 10_000;
export const DELIVERIES = 10_000;
export const SUBMISSIONS = 10_000;
/** Pull requests the releases belong to: each one is deployed RELEASES / PULL_REQUESTS times. */
export const PULL_REQUESTS = 500;
const BATCH = 500;

/** One day apart per hundred rows, oldest first, so the newest sort first as in real use. */
function timeOf(index: number) {
  return new Date(Date.UTC(2025, 0, 1) + index * 864_000).toISOString();
}

/** A release name as CI writes one: the pull request and the commit. */
export function releaseName(index: number) {
  const commit = (index * 2_654_435_761).toString(16).padStart(8, '0').slice(-8);
  return `pr-${index % PULL_REQUESTS} ${commit} Update the pricing page`;
}

async function inBatches<T extends 'releases' | 'hook_deliveries' | 'form_submissions'>(
  db: Db,
  count: number,
  table: T,
  row: (i: number) => Database[T],
) {
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => row(start + i));
    // Kysely cannot relate a row type to a table chosen by a type parameter; `row` is typed by it.
    await db
      .insertInto(table)
      .values(rows as never)
      .execute();
  }
}

/**
 * A site made through the API (organization, team, site, an email hook), then its history written
 * straight into the database: writing 30,000 rows through uploads would take longer than the bench.
 */
export async function siteWithHistory(
  url: string,
  database: { dataDir: string; databaseUrl: string | null; schema?: string },
): Promise<History> {
  const client = await new TestClient(url).signIn(BENCH_USER, BENCH_PASSWORD);
  const org = expectStatus(await client.post('/api/v1/orgs', { name: 'Bench' }), 200);
  const team = expectStatus(await client.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
  const site = expectStatus(await client.post(`/api/v1/teams/${team._id}/sites`, { name: 'bench-history' }), 200);
  // Kept whole: a server started again on this data (the processes table's) would otherwise delete,
  // as it starts, every release past the default limits, and measure an empty list.
  expectStatus(
    await client.put(`/api/v1/sites/${site._id}/retention`, { keepReleasesDays: null, keepReleasesCount: null }),
    200,
  );
  const hook = expectStatus(
    await client.post(`/api/v1/sites/${site._id}/hooks`, {
      type: 'email',
      name: 'Deploys',
      events: ['site_release_created'],
      config: { to: 'team@example.test' },
    }),
    200,
  );
  const db = openDb(database);
  try {
    await inBatches(db, RELEASES, 'releases', (i) => ({
      id: newId(),
      site_id: site._id,
      name: releaseName(i),
      forms: '[]',
      file_count: 120,
      total_size: 4_200_000,
      rules: '{"redirects":[],"headers":[]}',
      rule_problems: '[]',
      created_at: timeOf(i),
      slug: i.toString(36).padStart(8, '0'),
      source: '{}',
      uploader: null,
      upload_ms: null,
      new_files: null,
      new_bytes: null,
      password_hash: null,
      password_version: null,
    }));
    await inBatches(db, DELIVERIES, 'hook_deliveries', (i) => ({
      id: newId(),
      hook_id: hook._id,
      event_id: newId(),
      success: i % 10 === 0 ? 0 : 1,
      type: 'site_release_created',
      data: JSON.stringify({ request: { to: 'team@example.test' }, response: { status: 250 } }),
      date: timeOf(i),
      job_id: null,
      attempt: 1,
    }));
    const release = await db
      .selectFrom('releases')
      .select('id')
      .where('site_id', '=', site._id)
      .executeTakeFirstOrThrow();
    // The main branch serves the newest release, as a site in use does: the first page's answer
    // then carries a serving branch, its address and since when.
    const newest = await db
      .selectFrom('releases')
      .select(['id', 'created_at'])
      .where('site_id', '=', site._id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await db.updateTable('branches').set({ release_id: newest.id }).where('id', '=', site.mainBranch).execute();
    await db
      .insertInto('branch_releases')
      .values({ branch_id: site.mainBranch, release_id: newest.id, set_at: newest.created_at })
      .execute();
    await inBatches(db, SUBMISSIONS, 'form_submissions', (i) => ({
      id: newId(),
      site_id: site._id,
      branch_id: site.mainBranch,
      release_id: release.id,
      form: 'contact',
      fields: JSON.stringify({ name: `Visitor ${i}`, email: `visitor${i}@example.test`, message: 'Hello' }),
      client_address: '192.0.2.1',
      created_at: timeOf(i),
      spam: 0,
      branch_name: 'main',
    }));
  } finally {
    await db.destroy();
  }
  return { siteId: site._id, hookId: hook._id, cookie: client.cookieHeader };
}
