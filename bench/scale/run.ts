import { setTimeout as sleep } from 'node:timers/promises';
import { randomString, siteRequest, startS3Peer, tarGz, uploadForm } from '@wharf/server/testing';
import pg from 'pg';
import { type BenchServer, createSite, startBenchServer } from '../deploy/wharfServer.ts';
import { runWrk, type WrkResult } from '../edge/wrk.ts';

/**
 * bench/scale, the "Measured" of issue 18: one node with every role against an API node and two
 * edge nodes, all on one PostgreSQL, one Redis and one S3-compatible bucket (s3rver), serving the
 * same site. For each: requests/s and p99 of a small file under wrk, and the time from a branch
 * change (made through the API) to every edge serving it, over 100 changes.
 */

const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.WHARF_TEST_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.WHARF_TEST_REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.error('bench/scale needs PostgreSQL and Redis: set BENCH_DATABASE_URL and BENCH_REDIS_URL');
  process.exit(2);
}
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const CHANGES = Number(process.env.BENCH_CHANGES ?? 100);
const SMALL_FILE = `<!doctype html><title>bench</title>${'<p>A small page of a site.</p>'.repeat(60)}`;

interface Setup {
  name: string;
  /** `WHARF_ROLE` of each node; the first serves the API. */
  roles: string[];
  /** `WHARF_WORKERS` of each node. */
  workers: number;
}
const SETUPS: Setup[] = [
  { name: 'one node, one process', roles: ['all'], workers: 1 },
  { name: 'one node, 2 workers', roles: ['all'], workers: 2 },
  { name: 'API node + two edge nodes', roles: ['api,worker', 'edge', 'edge'], workers: 1 },
];

async function inPostgres(work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** The nodes of a setup, as separate processes of one installation. */
async function startNodes(setup: Setup, s3: Awaited<ReturnType<typeof startS3Peer>>, schema: string) {
  const separator = databaseUrl!.includes('?') ? '&' : '?';
  const shared = {
    DATABASE_URL: `${databaseUrl}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    REDIS_URL: redisUrl!,
    ...s3.env(schema),
    WHARF_SECRET: randomString(40),
    WHARF_WORKERS: String(setup.workers),
  };
  const nodes: BenchServer[] = [];
  for (const [index, role] of setup.roles.entries())
    nodes.push(await startBenchServer({ ...shared, WHARF_ROLE: role, WHARF_NODE_NAME: `bench-${index}` }));
  return nodes;
}

async function upload(url: string, siteId: string, token: string, name: string, content: string) {
  const answer = await fetch(`${url}/api/v1/sites/${siteId}/releases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: uploadForm(await tarGz([{ name: 'index.html', content }]), name),
  });
  if (!answer.ok) throw new Error(`upload answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { _id: string; deployedBranches: { _id: string; url: string }[] };
}

/** wrk on every edge at once, the connections shared out: the rates add up, the worst p99 counts. */
async function throughput(edges: BenchServer[], host: string) {
  const results = await Promise.all(
    edges.map((edge) =>
      runWrk(
        { threads: 1, connections: Math.round(CONNECTIONS / edges.length), seconds: SECONDS },
        Number(new URL(edge.url).port),
        '/',
        { host },
      ),
    ),
  );
  const failures = results.reduce((sum, result: WrkResult) => sum + result.failures, 0);
  if (failures > 0) throw new Error(`${failures} failed requests under wrk`);
  return {
    rate: results.reduce((sum, result) => sum + result.requestsPerSecond, 0),
    p50: Math.max(...results.map((result) => result.p50Ms)),
    p99: Math.max(...results.map((result) => result.p99Ms)),
  };
}

/** Milliseconds from each branch change (answered by the API) until every edge serves it. */
async function propagation(
  api: BenchServer,
  edges: BenchServer[],
  site: { siteId: string; token: string },
  host: string,
) {
  const releases = [
    await upload(api.url, site.siteId, site.token, 'blue', `${SMALL_FILE}blue`),
    await upload(api.url, site.siteId, site.token, 'green', `${SMALL_FILE}green`),
  ];
  const branchId = releases[1]!.deployedBranches[0]!._id;
  const times: number[] = [];
  for (let change = 0; change < CHANGES; change++) {
    const target = releases[change % 2]!;
    const expected = `${SMALL_FILE}${change % 2 === 0 ? 'blue' : 'green'}`;
    const startedAt = performance.now();
    const answer = await fetch(`${api.url}/api/v1/sites/${site.siteId}/branches/${branchId}/release`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${site.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ release: target._id }),
    });
    if (!answer.ok) throw new Error(`the branch change answered ${answer.status}: ${await answer.text()}`);
    await Promise.all(
      edges.map(async (edge) => {
        const port = Number(new URL(edge.url).port);
        while ((await siteRequest(port, host, '/')).text !== expected) await sleep(5);
      }),
    );
    times.push(performance.now() - startedAt);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times) };
}

async function measure(setup: Setup, s3: Awaited<ReturnType<typeof startS3Peer>>) {
  const schema = `bench_scale_${randomString(10)}`;
  await inPostgres((client) => client.query(`create schema ${schema}`));
  const nodes = await startNodes(setup, s3, schema);
  try {
    const api = nodes[0]!;
    const edges = nodes.length === 1 ? nodes : nodes.slice(1);
    const site = await createSite(api.url, `scale-${randomString(6).toLowerCase()}`);
    const first = await upload(api.url, site.siteId, site.token, 'first', SMALL_FILE);
    const host = new URL(first.deployedBranches[0]!.url).hostname;
    // Every edge has the release (and the file in its memory) before wrk starts.
    for (const edge of edges)
      while ((await siteRequest(Number(new URL(edge.url).port), host, '/')).text !== SMALL_FILE) await sleep(20);
    const served = await throughput(edges, host);
    const changes = await propagation(api, edges, site, host);
    return { served, changes };
  } finally {
    await Promise.all(nodes.map((node) => node.close()));
    await inPostgres((client) => client.query(`drop schema ${schema} cascade`));
  }
}

const s3 = await startS3Peer('s3rver', 'wharf-bench');
console.log(`bench/scale: node ${process.version}, wrk -c${CONNECTIONS} -d${SECONDS}s, ${CHANGES} branch changes`);
const rows: string[] = [];
for (const setup of SETUPS) {
  const { served, changes } = await measure(setup, s3);
  rows.push(
    [
      setup.name.padEnd(28),
      Math.round(served.rate).toLocaleString('en').padStart(10),
      served.p50.toFixed(2).padStart(7),
      served.p99.toFixed(2).padStart(7),
      changes.p50.toFixed(0).padStart(9),
      changes.p99.toFixed(0).padStart(9),
      changes.max.toFixed(0).padStart(9),
      changes.p99 <= 1000 ? '     met' : ' NOT met',
    ].join('  '),
  );
}
await s3.close();
console.log(
  `\n${'setup'.padEnd(28)}  ${'requests/s'.padStart(10)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'change p50'.padStart(9)}  ${'change p99'.padStart(9)}  ${'change max'.padStart(9)}  p99 ≤ 1 s`,
);
for (const row of rows) console.log(row);
