const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Each unit until the next one reads better: 90 minutes, then 2 hours; 25 days, then 1 month.
const UNITS: [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['minute', MINUTE, 45 * MINUTE],
  ['hour', HOUR, 22 * HOUR],
  ['day', DAY, 26 * DAY],
  ['month', 30 * DAY, 320 * DAY],
  ['year', 365 * DAY, Number.POSITIVE_INFINITY],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** 'in 2 hours', '3 days ago', 'just now': every relative time the console shows. */
export function relativeTime(date: string | Date, now: number = Date.now()): string {
  const seconds = Math.round((new Date(date).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  // Either way: the server's clock and the browser's are never exactly together.
  if (abs < 45) return 'just now';
  const [unit, size] = UNITS.find(([, , below]) => abs < below) ?? UNITS[UNITS.length - 1]!;
  return format.format(Math.round(seconds / size) || Math.sign(seconds), unit);
}

export function isPast(date: string | Date, now: number = Date.now()): boolean {
  return new Date(date).getTime() <= now;
}

/** The exact date, for tooltips beside a relative time. */
export function exactTime(date: string | Date): string {
  return new Date(date).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** '85 ms', '1.2 s', '2 min 5 s'. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
