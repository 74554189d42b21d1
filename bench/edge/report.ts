import type { HttpsRows } from './measure.ts';
import type { RulesRows } from './rules.ts';
import type { WrkResult } from './wrk.ts';

const rate = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);

export interface FileRow {
  label: string;
  nginx: WrkResult;
  wharf: WrkResult;
  /** The bare Node cluster answering Wharf's bytes from memory: the limit of a Node edge. */
  bare: WrkResult;
}

function table(header: string[], rows: string[][]) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const times = (a: WrkResult, b: WrkResult) => `${(a.requestsPerSecond / b.requestsPerSecond).toFixed(2)}×`;

export function filesTable(rows: FileRow[]) {
  const line = (label: string, server: string, r: WrkResult, ratios: string[]) => [
    label,
    server,
    rate(r.requestsPerSecond),
    ms(r.p50Ms),
    ms(r.p99Ms),
    r.cpuUsPerRequest === undefined ? '' : r.cpuUsPerRequest.toFixed(1),
    ...ratios,
  ];
  return table(
    ['file', 'server', 'requests/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'Wharf/nginx', 'Wharf/bare'],
    rows.flatMap((row) => [
      line(row.label, 'nginx', row.nginx, ['', '']),
      line('', 'bare Node', row.bare, ['', '']),
      line('', 'Wharf', row.wharf, [times(row.wharf, row.nginx), times(row.wharf, row.bare)]),
    ]),
  );
}

export function passwordTable(open: WrkResult, locked: WrkResult) {
  return table(
    ['branch', 'requests/s', 'p50 ms', 'p99 ms', 'vs unprotected'],
    [
      ['unprotected', rate(open.requestsPerSecond), ms(open.p50Ms), ms(open.p99Ms), ''],
      [
        'password (Basic)',
        rate(locked.requestsPerSecond),
        ms(locked.p50Ms),
        ms(locked.p99Ms),
        `${((locked.requestsPerSecond / open.requestsPerSecond - 1) * 100).toFixed(1)}%`,
      ],
    ],
  );
}

export interface MemoryReport {
  sites: number;
  branches: number;
  processes: { name: string; beforeMb: number; afterMb: number }[];
  before: WrkResult;
  after: WrkResult;
  loadSeconds: number;
  /** Heap of a routing table of every site, measured after full collections. */
  tableMb: number;
  tableSites: number;
}

export function memoryTable(report: MemoryReport) {
  const rows = report.processes.map((p) => [
    p.name,
    p.beforeMb.toFixed(1),
    p.afterMb.toFixed(1),
    (p.afterMb - p.beforeMb).toFixed(1),
  ]);
  return [
    `${report.sites.toLocaleString('en-US')} sites × ${report.branches} branches written to the database; served by every process ${report.loadSeconds.toFixed(1)} s later`,
    `Heap of a routing table of all ${report.tableSites.toLocaleString('en-US')} sites, after full collections: ${report.tableMb.toFixed(1)} MB`,
    '',
    table(['process', 'RSS before MB', 'RSS after MB', 'growth MB'], rows),
    '',
    table(
      ['index.html', 'requests/s', 'p99 ms'],
      [
        ['with 1 site', rate(report.before.requestsPerSecond), ms(report.before.p99Ms)],
        [`with ${report.sites + 1} sites`, rate(report.after.requestsPerSecond), ms(report.after.p99Ms)],
      ],
    ),
  ].join('\n');
}

const slowerOrFaster = (slower: number) =>
  slower >= 0 ? `${(slower * 100).toFixed(1)}% slower` : `${(-slower * 100).toFixed(1)}% faster`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

const ratio = (a: WrkResult, b: WrkResult) => a.requestsPerSecond / b.requestsPerSecond;

/** Issue 14's targets over TLS: keep-alive ≥ 0.8× nginx and ≥ 0.9× bare Node, new connections ≥ 0.6× nginx. */
function httpsTargets({ keepAlive, newConnections }: HttpsRows) {
  const toNginx = ratio(keepAlive.wharf, keepAlive.nginx);
  const toBare = ratio(keepAlive.wharf, keepAlive.bare);
  const handshakes = ratio(newConnections.wharf, newConnections.nginx);
  return [
    [`${keepAlive.label}: ≥ 0.8× nginx`, `${toNginx.toFixed(2)}×`, verdict(toNginx >= 0.8)],
    [`${keepAlive.label}: ≥ 0.9× bare Node`, `${toBare.toFixed(2)}×`, verdict(toBare >= 0.9)],
    [`${keepAlive.label}: p99 < 10 ms`, `${ms(keepAlive.wharf.p99Ms)} ms`, verdict(keepAlive.wharf.p99Ms < 10)],
    [`${newConnections.label}: ≥ 0.6× nginx`, `${handshakes.toFixed(2)}×`, verdict(handshakes >= 0.6)],
  ];
}

/** The targets of issues 5 and 14 for what was measured, each with the figure that decides it. */
export function targetsTable(
  files: FileRow[],
  https: HttpsRows | null,
  passwords: { open: WrkResult; locked: WrkResult } | null,
  memory: MemoryReport | null,
) {
  const rows: string[][] = [];
  for (const row of files.filter((r) => !r.label.includes('MB'))) {
    const ratio = row.wharf.requestsPerSecond / row.nginx.requestsPerSecond;
    rows.push([`${row.label}: ≥ 0.6× nginx`, `${ratio.toFixed(2)}×`, verdict(ratio >= 0.6)]);
    if (row === files[0] && row.label.startsWith('index.html')) {
      const toBare = row.wharf.requestsPerSecond / row.bare.requestsPerSecond;
      rows.push([`${row.label}: ≥ 0.9× bare Node (issue 14)`, `${toBare.toFixed(2)}×`, verdict(toBare >= 0.9)]);
    }
    rows.push([`${row.label}: p99 < 10 ms`, `${ms(row.wharf.p99Ms)} ms`, verdict(row.wharf.p99Ms < 10)]);
  }
  if (https) rows.push(...httpsTargets(https));
  if (passwords) {
    const cost = 1 - passwords.locked.requestsPerSecond / passwords.open.requestsPerSecond;
    rows.push(['password within 10% of unprotected', slowerOrFaster(cost), verdict(cost <= 0.1)]);
  }
  if (memory) {
    const sites = memory.sites.toLocaleString('en-US');
    rows.push([
      `${sites} sites: table < 50 MB`,
      `${memory.tableMb.toFixed(1)} MB of heap`,
      verdict(memory.tableMb < 50),
    ]);
    const growth = (p: MemoryReport['processes'][number]) => p.afterMb - p.beforeMb;
    const workers = memory.processes.filter((p) => p.name.startsWith('worker'));
    const serving = workers.length > 0 ? workers : memory.processes;
    const largest = Math.max(...serving.map(growth));
    rows.push([`… RSS growth of a process serving sites`, `${largest.toFixed(1)} MB`, verdict(largest < 50)]);
    const primary = memory.processes.find((p) => p.name === 'primary');
    if (primary)
      rows.push(['… RSS growth of the primary', `${growth(primary).toFixed(1)} MB`, verdict(growth(primary) < 50)]);
    const slower = 1 - memory.after.requestsPerSecond / memory.before.requestsPerSecond;
    rows.push(['… and no slower (within 10%)', slowerOrFaster(slower), verdict(slower <= 0.1)]);
  }
  return table(['target', 'measured', ''], rows);
}

export function profileTable(title: string, profile: { top: { label: string; share: number; ms: number }[] }) {
  return table(
    [title, 'share', 'ms'],
    profile.top.map((entry) => [entry.label, `${(entry.share * 100).toFixed(1)}%`, entry.ms.toFixed(0)]),
  );
}

/** A release with 2,000 redirect rules and 100 header blocks against the same files without them (issue 16: within 10%). */
export function rulesTable(rows: RulesRows) {
  const change = (a: WrkResult, b: WrkResult) =>
    `${((a.requestsPerSecond / b.requestsPerSecond - 1) * 100).toFixed(1)}%`;
  const line = (label: string, release: string, r: WrkResult, versus: string) => [
    label,
    release,
    rate(r.requestsPerSecond),
    ms(r.p50Ms),
    ms(r.p99Ms),
    versus,
  ];
  const { plainFile, lastRule } = rows;
  return table(
    ['request', 'release', 'requests/s', 'p50 ms', 'p99 ms', 'vs without'],
    [
      line('/ (index.html)', 'no rules', plainFile.without, ''),
      line('', '2,100 rules + 100 blocks', plainFile.with, change(plainFile.with, plainFile.without)),
      line('last rule (302)', 'that rule alone', lastRule.alone, ''),
      line('', '2,100 rules + 100 blocks', lastRule.last, change(lastRule.last, lastRule.alone)),
    ],
  );
}
