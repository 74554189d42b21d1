import type { WrkResult } from './wrk.ts';

const rate = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);

export interface FileRow {
  label: string;
  nginx: WrkResult;
  wharf: WrkResult;
}

function table(header: string[], rows: string[][]) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function filesTable(rows: FileRow[]) {
  return table(
    ['file', 'server', 'requests/s', 'p50 ms', 'p99 ms', 'Wharf/nginx'],
    rows.flatMap((row) => [
      [row.label, 'nginx', rate(row.nginx.requestsPerSecond), ms(row.nginx.p50Ms), ms(row.nginx.p99Ms), ''],
      [
        '',
        'Wharf',
        rate(row.wharf.requestsPerSecond),
        ms(row.wharf.p50Ms),
        ms(row.wharf.p99Ms),
        `${(row.wharf.requestsPerSecond / row.nginx.requestsPerSecond).toFixed(2)}×`,
      ],
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
}

export function memoryTable(report: MemoryReport) {
  const rows = report.processes.map((p) => [
    p.name,
    p.beforeMb.toFixed(1),
    p.afterMb.toFixed(1),
    (p.afterMb - p.beforeMb).toFixed(1),
  ]);
  return [
    `${report.sites.toLocaleString('en-US')} sites × ${report.branches} branches loaded into the routing table in ${report.loadSeconds.toFixed(1)} s`,
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
