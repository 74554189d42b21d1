import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadForm } from '../../test/archives.ts';
import { expectStatus, signedIn, type TestClient } from '../../test/client.ts';
import { freePort, testPasswordHash } from '../../test/harness.ts';
import { siteGet, startWharf, stopWharf, type WharfProcess, waitForApi } from '../../test/processes.ts';
import { prometheusInstalled, promtoolCheck, startPrometheus } from '../../test/prometheus.ts';
import { uploadRelease } from '../../test/world.ts';

const TOKEN = 'node-metrics-token-for-tests';
const hasPrometheus = prometheusInstalled();

/** The samples of an exposition by series (name and labels as printed). */
function samples(exposition: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of exposition.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

/** Lines that occur more than once among the HELP and TYPE lines and the series. */
function repeated(exposition: string): string[] {
  const keys = exposition
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (line.startsWith('#') ? line.split(' ', 3).join(' ') : line.slice(0, line.lastIndexOf(' '))));
  return keys.filter((key, i) => keys.indexOf(key) !== i);
}

describe('/metrics of a node with worker processes', () => {
  let dataDir: string;
  let url: string;
  let port: number;
  let wharf: WharfProcess;
  let owner: TestClient;
  let site: { _id: string; name: string };
  let orgId: string;

  const scrape = async () => {
    const answer = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    return answer.text();
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'wharf-node-metrics-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    wharf = await startWharf(dataDir, port, {
      WHARF_WORKERS: '2',
      WHARF_USERS: `owner:${await testPasswordHash()}`,
      WHARF_METRICS_TOKEN: TOKEN,
      // Nothing listens there: each mail waits in the queue for its next attempt.
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    });
    await waitForApi(url);
    owner = await signedIn(url, 'owner');
    const org = expectStatus(await owner.post('/api/v1/orgs', { name: 'Acme' }), 200);
    orgId = org._id;
    const team = expectStatus(await owner.post(`/api/v1/orgs/${org._id}/teams`, { name: 'Web' }), 200);
    site = expectStatus(await owner.post(`/api/v1/teams/${team._id}/sites`, { name: 'measured' }), 200);
  }, 60_000);
  afterAll(async () => {
    if (wharf) await stopWharf(wharf);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("adds up the primary's and the workers' requests, and counts deploys, the mail queue and the processes", async () => {
    const before = samples(await scrape());
    for (let i = 0; i < 5; i++) expectStatus(await owner.get(`/api/v1/sites/${site._id}`), 200);
    await uploadRelease(owner, site._id, 'first', ['main']);
    const broken = uploadForm(Buffer.from('not a tar.gz archive'), 'broken', ['main']);
    const refused = await owner.request('POST', `/api/v1/sites/${site._id}/releases`, broken);
    expect(refused.status).toBe(400);
    const code: string = refused.body.code;
    // Each on a connection of its own: the workers take them as the kernel hands them out.
    const host = `${site.name}.localhost:${port}`;
    const visits = await Promise.all(Array.from({ length: 12 }, () => siteGet(port, host)));
    expect(visits.map((visit) => visit.status)).toEqual(Array(12).fill(200));
    expectStatus(await owner.post(`/api/v1/orgs/${orgId}/invites`, { email: 'ada@example.com', admin: false }), 200);

    const exposition = await scrape();
    const after = samples(exposition);
    const grew = (series: string) => (after.get(series) ?? Number.NaN) - (before.get(series) ?? 0);
    // Sites are served by the workers alone, the API by the primary: one scrape holds both.
    expect(grew('wharf_http_request_duration_seconds_count{route="site",method="GET",status="2xx"}')).toBe(12);
    expect(
      grew('wharf_http_request_duration_seconds_count{route="/api/v1/sites/:siteId",method="GET",status="2xx"}'),
    ).toBe(5);
    expect(
      after.get('wharf_http_request_duration_seconds_bucket{le="+Inf",route="site",method="GET",status="2xx"}'),
    ).toBe(after.get('wharf_http_request_duration_seconds_count{route="site",method="GET",status="2xx"}'));
    expect(grew('wharf_deploys_total{outcome="succeeded"}')).toBe(1);
    expect(grew('wharf_deploys_total{outcome="failed"}')).toBe(1);
    expect(grew(`wharf_deploy_failures_total{code="${code}"}`)).toBe(1);
    expect(after.get('wharf_jobs_queued{kind="mail"}')).toBe(1);
    expect(after.get('wharf_jobs_queued{kind="hook"}')).toBe(0);
    // The processes' own: CPU, memory, event-loop lag, garbage collection, handles.
    for (const series of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds'])
      expect(after.get(series), series).toBeGreaterThan(0);
    expect(after.get('nodejs_active_handles{type="Server"}')).toBeGreaterThan(0);
    expect(exposition).toMatch(/^nodejs_gc_duration_seconds_count\{kind="\w+"\} \d+$/m);
    // Those /metrics already had stay.
    expect(after.get('wharf_dependency_up{dependency="database"}')).toBe(1);
    // Each worker hands over its sites' counts when scraped, before its own figures.
    expect(grew(`wharf_site_requests_total{site="${site.name}",status="2xx"}`)).toBe(12);
    expect(repeated(exposition)).toEqual([]);
  });

  it.skipIf(!hasPrometheus)("passes promtool's check of the exposition format", async () => {
    const { code, output } = await promtoolCheck(await scrape());
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it.skipIf(!hasPrometheus)('is scraped by Prometheus itself with the metrics token', { timeout: 60_000 }, async () => {
    const prometheus = await startPrometheus({ address: `127.0.0.1:${port}`, token: TOKEN });
    try {
      const first = async (expression: string) => (await prometheus.query(expression))[0]?.value[1];
      await expect.poll(() => first('up{job="wharf"}'), { timeout: 30_000, interval: 250 }).toBe('1');
      expect(await first('wharf_deploys_total{job="wharf",outcome="succeeded"}')).toBe('1');
      expect(Number(await first('wharf_http_request_duration_seconds_count{route="site",status="2xx"}'))).toBe(12);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nPrometheus said:\n${prometheus.log()}`);
    } finally {
      await prometheus.close();
    }
  });
});
