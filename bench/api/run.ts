import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type Load, runWrk, type WrkResult } from '../edge/wrk.ts';
import { benchDatabases } from './databases.ts';
import { type History, PULL_REQUESTS, RELEASES, siteWithHistory } from './history.ts';
import { compareProcesses, type ProcessRow, processTable } from './processes.ts';
import { type Row, resultsTable } from './report.ts';

/**
 * bench/api, issue 17's "lists that stay fast as history grows": a site with 10,000 releases,
 * 10,000 hook deliveries and 10,000 form submissions; 50 readers at once ask for the first page,
 * page 500 and a search, beside a trivial route of the same server in the same run, on SQLite and
 * on PostgreSQL.
 */

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    databases: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(`npx tsx bench/api/run.ts [--seconds 10] [--connections 50] [--databases sqlite,postgresql]
PostgreSQL runs when BENCH_DATABASE_URL or WHARF_TEST_DATABASE_URL is set.`);
  process.exit(0);
}

// Slow answers are measured, not dropped: wrk's default gives up after 2 s.
const load: Load = {
  threads: 2,
  connections: Number(options.connections),
  seconds: Number(options.seconds),
  timeout: 30,
};
const SEARCHED_PULL_REQUEST = 427;

/** What the readers ask for, each read by all of them at once for the load's seconds. */
function cases({ siteId, hookId }: History) {
  const releases = `/api/v1/sites/${siteId}/releases`;
  return [
    { label: 'GET /api/v1/system/info (baseline)', path: '/api/v1/system/info' },
    { label: 'releases, page 0', path: `${releases}?page=0&size=10` },
    { label: 'releases, page 500', path: `${releases}?page=500&size=10` },
    {
      label: `releases, search "pr-${SEARCHED_PULL_REQUEST} " (${RELEASES / PULL_REQUESTS} of ${RELEASES})`,
      path: `${releases}?page=0&size=10&search=${encodeURIComponent(`pr-${SEARCHED_PULL_REQUEST} `)}`,
    },
    { label: 'hook deliveries, page 0', path: `/api/v1/sites/${siteId}/hooks/${hookId}/deliveries?page=0&size=10` },
    { label: 'hook deliveries, page 500', path: `/api/v1/sites/${siteId}/hooks/${hookId}/deliveries?page=500&size=10` },
    { label: 'form submissions, page 0', path: `/api/v1/sites/${siteId}/submissions?page=0&size=10` },
    { label: 'form submissions, page 500', path: `/api/v1/sites/${siteId}/submissions?page=500&size=10` },
    { label: 'branches (all)', path: `/api/v1/sites/${siteId}/branches` },
  ];
}

/** Asks once and checks the answer, so that a wrong path is never measured as a fast one. */
async function check(url: string, path: string, cookie: string) {
  const answer = await fetch(url + path, { headers: { cookie } });
  const body = await answer.text();
  if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${body}`);
  if (path.includes('search=') && !body.includes(`pr-${SEARCHED_PULL_REQUEST} `))
    throw new Error(`The search found nothing: ${body}`);
}

const results: { database: string; rows: Row[]; processes: ProcessRow[] }[] = [];
for (const database of benchDatabases(options.databases?.toLowerCase().split(',') ?? null)) {
  const started = await database.start();
  const { server, database: connection, settle } = started;
  try {
    const seeding = Date.now();
    const history = await siteWithHistory(server.url, connection);
    await settle();
    console.log(`${database.name}: history written in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
    const port = Number(new URL(server.url).port);
    const rows: Row[] = [];
    for (const { label, path } of cases(history)) {
      await check(server.url, path, history.cookie);
      // A short warm-up: the first requests compile the route and fill the database's caches.
      await runWrk({ ...load, seconds: 2 }, port, path, { cookie: history.cookie });
      const result: WrkResult = await runWrk(load, port, path, { cookie: history.cookie });
      if (result.failures > 0) throw new Error(`${label}: ${result.failures} failures\n${result.output}`);
      rows.push({ label, result });
      console.log(`${database.name}: ${label}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms} ms`);
    }
    // wrk stops with requests still queued in the server: let them finish before it closes.
    await sleep(2000);
    // The trivial route and the first page again: Wharf in one process and in one per CPU, and a bare server.
    const compared = cases(history).slice(0, 2);
    const processes = await compareProcesses(server, started, compared, load, history.cookie);
    results.push({ database: database.name, rows, processes });
  } finally {
    await server.close();
  }
}

console.log(
  `\n${RELEASES.toLocaleString('en-US')} releases, 10,000 hook deliveries and 10,000 submissions on one site; ` +
    `wrk -t${load.threads} -c${load.connections} -d${load.seconds}s, signed in with a session cookie\n`,
);
for (const { database, rows, processes } of results) {
  console.log(`${database}\n${resultsTable(rows)}\n`);
  console.log(`${database}, by processes (same data, one after another)\n${processTable(processes)}\n`);
}
