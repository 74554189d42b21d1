import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMeter } from './cpu.ts';
import { addSites, BRANCHES, waitUntilServed } from './manySites.ts';
import { megabytes, processTreeMemory, routingTableHeap } from './memory.ts';
import type { FileRow, MemoryReport } from './report.ts';
import type { BenchFile } from './siteFiles.ts';
import type { BenchSite, WharfServer } from './wharf.ts';
import { type Load, runWrk, type WrkResult } from './wrk.ts';

export interface Target {
  port: number;
  path: string;
  headers: Record<string, string>;
  /** Over TLS (wrk connects to `localhost`, see runWrk). */
  tls?: boolean;
  /** The server's main process: its CPU time and its children's is measured during each run. */
  pid?: number;
}

export interface Plan {
  load: Load;
  warmUp: Load;
  /** Runs of each target, taken in turn so that a busy moment of the machine hits all of them. */
  rounds: number;
}

export const GZIP = { 'Accept-Encoding': 'gzip' };
/**
 * V8 gives back the heap a burst of work grew (its memory reducer) only after a while of quiet, in
 * steps: the resident memory of each process is its lowest over a minute of samples.
 */
const SETTLE_MS = 60_000;
const SAMPLE_EVERY_MS = 5_000;

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function checkedRun(load: Load, target: Target) {
  const cpu = target.pid ? cpuMeter(target.pid) : null;
  const result = await runWrk(load, target.port, target.path, target.headers, target.tls);
  if (result.failures > 0) {
    throw new Error(`${result.failures} failed requests for ${target.path} on port ${target.port}:\n${result.output}`);
  }
  if (cpu && result.requests > 0) result.cpuUsPerRequest = (cpu.elapsedMs() * 1000) / result.requests;
  return result;
}

const medianOf = (results: WrkResult[], figure: (r: WrkResult) => number | undefined) => {
  const values = results.map(figure).filter((value) => value !== undefined);
  return values.length > 0 ? median(values) : undefined;
};

/** Each target warmed up once, then run `rounds` times in turn; the median of each figure. */
export async function compare(plan: Plan, targets: Target[]): Promise<WrkResult[]> {
  for (const target of targets) await checkedRun(plan.warmUp, target);
  const runs: WrkResult[][] = targets.map(() => []);
  for (let round = 0; round < plan.rounds; round++) {
    for (const [i, target] of targets.entries()) runs[i]!.push(await checkedRun(plan.load, target));
  }
  return runs.map((results) => ({
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    requests: median(results.map((r) => r.requests)),
    cpuUsPerRequest: medianOf(results, (r) => r.cpuUsPerRequest),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    failures: 0,
    output: '',
  }));
}

/** The rows of the files table: each file as is, and the script gzip-encoded. */
export function fileCases(files: BenchFile[]) {
  const script = files.find((file) => file.name.endsWith('.js'));
  return [
    ...files.map((file) => ({ label: file.label, path: `/${file.name}`, headers: {} as Record<string, string> })),
    ...(script
      ? [{ label: `${script.label}, gzip`, path: `/${script.name}`, headers: GZIP as Record<string, string> }]
      : []),
  ];
}

/** A server under load: where wrk sends requests, and the process whose CPU time is counted. */
export interface Listener {
  port: number;
  pid: number | undefined;
}

export async function measureFiles(
  plan: Plan,
  servers: { nginx: Listener; bare: Listener },
  wharf: WharfServer,
  site: BenchSite,
  files: BenchFile[],
) {
  const rows: FileRow[] = [];
  for (const c of fileCases(files)) {
    process.stderr.write(`measuring ${c.label}…\n`);
    const [nginx, wharfResult, bare] = await compare(plan, [
      { ...servers.nginx, path: c.path, headers: { Host: 'localhost', ...c.headers } },
      { port: wharf.port, pid: wharf.child.pid, path: c.path, headers: { Host: site.host, ...c.headers } },
      { ...servers.bare, path: c.path, headers: { Host: site.host, ...c.headers } },
    ]);
    rows.push({ label: c.label, nginx: nginx!, wharf: wharfResult!, bare: bare! });
  }
  return rows;
}

/** The HTTPS rows: the 2 KB page over kept-alive TLS connections, then over a new one per request. */
export interface HttpsRows {
  keepAlive: FileRow;
  newConnections: FileRow;
}

/**
 * Each request its own connection: the rate of new TLS connections. wrk offers the TLS session of a
 * connection's previous socket, so some handshakes are resumptions (about half, against node:https).
 */
const CLOSE = { Connection: 'close' };

export async function measureHttps(
  plan: Plan,
  servers: { nginx: Listener; bare: Listener; wharf: Listener },
  siteHost: string,
  file: BenchFile,
): Promise<HttpsRows> {
  const path = `/${file.name}`;
  const run = async (label: string, extra: Record<string, string>) => {
    process.stderr.write(`measuring ${label}…\n`);
    const headers = { Host: siteHost, ...extra };
    const [nginx, wharfResult, bare] = await compare(plan, [
      { ...servers.nginx, path, headers: { ...headers, Host: 'localhost' }, tls: true },
      { ...servers.wharf, path, headers, tls: true },
      { ...servers.bare, path, headers, tls: true },
    ]);
    return { label, nginx: nginx!, wharf: wharfResult!, bare: bare! };
  };
  return {
    keepAlive: await run(`${file.label}, HTTPS`, {}),
    newConnections: await run(`${file.label}, HTTPS, new connections`, CLOSE),
  };
}

export async function measurePasswords(plan: Plan, wharf: WharfServer, site: BenchSite) {
  process.stderr.write('measuring the password-protected branch…\n');
  const [open, locked] = await compare(plan, [
    { port: wharf.port, path: '/index.html', headers: { Host: site.host } },
    { port: wharf.port, path: '/index.html', headers: { Host: site.privateHost, Authorization: site.credential } },
  ]);
  return { open: open!, locked: locked! };
}

async function settledMemory(pid: number) {
  const lowest = new Map<number, number>();
  for (let waited = 0; waited <= SETTLE_MS; waited += SAMPLE_EVERY_MS) {
    for (const p of processTreeMemory(pid)) lowest.set(p.pid, Math.min(p.rssBytes, lowest.get(p.pid) ?? Infinity));
    await sleep(SAMPLE_EVERY_MS);
  }
  return lowest;
}

/** Resident memory and request rate with one site, then with `sites` more of three branches each. */
export async function measureMemory(
  plan: Plan,
  wharf: WharfServer,
  site: BenchSite,
  sites: number,
): Promise<MemoryReport> {
  process.stderr.write(`measuring memory with ${sites} more sites…\n`);
  const mainPid = wharf.child.pid!;
  const target = { port: wharf.port, path: '/index.html', headers: { Host: site.host } };
  const [before] = await compare(plan, [target]);
  const rssBefore = await settledMemory(mainPid);
  const started = Date.now();
  await addSites(wharf.dataDir, site, sites);
  await waitUntilServed(wharf.port, sites);
  const loadSeconds = (Date.now() - started) / 1000;
  const heap = await routingTableHeap(wharf.dataDir);
  const [after] = await compare(plan, [target]);
  const rssAfter = await settledMemory(mainPid);
  return {
    sites,
    branches: BRANCHES.length,
    processes: [...rssBefore].map(([pid, rss]) => ({
      name: pid !== mainPid ? `worker ${pid}` : rssBefore.size > 1 ? 'primary' : 'Wharf',
      beforeMb: megabytes(rss),
      afterMb: megabytes(rssAfter.get(pid) ?? 0),
    })),
    before: before!,
    after: after!,
    loadSeconds,
    tableMb: megabytes(heap.bytes),
    tableSites: heap.sites,
  };
}
