const MB = 1_000_000;
const MiB = 1024 * 1024;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const seconds = (value: number) => `${value.toFixed(2)} s`;
export const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
export const mebibytes = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
export const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
export const runs = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');

/** One line of a table: a label, then the CLI's column and the baselines'. */
export function row(label: string, ...cells: string[]) {
  return `${label.padEnd(36)}${cells.map((cell) => cell.padEnd(20)).join('')}`.trimEnd();
}

/** `target met` or `target missed`, so a reader sees at a glance which goals hold. */
export const verdict = (met: boolean) => (met ? 'target met' : 'TARGET MISSED');

/** The value below which `share` (0.5, 0.99) of the values fall. */
export const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
};

export const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
