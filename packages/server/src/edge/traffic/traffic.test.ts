import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';
import { siteRequest } from '../../../test/siteClient.ts';
import { buildWorld, uploadRelease, type World } from '../../../test/world.ts';
import { OTHER } from './tally.ts';
import { compactPastDays, pruneTraffic } from './upkeep.ts';
import { addToList, KEYS_WRITTEN } from './write.ts';

const FILES = [
  { name: 'index.html', content: '<!doctype html><title>home</title>' },
  { name: 'pricing/index.html', content: '<p>pricing</p>' },
  { name: 'app.js', content: 'console.log(1)' },
];
const DAY = 86_400_000;

describe.each(databases)('traffic per site and branch on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let owner: TestClient;
  let port: number;
  let base: string;
  let branchIds: Map<string, string>;
  let releaseUrl: string;

  const visit = (host: string, path: string, headers: Record<string, string> = {}) =>
    siteRequest(port, `${host}.localhost:${port}`, path, { headers });
  const summary = async (query: string) => expectStatus(await owner.get(`${base}/traffic/summary?${query}`), 200);

  beforeAll(async () => {
    server = await startTestServer({ postgres });
    port = Number(new URL(server.url).port);
    world = await buildWorld(server.url);
    owner = world.clients.owner;
    base = `/api/v1/sites/${world.site._id}`;
    releaseUrl = (await uploadRelease(owner, world.site._id, 'v1', ['main', 'preview'], FILES)).url;
    const branches = expectStatus(await owner.get(`${base}/branches`), 200);
    branchIds = new Map(branches.map((branch: { name: string; _id: string }) => [branch.name, branch._id]));

    const site = world.site.name;
    for (let i = 0; i < 3; i++) expect((await visit(site, '/')).status).toBe(200);
    expect((await visit(site, '/pricing/', { referer: 'https://news.example.org/item?id=1' })).status).toBe(200);
    expect((await visit(site, '/pricing/', { referer: `http://${site}.localhost:${port}/` })).status).toBe(200);
    expect((await visit(site, '/wp-login.php')).status).toBe(404);
    expect(
      (await visit(`preview.${site}`, '/app.js', { referer: 'https://user:pw@Review.Example.com:8443/x' })).status,
    ).toBe(200);
    expect((await siteRequest(port, new URL(releaseUrl).host, '/')).status).toBe(200);
  });
  afterAll(() => server?.close());

  it('counts the paths answered, the paths not found and where visitors came from, per site', async () => {
    const site = await summary('days=1');
    expect(site.totals).toMatchObject({ requests: 8, status: { '2xx': 7, '3xx': 0, '4xx': 1, '5xx': 0 } });
    expect(site.totals.bytes).toBeGreaterThan(0);
    expect(site.paths.items).toEqual([
      { key: '/', requests: 4 },
      { key: '/pricing/', requests: 2 },
      { key: '/app.js', requests: 1 },
    ]);
    expect(site.missing.items).toEqual([{ key: '/wp-login.php', requests: 1 }]);
    // Host only: no path, query, user or port; the site's own host is no referrer.
    expect(site.referrers.items).toEqual([
      { key: 'news.example.org', requests: 1 },
      { key: 'review.example.com', requests: 1 },
    ]);
    expect(site.days).toHaveLength(1);
    expect(site.days[0].requests).toBe(8);
    expect(site.retentionDays).toBe(90);
  });

  it("gives each branch's share, the releases' own addresses together", async () => {
    const { branches } = await summary('days=7');
    expect(branches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ branch: branchIds.get('main'), name: 'main', kind: 'branch', requests: 6 }),
        expect.objectContaining({ branch: branchIds.get('preview'), name: 'preview', kind: 'branch', requests: 1 }),
        expect.objectContaining({ branch: 'releases', name: null, kind: 'releases', requests: 1 }),
      ]),
    );
    expect(branches[0].name).toBe('main');
  });

  it('answers for one branch, by day and by hour', async () => {
    const preview = await summary(`days=7&branch=${branchIds.get('preview')}`);
    expect(preview.totals.requests).toBe(1);
    expect(preview.paths.items).toEqual([{ key: '/app.js', requests: 1 }]);
    expect(preview.missing.items).toEqual([]);
    const hours = expectStatus(await owner.get(`${base}/traffic?hours=2&branch=${branchIds.get('main')}`), 200);
    expect(hours.reduce((sum: number, hour: { requests: number }) => sum + hour.requests, 0)).toBe(6);
    const all = expectStatus(await owner.get(`${base}/traffic?hours=2`), 200);
    expect(all.reduce((sum: number, hour: { requests: number }) => sum + hour.requests, 0)).toBe(8);
  });

  it('refuses a range it does not keep, naming the field', async () => {
    const refused = await owner.get(`${base}/traffic/summary?days=0`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('days');
    expect((await owner.get(`${base}/traffic/summary?days=367`)).status).toBe(400);
  });

  it('shows nothing of one site to those outside it', async () => {
    expect([403, 404]).toContain((await world.clients.outsider.get(`${base}/traffic/summary`)).status);
    expect((await new TestClient(server.url).get(`${base}/traffic/summary`)).status).toBe(401);
  });

  it("trims a finished day's long lists to the most asked, the rest counted together", async () => {
    const { db } = server.app;
    const siteId = world.site._id;
    const day = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    const list = { site_id: siteId, branch: branchIds.get('main')!, day, kind: 'missing' as const };
    for (let i = 0; i < KEYS_WRITTEN + 20; i++)
      await addToList(db, { ...list, key: `/scan/${i}`, requests: 1 + (i % 3) });
    await compactPastDays(db, new Date());
    const rows = await db.selectFrom('traffic_top').selectAll().where('day', '=', day).execute();
    expect(rows).toHaveLength(KEYS_WRITTEN + 1);
    const total = rows.reduce((sum, row) => sum + Number(row.requests), 0);
    expect(total).toBe(Array.from({ length: KEYS_WRITTEN + 20 }, (_, i) => 1 + (i % 3)).reduce((a, b) => a + b));
    expect(Number(rows.find((row) => row.key === OTHER)?.requests)).toBe(20);

    const week = await summary('days=7');
    expect(week.missing.items).toHaveLength(20);
    expect(week.missing.other).toBe(
      total + 1 - week.missing.items.reduce((sum: number, i: { requests: number }) => sum + i.requests, 0),
    );
  });

  it('forgets what is older than the retention', async () => {
    const { db } = server.app;
    await pruneTraffic(db, 1, new Date());
    const left = await db
      .selectFrom('traffic_top')
      .select('day')
      .distinct()
      .where('site_id', '=', world.site._id)
      .execute();
    expect(left.map((row) => row.day)).toEqual([new Date().toISOString().slice(0, 10)]);
    expect((await summary('days=1')).totals.requests).toBe(8);
  });
});
