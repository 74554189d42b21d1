import type { WrkResult } from '../edge/wrk.ts';

export interface Row {
  label: string;
  result: WrkResult;
}

/** Issue 17's target for each list read by 50 readers at once. */
const TARGET_P99_MS = 50;

export function resultsTable(rows: Row[]) {
  const baseline = rows[0]!.result;
  const cells = rows.map(({ label, result }, index) => [
    label,
    Math.round(result.requestsPerSecond).toLocaleString('en-US'),
    result.p50Ms.toFixed(2),
    result.p99Ms.toFixed(2),
    `${(result.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}×`,
    index === 0 ? '' : result.p99Ms <= TARGET_P99_MS ? 'met' : 'NOT met',
  ]);
  const header = ['request', 'requests/s', 'p50 ms', 'p99 ms', 'rate/baseline', `p99 ≤ ${TARGET_P99_MS} ms`];
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
