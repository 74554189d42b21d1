import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, signedIn, type TestClient } from '../../../test/client.ts';
import { databases, startTestServer, type TestServer } from '../../../test/harness.ts';

const METRICS_TOKEN = 'analytics-metrics-token';
const views = (...entries: [string, number][]) => ({ views: entries.map(([path, count]) => ({ path, count })) });

describe.each(databases)('anonymous usage analytics on $name', ({ postgres }) => {
  let server: TestServer;
  let member: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ postgres, env: { WHARF_METRICS_TOKEN: METRICS_TOKEN } });
    member = await signedIn(server.url, 'member');
  });
  afterAll(() => server.close());

  const metrics = async () =>
    (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

  it('counts views per page shape and day, and shows the totals in /metrics', async () => {
    expectStatus(
      await member.post('/api/v1/analytics/page-views', views(['/sites/:id/branches', 2], ['/orgs', 1])),
      204,
    );
    expectStatus(await member.post('/api/v1/analytics/page-views', views(['/sites/:id/branches', 3])), 204);
    const rows = await server.app.db.selectFrom('page_views').selectAll().orderBy('path').execute();
    const today = new Date().toISOString().slice(0, 10);
    expect(rows.map((row) => ({ ...row, views: Number(row.views) }))).toEqual([
      { day: today, path: '/orgs', views: 1 },
      { day: today, path: '/sites/:id/branches', views: 5 },
    ]);
    expect(await metrics()).toContain('wharf_console_page_views_total{path="/sites/:id/branches"} 5');
  });

  it('takes page shapes only, never raw addresses with queries or names', async () => {
    for (const path of ['/invite?token=abc', 'sites', '/Sites/ABC', '/legal#top']) {
      const answer = await member.post('/api/v1/analytics/page-views', views([path, 1]));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('views.0.path');
    }
  });

  it('is for the console: refused to the signed-out', async () => {
    const anonymous = await fetch(`${server.url}/api/v1/analytics/page-views`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(views(['/orgs', 1])),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('with WHARF_ANALYTICS=off', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { WHARF_ANALYTICS: 'off' } });
  });
  afterAll(() => server.close());

  it('tells the console, and keeps nothing it is sent', async () => {
    const member = await signedIn(server.url, 'member');
    expect(expectStatus(await member.get('/api/v1/system/env'), 200).analytics).toEqual({ enabled: false });
    expectStatus(await member.post('/api/v1/analytics/page-views', views(['/orgs', 1])), 204);
    expect(await server.app.db.selectFrom('page_views').selectAll().execute()).toEqual([]);
  });
});
